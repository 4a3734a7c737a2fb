// The data folder on a 20 MB tmpfs (needs root for `mount -t tmpfs`; skipped otherwise), with
// the default rate limits on. Uploads until the disk is full answer 507 insufficient_storage
// (never 500, nor 503 from a limiter that cannot write its counters), nothing half-stored,
// /readyz says so, a metric counts it; at 0 bytes free, uploads still answer 507, reads 200, and
// refused requests do not grow the WAL; after the space is freed, the database agrees with the
// blobs and every queued document succeeds without anything restarted.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, statfsSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { smallPdf } from './fixtures.js';

const MOUNT = mkdtempSync(join(tmpdir(), 'tm-full-'));
const mounted = process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', MOUNT]).status === 0;

/** Writes `path` until the file system refuses: 0 bytes free. */
function fillUp(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let size = chunk.length; size >= 1; ) {
      try {
        writeSync(fd, chunk, 0, size);
      } catch {
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
}

function freeBytes(): number {
  const st = statfsSync(MOUNT);
  return st.bavail * st.bsize;
}

/** Blob files and temp files under the data folder's blobs. */
function blobFiles(): { blobs: number; temps: number } {
  let blobs = 0;
  let temps = 0;
  const root = join(MOUNT, 'blobs');
  for (const shard of readdirSync(root, { withFileTypes: true })) {
    if (!shard.isDirectory()) continue;
    for (const f of readdirSync(join(root, shard.name))) {
      if (f.startsWith('.tmp-')) temps++;
      else blobs++;
    }
  }
  return { blobs, temps };
}

describe.skipIf(!mounted)('full disk (20 MB tmpfs)', () => {
  let server: RunningServer | null = null;
  const logs: string[] = [];
  afterAll(async () => {
    await server?.close();
    if (mounted) execFileSync('umount', ['-l', MOUNT]);
    rmSync(MOUNT, { recursive: true, force: true });
  });

  it('507 until full, nothing half-stored, readyz and a metric say so; freed space resumes every queued document', async () => {
    const config = loadConfig({ TABLEMILL_DATA_DIR: MOUNT, PORT: '0', TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_POLL_MS: '200', TABLEMILL_LOG_LEVEL: 'warn' });
    server = await startServer(config, { workers: true, logger: { level: 'warn', stream: { write: (line: string) => void logs.push(line) } }, graceMs: 2000 });
    const key = (await createKey(server.deps.store, 'acme', Date.now())).key;
    const auth = { authorization: `Bearer ${key}` };
    const url = server.url;

    // Leave about 3 MB free, then upload 400 KB files until refused several times in a row.
    const filler = join(MOUNT, 'filler');
    writeFileSync(filler, Buffer.alloc(Math.max(0, freeBytes() - 3 * 1024 * 1024)));
    const statuses: number[] = [];
    const codes: string[] = [];
    let refusedInARow = 0;
    for (let n = 0; n < 40 && refusedInARow < 4; n++) {
      const form = new FormData();
      form.append('file', new Blob([await smallPdf(n, 400_000)], { type: 'application/pdf' }), `doc-${n}.pdf`);
      const res = await fetch(`${url}/v1/batches/full/documents`, { method: 'POST', body: form, headers: auth });
      statuses.push(res.status);
      if (res.status !== 201) codes.push(((await res.json()) as { error: { code: string } }).error.code);
      refusedInARow = res.status === 201 ? 0 : refusedInARow + 1;
    }
    const stored = statuses.filter((s) => s === 201).length;
    console.log(`uploads: ${statuses.join(' ')}; codes ${[...new Set(codes)].join(', ')}; ${freeBytes()} bytes free`);
    expect(statuses).not.toContain(500);
    expect(statuses).toContain(507);
    expect(stored).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 201 || s === 507)).toBe(true);
    expect(codes.every((c) => c === 'insufficient_storage')).toBe(true);

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    const readyBody = (await ready.json()) as { error: { message: string; details: { reason: string } } };
    expect(readyBody.error.details.reason).toBe('storage_full');
    expect(readyBody.error.message).toMatch(/uploads answer 507/);

    // Not a byte left: refused uploads stay 507, reads are served, and nothing grows the WAL.
    const last = join(MOUNT, 'last-bytes');
    fillUp(last);
    const wal = () => statSync(join(MOUNT, 'tablemill.db-wal')).size;
    const walBefore = wal();
    const atZero: number[] = [];
    for (let n = 0; n < 10; n++) {
      const form = new FormData();
      form.append('file', new Blob([await smallPdf(100 + n, 20_000)], { type: 'application/pdf' }), `zero-${n}.pdf`);
      atZero.push((await fetch(`${url}/v1/batches/full/documents`, { method: 'POST', body: form, headers: auth })).status);
      atZero.push((await fetch(`${url}/v1/batches/full`, { headers: auth })).status);
    }
    // Past the background settling of the rate-limit counts (250 ms).
    await new Promise((r) => setTimeout(r, 600));
    console.log(`at 0 bytes free (${freeBytes()}): ${atZero.join(' ')}; WAL ${walBefore} -> ${wal()} bytes`);
    expect(atZero.filter((_, i) => i % 2 === 0).every((s) => s === 507)).toBe(true);
    expect(atZero.filter((_, i) => i % 2 === 1).every((s) => s === 200)).toBe(true);
    expect(wal()).toBe(walBefore);
    rmSync(last);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/tablemill_store_faults_total\{fault="storage_full",component="api"\} [1-9]/);

    // Submitted while full (a write that may itself be refused): the workers meet the full disk.
    let submitted = false;
    for (let i = 0; i < 5 && !submitted; i++) {
      const res = await fetch(`${url}/v1/batches/full/process`, { method: 'POST', headers: auth });
      expect(res.status).not.toBe(500);
      submitted = res.status === 202;
    }
    await new Promise((r) => setTimeout(r, 3000));

    rmSync(filler);
    const t0 = Date.now();
    if (!submitted) {
      const res = await fetch(`${url}/v1/batches/full/process`, { method: 'POST', headers: auth });
      expect(res.status).toBe(202);
    }
    type BatchView = { all_done: boolean; document_count: number; counts: Record<string, number> };
    let batch: BatchView | null = null as BatchView | null;
    while (Date.now() - t0 < 60_000) {
      const res = await fetch(`${url}/v1/batches/full`, { headers: auth });
      if (res.status === 200) {
        batch = (await res.json()) as BatchView;
        if (batch.all_done) break;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    const faults = (await (await fetch(`${url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('tablemill_store_faults_total'));
    console.log(`all done ${Date.now() - t0} ms after the space was freed: ${JSON.stringify(batch?.counts)}; ${faults.join('; ')}`);
    expect(batch).toMatchObject({ all_done: true, document_count: stored, counts: { succeeded: stored } });
    expect(blobFiles()).toEqual({ blobs: stored, temps: 0 });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const errorsLogged = logs.filter((l) => /"level":50/.test(l) && /claim failed/.test(l)).length;
    expect(errorsLogged).toBeLessThanOrEqual(2);
    expect(logs.join('')).not.toMatch(/"statusCode":500/);
  }, 180_000);
});

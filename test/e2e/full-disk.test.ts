// Issue 25 §5: the data folder on a 20 MB tmpfs (needs root for `mount -t tmpfs`; skipped
// otherwise). Uploads until the disk is full answer 507 insufficient_storage (or 503 from a rate
// limiter that cannot count; never 500), nothing half-stored, /readyz says so, a metric counts
// it; after the space is freed, the database agrees with the blobs and every queued document
// succeeds without anything restarted.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { smallPdf } from './fixtures.js';

const MOUNT = mkdtempSync(join(tmpdir(), 'tm-full-'));
const mounted = process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', MOUNT]).status === 0;

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
    expect(statuses.every((s) => s === 201 || s === 507 || s === 503)).toBe(true);
    expect(codes.every((c) => c === 'insufficient_storage' || c === 'unavailable')).toBe(true);

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe('storage_full');
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

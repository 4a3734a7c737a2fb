// A real `tablemill serve` against hostile pages: page images render in child processes under the
// extraction's limits, children die with a killed server, and SIGTERM ends the server within its
// grace even while a hostile page renders.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { compressionBombPdf, slowPagePdf } from '../bombs.js';
import { icdarPdf } from './fixtures.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from './server.js';

let servers: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.kill9()));
  servers = [];
});

async function start(env: Record<string, string>): Promise<ServeProcess> {
  const s = await serve(env);
  servers.push(s);
  return s;
}

/** Uploads `bytes` as `name` into `batch`; the document id. */
async function upload(url: string, key: string, batch: string, name: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
  const res = await fetch(`${url}/v1/batches/${batch}/documents`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { documents: Array<{ id: string }> }).documents[0].id;
}

/** GETs page 1 of `id` at `width`: status, error code, the processing error's code, ms taken. */
async function page(url: string, key: string, id: string, width: number, signal?: AbortSignal) {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/documents/${id}/pages/1.png?width=${width}`, { headers: { authorization: `Bearer ${key}` }, signal });
  const body = res.headers.get('content-type')?.startsWith('application/json') ? ((await res.json()) as { error?: { code: string; details?: { processing_error?: { code: string } } } }) : null;
  await res.body?.cancel().catch(() => {});
  return { status: res.status, code: body?.error?.code, processing: body?.error?.details?.processing_error?.code, ms: performance.now() - t0, body };
}

/** Child processes of `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** A process that exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
}

/**
 * Time limits hold on a machine with a free core; on a shared machine running N times more
 * processes than cores, each is allowed N times as long (the figures are printed either way).
 */
const loadFactor = () => Math.max(1, loadavg()[0] / availableParallelism());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('isolation of page renders and extraction children', () => {
  it('answers a Flate bomb page 422 resource_limit in seconds, within 400 MB, while another account is served', async () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '0', TABLEMILL_RENDER_PROCESSES: '2' };
    const hostile = createKeyCli(env, 'hostile');
    const other = createKeyCli(env, 'other');
    const s = await start(env);
    const bomb = await upload(s.url, hostile, 'bombs', 'bomb.pdf', await compressionBombPdf());
    const fine = await upload(s.url, other, 'fine', 'eu-001.pdf', icdarPdf('eu-001'));
    // The rendering children start with the first page.
    expect((await page(s.url, other, fine, 300)).status).toBe(200);
    let peak = rssKiB(s.proc.pid!);
    const poll = setInterval(() => (peak = Math.max(peak, rssKiB(s.proc.pid!))), 20);
    try {
      const bombs = [1, 2, 3].map((i) => page(s.url, hostile, bomb, 1200 + i));
      await sleep(100);
      const mine = await page(s.url, other, fine, 600);
      const answers = await Promise.all(bombs);
      const load = loadFactor();
      console.log(
        `bomb pages: ${answers.map((a) => `${a.status} ${Math.round(a.ms)} ms`).join(', ')}; other account: ${Math.round(mine.ms)} ms; ` +
          `API peak RSS ${Math.round(peak / 1024)} MB; load ${loadavg()[0].toFixed(1)} (×${load.toFixed(1)})`,
      );
      for (const a of answers) {
        expect(a).toMatchObject({ status: 422, code: 'unprocessable', processing: 'resource_limit' });
        expect(a.ms).toBeLessThan(5000 * load);
      }
      expect(mine.status).toBe(200);
      expect(mine.ms).toBeLessThan(2000 * load);
      expect(peak).toBeLessThan(400 * 1024);
    } finally {
      clearInterval(poll);
    }
  }, 180_000);

  it('leaves no extraction child alive 3 s after a kill -9 of its server', async () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '2', TABLEMILL_POLL_MS: '100' };
    const key = createKeyCli(env, 'acme');
    const s = await start(env);
    const slow = await slowPagePdf(20_000);
    const ids = [await upload(s.url, key, 'slow', 'a.pdf', slow), await upload(s.url, key, 'slow', 'b.pdf', slow)];
    expect((await fetch(`${s.url}/v1/batches/slow/process`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).status).toBe(202);
    // Both documents in extraction: the children are deep in pdf.js, not listening.
    const deadline = Date.now() + 150_000;
    for (;;) {
      const states = await Promise.all(
        ids.map(async (id) => ((await (await fetch(`${s.url}/v1/documents/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string }).status),
      );
      if (states.every((st) => st === 'processing')) break;
      expect(Date.now(), `documents ${states.join(', ')}`).toBeLessThan(deadline);
      await sleep(100);
    }
    await sleep(500);
    const children = childrenOf(s.proc.pid!);
    expect(children.length).toBeGreaterThanOrEqual(2);
    await s.kill9();
    const t0 = performance.now();
    while (children.some(alive) && performance.now() - t0 < 3000) await sleep(50);
    console.log(`children of the killed server: ${children.length}; all gone after ${Math.round(performance.now() - t0)} ms`);
    expect(children.filter(alive)).toEqual([]);
  }, 240_000);

  it('exits within its grace + 5 s on SIGTERM during a hostile render, holding its port until then', async () => {
    const graceMs = 2000;
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_SHUTDOWN_GRACE_MS: String(graceMs), TABLEMILL_RENDER_PROCESSES: '1' };
    const key = createKeyCli(env, 'acme');
    const s = await start(env);
    const fine = await upload(s.url, key, 'fine', 'eu-001.pdf', icdarPdf('eu-001'));
    const id = await upload(s.url, key, 'slow', 'slow.pdf', await slowPagePdf(20_000));
    // The same page in extraction too: the grace runs out on it.
    expect((await fetch(`${s.url}/v1/batches/slow/process`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).status).toBe(202);
    // The rendering child started with a first page; then the hostile one keeps pdf.js busy.
    expect((await page(s.url, key, fine, 300)).status).toBe(200);
    const rendering = page(s.url, key, id, 1200);
    await sleep(1000);
    const { port } = new URL(s.url);
    let portClosedAt = 0;
    const t0 = performance.now();
    const exited = new Promise<number>((r) => s.proc.once('exit', () => r(performance.now())));
    s.proc.kill('SIGTERM');
    const watch = (async () => {
      while (s.proc.exitCode === null && s.proc.signalCode === null) {
        const open = await new Promise<boolean>((r) => {
          const c = connect(Number(port), '127.0.0.1', () => (c.destroy(), r(true))).on('error', () => r(false));
        });
        if (!open && !portClosedAt) portClosedAt = performance.now();
        await sleep(25);
      }
    })();
    const exitAt = await exited;
    await watch;
    const answer = await rendering.catch(() => ({ status: 0 }));
    const ms = exitAt - t0;
    console.log(`SIGTERM → exit ${Math.round(ms)} ms (grace ${graceMs}); port closed ${portClosedAt ? Math.round(exitAt - portClosedAt) : 0} ms before exit; the render answered ${answer.status} ${JSON.stringify((answer as { body?: unknown }).body)}`);
    expect(ms).toBeLessThan(graceMs + 5000);
    if (portClosedAt) expect(exitAt - portClosedAt).toBeLessThan(2500);
    expect([503, 0]).toContain(answer.status);
  }, 180_000);
});

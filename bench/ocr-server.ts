/**
 * The server's path for `bench ocr`, forked by it: each page image it is sent goes through an
 * ExtractionPool of one slot, as `tablemill serve` and `tablemill worker` run documents (a
 * child process, the whole document: OCR, tables, line items). Its own process, started without
 * OMP_THREAD_LIMIT unless the user set one, so that what the pool arranges for its threads is
 * measured, not what the benchmark's main thread already loaded. One process for the whole run,
 * so its pages interleave with the other contenders' and it warms up once, as a server does.
 * Protocol: the parent sends a file path, the child answers { ms, rssMb } (its peak RSS so far) or { error }.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadConfig } from '../src/config.js';
import { ExtractionPool } from '../src/worker/pool.js';

const send = (m: unknown) => process.send?.(m);
const pool = new ExtractionPool(loadConfig({ ...process.env, TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DATA_DIR: tmpdir() }));
// The child loads the engine (≈ 1 s) before it says it is ready, as at a server's start.
await pool.warm();
let queue = Promise.resolve();
process.on('message', (file: string) => {
  queue = queue.then(async () => {
    const bytes = readFileSync(file);
    const t = performance.now();
    const out = await pool.extract(bytes);
    const ms = performance.now() - t;
    // Peak RSS of this process and of its extraction child, which together stand for the server.
    const rssMb = process.resourceUsage().maxRSS / 1024 + (pool.memory()[0]?.peakRssMb ?? 0);
    const childRssMb = pool.memory()[0]?.peakRssMb ?? 0;
    send(out.status === 'succeeded' ? { ms, rssMb, childRssMb } : { error: `${file}: ${out.error.code}: ${out.error.message}` });
  });
});
process.on('disconnect', () => void queue.then(() => pool.close()));
// The idle slot: its child's RSS once warm, before any page.
send({ ready: true, idleRssMb: pool.memory()[0]?.rssMb ?? 0 });

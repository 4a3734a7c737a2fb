/**
 * `npm run bench -- pages`: page images for the web app. Renders page 1 of the first ten ICDAR PDFs at
 * 1200 px in the API's own thread (renderPage called directly) and through a rendering child
 * process (PageRenderer), alternating, 3 rounds. For each: the median time a page takes, and the median
 * and worst longest stall of the event loop while it renders (what every other request of the
 * API process waits). Then a cache hit (PageImages) for scale.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { renderPage } from '../src/extract/render.js';
import { PageRenderer } from '../src/api/pages/renderer.js';
import { PageImages } from '../src/api/pages/images.js';

const ICDAR = resolve(import.meta.dirname, '../test/fixtures/icdar2013-eu');
const DOCS = readdirSync(ICDAR).filter((f) => f.endsWith('.pdf')).sort().slice(0, 10);
const WIDTH = 1200;
const ROUNDS = 3;
const LIMITS = { maxMegapixels: 50, maxPages: 100, maxInflatedBytes: 256 * 1024 * 1024 };
const OPTS = { limits: LIMITS, child: { timeoutMs: 30_000, heapMb: 1024, maxRssMb: 1536 }, slots: 1, maxQueue: 32 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `fn` and returns its time and the longest event-loop stall during it, both in ms. */
async function measured(fn: () => Promise<unknown>): Promise<{ ms: number; stallMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  h.disable();
  return { ms, stallMs: h.max / 1e6 };
}

export async function run(): Promise<void> {
  const files = DOCS.map((f) => readFileSync(join(ICDAR, f)));
  const thread = new PageRenderer(OPTS);
  // Start-up (loading pdf.js in the child) is paid once per process, not per page.
  await thread.render('bench', files[0], 1, WIDTH);
  await renderPage(files[0], 1, WIDTH, LIMITS);
  const inProcess = { ms: [] as number[], stall: [] as number[] };
  const threaded = { ms: [] as number[], stall: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const bytes of files) {
      const a = await measured(() => renderPage(bytes, 1, WIDTH, LIMITS));
      inProcess.ms.push(a.ms);
      inProcess.stall.push(a.stallMs);
      const b = await measured(() => thread.render('bench', bytes, 1, WIDTH));
      threaded.ms.push(b.ms);
      threaded.stall.push(b.stallMs);
    }
  }
  await thread.close();
  const line = (name: string, x: { ms: number[]; stall: number[] }) =>
    console.log(`${name}: median ${median(x.ms).toFixed(0)} ms a page; event loop stalled ${median(x.stall).toFixed(0)} ms (median), ${Math.max(...x.stall).toFixed(0)} ms (worst)`);
  line('in the API thread', inProcess);
  line('rendering child  ', threaded);
  console.log(`time a page, child / in-process: ${(median(threaded.ms) / median(inProcess.ms)).toFixed(2)}×`);
  console.log(`longest stall, in-process / child: ${(median(inProcess.stall) / median(threaded.stall)).toFixed(1)}× (median)`);

  const images = new PageImages(OPTS);
  await images.get('bench', 'doc', 1, WIDTH, async () => files[0]);
  const hits: number[] = [];
  for (let i = 0; i < 200; i++) hits.push((await measured(() => images.get('bench', 'doc', 1, WIDTH, async () => files[0]))).ms);
  await images.close();
  console.log(`cache hit: median ${(median(hits) * 1000).toFixed(0)} µs; miss / hit: ${(median(threaded.ms) / median(hits)).toFixed(0)}×`);
}

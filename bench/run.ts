/**
 * `npm run bench [-- NAME...]`: runs the named benchmarks (default: the service ones). Each
 * benchmark module exports `run(): Promise<void>` and prints its figures as ratios against the
 * peer measured in the same run; the machine's load (as `uptime` gives it) is printed before and
 * after each, since on a shared machine a ratio means little without it. At the end, one table
 * of every figure a target is set for (bench/figures.ts), with the load at the start and the end.
 */
import { loadavg } from 'node:os';
import { figureTable } from './figures.js';

const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min)`;
const BENCHES: Record<string, () => Promise<{ run(args: string[]): Promise<void> }>> = {
  status: () => import('./status.js'),
  queue: () => import('./queue.js'),
  extract: () => import('./extract.js'),
  ocr: () => import('./ocr.js'),
  startup: () => import('./startup.js'),
  bombs: () => import('./bombs.js'),
  pages: () => import('./pages.js'),
  ingest: () => import('./ingest.js'),
};

const DEFAULT = ['status', 'queue'];

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const selected = names.length ? names : DEFAULT;
const startLoad = load();
for (const name of selected) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n## bench ${name} (${new Date().toISOString()}, ${load()})`);
  await (await bench()).run(process.argv.slice(2));
  console.log(`## bench ${name} done, ${load()}`);
}

const table = figureTable();
if (table) console.log(`\n## figures against their targets (started at ${startLoad}; ended at ${load()})\n${table}`);

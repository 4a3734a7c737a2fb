/**
 * `npm run bench [-- NAME...]`: runs the named benchmarks (default: the service ones). Each
 * benchmark module exports `run(): Promise<void>` and prints its figures and peer ratios.
 */
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
for (const name of selected) {
  const load = BENCHES[name];
  if (!load) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n## bench ${name}`);
  await (await load()).run(process.argv.slice(2));
}

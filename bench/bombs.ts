/**
 * `npm run bench -- bombs [--reps=3]`: hostile PDFs through the extraction pool, as `tablemill
 * serve` and `tablemill worker` run documents (one slot, a child process): a one-page PDF whose
 * content stream inflates to 2 GiB (~2 MB), and pages drawing a 20000² (~389 KB) and a 40000²
 * (~1.5 MB) grey image, and invoice XML bombs (a billion laughs, external entities, a quadratic
 * blowup, 200,000-deep nesting: `resource_limit` or `unsupported_format`, see API.md §4c). Each
 * must end failed within 10 s, with the child's
 * peak RSS under TABLEMILL_WORKER_MAX_RSS_MB and the slot back to idle after. The 2 GiB bomb runs
 * again with the inflation cap lifted, so that only the RSS limit stops it. The peer, in the
 * same run: a normal ICDAR page (eu-005) through the same pool. Times are medians of the reps.
 */
import { tmpdir } from 'node:os';
import { loadConfig, type Config } from '../src/config.js';
import { ExtractionPool } from '../src/worker/pool.js';
import { icdarPdf } from '../test/e2e/fixtures.js';
import { billionLaughsXml, compressionBombPdf, deepNestingXml, externalEntityXml, imageBombPdf, quadraticBlowupXml } from '../test/bombs.js';

function flag(args: string[], name: string, def: number): number {
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq ? Number(eq.split('=')[1]) : def;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  ms: number;
  outcome: string;
  peakMb: number;
  afterMb: number;
}

/** Extracts `bytes` in `pool`, sampling the child's RSS every 10 ms; then its RSS 1 s after. */
async function measure(pool: ExtractionPool, bytes: Buffer): Promise<Run> {
  let peakMb = 0;
  const sample = setInterval(() => {
    for (const m of pool.memory()) if (m) peakMb = Math.max(peakMb, m.rssMb);
  }, 10);
  const t = performance.now();
  const out = await pool.extract(bytes);
  const ms = performance.now() - t;
  clearInterval(sample);
  // A killed child is gone: its last sample is its peak. A live one knows its own (VmHWM).
  for (const m of pool.memory()) if (m) peakMb = Math.max(peakMb, m.peakRssMb);
  // The replacement (or recycled) child loads, then settles.
  await pool.warm();
  await sleep(1000);
  const afterMb = Math.max(...pool.memory().map((m) => m?.rssMb ?? 0));
  const outcome = out.status === 'failed' ? `failed / ${out.error.code}` : out.status;
  return { ms, outcome, peakMb, afterMb };
}

async function runSet(name: string, config: Config, docs: Array<[string, Buffer]>, reps: number): Promise<Map<string, Run[]>> {
  const pool = new ExtractionPool(config);
  await pool.warm();
  await sleep(1000);
  const idle = pool.memory()[0]?.rssMb ?? NaN;
  console.log(`\n${name}: limit ${config.worker.maxRssMb} MB RSS, inflation cap ${Math.round(config.limits.maxInflatedBytes / 2 ** 20)} MB; idle slot RSS ${idle.toFixed(0)} MB`);
  const runs = new Map<string, Run[]>();
  try {
    // Interleaved rounds, so that load from other work falls on every document alike.
    for (let r = 0; r < reps; r++) {
      for (const [doc, bytes] of docs) {
        const run = await measure(pool, bytes);
        runs.set(doc, [...(runs.get(doc) ?? []), run]);
      }
    }
  } finally {
    await pool.close();
  }
  console.log('| document | outcome | median time | peak child RSS (max) | slot RSS 1 s after (max) |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [doc, rs] of runs) {
    const outcomes = [...new Set(rs.map((r) => r.outcome))].join(', ');
    const ms = median(rs.map((r) => r.ms));
    console.log(`| ${doc} | ${outcomes} | ${(ms / 1000).toFixed(2)} s | ${Math.max(...rs.map((r) => r.peakMb)).toFixed(0)} MB | ${Math.max(...rs.map((r) => r.afterMb)).toFixed(0)} MB |`);
  }
  return runs;
}

export async function run(args: string[]): Promise<void> {
  const reps = flag(args, 'reps', 3);
  const env = { ...process.env, TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DATA_DIR: tmpdir() };
  console.log('building the bombs…');
  const docs: Array<[string, Buffer]> = [
    ['eu-005 (peer)', icdarPdf('eu-005')],
    ['2 GiB compression bomb', await compressionBombPdf()],
    ['20000² image', await imageBombPdf(20_000)],
    ['40000² image', await imageBombPdf(40_000)],
    ['billion laughs XML', billionLaughsXml()],
    ['external entities XML', externalEntityXml()],
    ['quadratic blowup XML', quadraticBlowupXml()],
    ['200000-deep XML', deepNestingXml()],
  ];
  for (const [doc, bytes] of docs) console.log(`  ${doc}: ${(bytes.length / 1e6).toFixed(2)} MB file`);
  const bounded = await runSet('bounds (defaults)', loadConfig(env), docs, reps);
  const peer = median(bounded.get('eu-005 (peer)')!.map((r) => r.ms));
  for (const [doc, rs] of bounded) if (doc !== 'eu-005 (peer)') console.log(`${doc}: ${(median(rs.map((r) => r.ms)) / peer).toFixed(2)}× the peer's time`);
  // Only the RSS limit stands between the bomb and the machine here.
  await runSet('RSS limit alone (no inflation cap)', loadConfig({ ...env, TABLEMILL_MAX_INFLATED_MB: '65536' }), docs.slice(0, 2), reps);
}

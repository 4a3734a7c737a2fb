/**
 * `tablemill extract PATH... [--out DIR] [--jobs N]`: runs the engine without a server (on files,
 * and on the PDF and image files under folders), through
 * the same ExtractionPool as the service, so each document gets the service's time limit
 * (TABLEMILL_DOCUMENT_TIMEOUT_MS, `--timeout-ms`) and memory bounds (TABLEMILL_WORKER_HEAP_MB, _MAX_RSS_MB),
 * and a hostile file ends as its own `processing_error` instead of taking the process down.
 * `--jobs N` documents run at once (default: TABLEMILL_WORKER_CONCURRENCY, the cores).
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { loadConfig } from '../config.js';
import { sniffType } from '../extract/sniff.js';
import type { DocumentOutcome } from '../store/types.js';
import { ExtractionPool } from '../worker/pool.js';
import { collectFiles, fileHead, noteSkipped } from './collect.js';
import { EXIT, UsageError } from './exit.js';

export interface ExtractFlags {
  out?: string;
  pretty?: boolean;
  jobs?: string;
  ignoreEmbedded?: boolean;
}

async function extractFile(pool: ExtractionPool, path: string, embedded: 'use' | 'ignore'): Promise<DocumentOutcome> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err) {
    return { status: 'failed', page_count: null, error: { code: 'extraction_failed', message: `cannot read ${path}: ${(err as Error).message}` } };
  }
  return pool.extract(bytes, undefined, { embedded });
}

/** The JSON text of one outcome: the engine's result, or `{"processing_error": {code, message}}`. */
function outcomeJson(o: DocumentOutcome, indent: number | undefined): string {
  if (o.status === 'succeeded') return (indent ? JSON.stringify(JSON.parse(o.result_json), null, indent) : o.result_json) + '\n';
  return JSON.stringify({ processing_error: o.error }, null, indent) + '\n';
}

/** Each path as given, with folders replaced by their PDF and image files (recursively). */
async function expand(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const isDir = await stat(p).then((s) => s.isDirectory(), () => false);
    // A path that cannot be read stays, and gets its own processing_error.
    if (!isDir) {
      out.push(p);
      continue;
    }
    const { files, skipped } = await collectFiles([p]);
    noteSkipped(skipped);
    out.push(...files.map((f) => f.path));
  }
  return out;
}

/** Whether any of `files` is a PDF by its bytes, as the engine sniffs it; one that cannot be read is none. */
async function anyPdf(files: string[]): Promise<boolean> {
  for (const path of files) if (sniffType(await fileHead(path).catch(() => new Uint8Array())) === 'application/pdf') return true;
  return false;
}

export async function run(paths: string[], opts: ExtractFlags, flags: Record<string, string>): Promise<number> {
  const files = await expand(paths);
  if (files.length === 0) throw new UsageError('no PDF or image files found in the given paths');
  if (files.length > 1 && !opts.out) throw new UsageError('several files need --out DIR');
  if (opts.jobs !== undefined && !/^[1-9]\d{0,2}$/.test(opts.jobs)) throw new UsageError(`--jobs needs a whole number from 1, got ${JSON.stringify(opts.jobs)}`);
  const config = loadConfig(process.env, opts.jobs ? { ...flags, concurrency: opts.jobs } : flags);
  const jobs = Math.max(1, Math.min(config.worker.concurrency, files.length));
  // Children load the PDF reader before their first document only when there is a PDF to read.
  const pool = new ExtractionPool({ ...config, worker: { ...config.worker, concurrency: jobs } }, { warmPdf: await anyPdf(files) });
  const indent = opts.pretty ? 2 : undefined;
  if (opts.out) await mkdir(opts.out, { recursive: true });
  let failed = 0;
  let next = 0;
  const runOne = async () => {
    while (next < files.length) {
      const file = files[next++];
      const outcome = await extractFile(pool, file, opts.ignoreEmbedded ? 'ignore' : 'use');
      if (outcome.status === 'failed') {
        failed++;
        process.stderr.write(`extract: ${file}: ${outcome.error.code}: ${outcome.error.message}\n`);
      }
      const text = outcomeJson(outcome, indent);
      if (opts.out) await writeFile(join(opts.out, basename(file, extname(file)) + '.json'), text);
      else process.stdout.write(text);
    }
  };
  try {
    await Promise.all(Array.from({ length: jobs }, runOne));
  } finally {
    await pool.close();
  }
  return failed > 0 ? EXIT.documentsFailed : EXIT.ok;
}

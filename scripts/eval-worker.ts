/**
 * The extraction child of `npm run eval`: reads `{input, output}` jobs from its parent, runs the
 * engine on each (the same `readLayouts` + `resultFromLayouts` + `readWhatCarries` as the service's slots), writes the
 * v1 document result (or `{"processing_error": …}`) to `output`, and answers with the seconds.
 * With a cache folder, each file's page layouts (the OCR'd words) are kept under a key of the
 * file's bytes, the OCR settings and the sources that make layouts, so a change to tables,
 * line items or fields reruns every set in seconds while a change to reading invalidates it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractOptions, loadConfig } from '../src/config.js';
import { readLayouts, readWhatCarries, resultFromLayouts, toProcessingError } from '../src/extract/index.js';
import { sniffType } from '../src/extract/sniff.js';
import { traceTables, traceText, type TraceEvent } from '../src/extract/layout/run.js';
import type { ExtractOptions, ExtractResult, OcrEngine, PageLayout } from '../src/extract/types.js';

export interface EvalJob {
  input: string;
  output: string;
  /** Read what the file carries (`use`) or its page alone (`ignore`, the default here). */
  embedded?: 'use' | 'ignore';
  /**
   * Page images read as one document instead of `input` (a PDF's rendered pages): each image's
   * layout is cached on its own, and the result also lists each page's words (`page_words`).
   */
  pages?: string[];
}

const ROOT = new URL('..', import.meta.url).pathname;
/** The sources whose change changes a PDF's page layouts. */
const LAYOUT_SOURCES = ['src/extract/raster', 'src/extract/pdf', 'src/extract/sniff.ts', 'src/extract/render.ts'];
/** An image file's (PNG, JPEG, TIFF, WebP): it never reaches the PDF reader, so a change there keeps its OCR'd words. */
const IMAGE_SOURCES = ['src/extract/raster', 'src/extract/sniff.ts'];

/** The version of the sources a cached layout was made by: one for PDFs, one for image files. */
interface Codes {
  pdf: string;
  image: string;
}

function sourceHash(sources: string[]): string {
  const h = createHash('sha256');
  const add = (rel: string) => {
    const path = join(ROOT, rel);
    if (!existsSync(path)) return;
    if (rel.endsWith('.ts')) {
      h.update(rel).update(readFileSync(path));
      return;
    }
    for (const name of readdirSync(path).sort()) add(join(rel, name));
  };
  sources.forEach(add);
  return h.digest('hex').slice(0, 16);
}

async function layoutsOf(bytes: Uint8Array, opts: ExtractOptions, cacheDir: string | null, codes: Codes): Promise<PageLayout[]> {
  if (!cacheDir) return readLayouts(bytes, opts);
  const type = sniffType(bytes.subarray(0, 4096));
  const code = type && type !== 'application/pdf' ? codes.image : codes.pdf;
  const key = createHash('sha256').update(bytes).update(`\0${opts.ocrEngine}\0${opts.ocrLangs}\0${code}`).digest('hex');
  const path = join(cacheDir, `${key}.json`);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as PageLayout[];
  const layouts = await readLayouts(bytes, opts);
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(layouts));
  renameSync(`${path}.tmp`, path);
  return layouts;
}

/** The layouts of page images as the pages of one document, in order. */
async function pageLayouts(pages: string[], opts: ExtractOptions, cacheDir: string | null, code: Codes): Promise<PageLayout[]> {
  const out: PageLayout[] = [];
  for (const [i, png] of pages.entries()) {
    for (const layout of await layoutsOf(new Uint8Array(readFileSync(png)), opts, cacheDir, code)) out.push({ ...layout, page: i + 1 });
  }
  return out;
}

/** The result from the layouts, with the layout's table trace when `trace` is on. */
function fromLayouts(layouts: PageLayout[], opts: ExtractOptions, trace: boolean): { result: ExtractResult; trace: TraceEvent[] | null } {
  return trace ? traceTables(() => resultFromLayouts(layouts, opts)) : { result: resultFromLayouts(layouts, opts), trace: null };
}

async function run(job: EvalJob, opts: ExtractOptions, cacheDir: string | null, code: Codes, trace: boolean): Promise<number> {
  const started = performance.now();
  let text: string;
  let events: TraceEvent[] | null = null;
  try {
    const bytes = new Uint8Array(readFileSync(job.input));
    // A document's time limit, so one stuck page cannot hold the run. It is longer than the
    // service's (120 s): `auto` skips its second reader when the time left is short, and on a
    // loaded machine wall time would otherwise change what the set measures.
    const o = { ...opts, deadlineAt: Date.now() + 900_000, embedded: job.embedded ?? 'ignore' };
    // Rendered pages are images: what the PDF carries is the other path's.
    const layouts = job.pages ? await pageLayouts(job.pages, o, cacheDir, code) : await layoutsOf(bytes, o, cacheDir, code);
    const made = fromLayouts(layouts, o, trace);
    events = made.trace;
    const { words: _words, ...result } = job.pages ? made.result : await readWhatCarries(bytes, layouts, made.result, o);
    text = JSON.stringify(job.pages ? { ...result, page_words: layouts.map((l) => l.words.map((w) => w.text)) } : result);
  } catch (err) {
    text = JSON.stringify({ processing_error: toProcessingError(err) });
  }
  writeFileSync(job.output, text + '\n');
  if (events) writeFileSync(job.output.replace(/\.json$/, '') + '.trace.txt', traceText(events));
  return (performance.now() - started) / 1000;
}

/** Serves jobs from the parent process until it disconnects. */
export function serveJobs(engine: OcrEngine | undefined, cacheDir: string | null, trace = false): void {
  const config = loadConfig(process.env);
  const opts: ExtractOptions = { ...extractOptions(config), ocrEngine: engine ?? config.ocr.engine };
  const code = { pdf: sourceHash(LAYOUT_SOURCES), image: sourceHash(IMAGE_SOURCES) };
  let chain = Promise.resolve();
  process.on('message', (job: EvalJob) => {
    chain = chain.then(async () => {
      process.send!({ input: job.input, seconds: await run(job, opts, cacheDir, code, trace) });
    });
  });
  process.on('disconnect', () => process.exit(0));
}

/**
 * The message loop of one extraction child process (forked by `slot.ts` through `child.js`):
 * bytes in, a result or a processing error out. Errors become values here, so only
 * a dying process (time limit, memory limit, crash) leaves a task without an answer.
 */
import { Worker } from 'node:worker_threads';
import { extractDocument, toProcessingError } from '../extract/index.js';
import { renderPage, type RenderLimits, type RenderedPage } from '../extract/render.js';
import { renderXmlPage, sniffFormat, XML_TYPE } from '../extract/carried/index.js';
import type { ProcessingError } from '../domain/errors.js';
import type { ExtractOptions } from '../extract/types.js';
import { NO_PDF_WARMUP, warmupPdf } from './warmup.js';

export interface ExtractTask {
  bytes: Uint8Array;
  opts: ExtractOptions;
}

/** What the engine did, for the worker's log line and metrics. */
export interface TaskStats {
  /** The OCR engine that read pages (`addon`, `program`, `js`); null when none was OCR'd. */
  ocr_engine: string | null;
  ocr_ms: number;
}

/** The result travels as JSON text: the parent stores it as it is and never walks the object. */
export type TaskResult = ({ ok: true; page_count: number; result_json: string; words_json?: string } | { ok: false; error: ProcessingError }) & { stats: TaskStats };

/** A page image for a viewer (`GET /v1/documents/{id}/pages/{n}.png`). */
export interface RenderTask {
  bytes: Uint8Array;
  page: number;
  width: number;
  limits: RenderLimits;
}

/** A render's answer; `code` is a processing-error code (`resource_limit`, `corrupt_file`, …). */
export type RenderResult = { ok: true; page: RenderedPage } | { ok: false; error: ProcessingError };

/** Parent → child: a document to extract or a page to render. */
export type TaskRequest = { id: number; task: ExtractTask } | { id: number; render: RenderTask };

/** Child → parent: `ready` once the engine is loaded, then one `result` per request. */
export type TaskMessage = { type: 'ready' } | { type: 'result'; id: number; result: TaskResult | RenderResult };

/** Runs the engine on one document. */
export async function runTask(task: ExtractTask): Promise<TaskResult> {
  const stats: TaskStats = { ocr_engine: null, ocr_ms: 0 };
  const onOcr = (engine: string, ms: number) => {
    stats.ocr_engine = engine;
    stats.ocr_ms += ms;
  };
  try {
    const { words, ...result } = await extractDocument(task.bytes, { ...task.opts, onOcr });
    // The page words are kept apart from the result (learning material, not the public shape).
    return { ok: true, page_count: result.page_count, result_json: JSON.stringify(result), words_json: words ? JSON.stringify(words) : undefined, stats };
  } catch (err) {
    return { ok: false, error: toProcessingError(err), stats };
  }
}

/** Renders one page image. */
export async function runRender(task: RenderTask): Promise<RenderResult> {
  try {
    // An invoice uploaded as XML has one page: its values laid out and drawn (carried/page.ts).
    const render = sniffFormat(task.bytes.subarray(0, 4096)) === XML_TYPE ? renderXmlPage : renderPage;
    return { ok: true, page: await render(task.bytes, task.page, task.width, task.limits) };
  } catch (err) {
    return { ok: false, error: toProcessingError(err) };
  }
}

/**
 * Ends this process when its parent is gone, whatever the main thread is doing: 'disconnect'
 * is only heard between two turns of the event loop, and a page of pdf.js or an OCR call can
 * hold the loop for minutes. The watch runs on a thread of its own and reads the parent's pid.
 */
export const ORPHAN_POLL_MS = 250;
function watchParent(): void {
  const code = `const { workerData } = require('node:worker_threads');
setInterval(() => { if (process.ppid !== workerData.ppid) process.kill(workerData.pid, 'SIGKILL'); }, workerData.ms);`;
  const watch = new Worker(code, { eval: true, workerData: { ppid: process.ppid, pid: process.pid, ms: ORPHAN_POLL_MS }, resourceLimits: { maxOldGenerationSizeMb: 16 } });
  watch.unref();
}

function send(msg: TaskMessage): void {
  process.send?.(msg);
}

// Run as a child only: imported elsewhere (tests), this module just exports runTask.
if (process.send) {
  // The parent gone (killed), nothing is left to answer to.
  process.on('disconnect', () => process.exit(0));
  watchParent();
  // One request at a time: the parent sends the next only after this answer.
  process.on('message', (msg: TaskRequest) => {
    const answer = 'render' in msg ? runRender(msg.render) : runTask(msg.task);
    void answer.then((result) => send({ type: 'result', id: msg.id, result }));
  });
  // Loads the engine's lazy parts (pdf.js: ~5 s on a busy 2-core machine) before reporting ready,
  // so a real document never pays the cold start inside its time limit.
  if (!process.argv.includes(NO_PDF_WARMUP)) await extractDocument(warmupPdf(), {}).catch(() => {});
  send({ type: 'ready' });
}

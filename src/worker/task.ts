/**
 * What one extraction thread runs: bytes in, a result or a processing error out. Errors become
 * values here (STYLE.md §5), so only a dying thread (timeout, out of memory, crash) rejects.
 */
import { extractDocument, toProcessingError } from '../extract/index.js';
import type { ProcessingError } from '../domain/errors.js';
import type { ExtractOptions, ExtractResult } from '../extract/types.js';
import { warmupPdf } from './warmup.js';

export interface ExtractTask {
  /** A no-op that shows a thread is free and loaded (see `ExtractionPool.extract`). */
  warmup?: boolean;
  bytes?: Uint8Array;
  opts?: ExtractOptions;
}

export type TaskResult = { ok: true; result: ExtractResult } | { ok: false; error: ProcessingError };

// Loads the engine's lazy parts at thread start: piscina reports a thread ready only once this
// module has loaded, so real documents never pay the cold start inside their time limit.
await extractDocument(warmupPdf(), {}).catch(() => {});

/** Runs the engine on one document. */
export async function runTask(task: ExtractTask): Promise<TaskResult | null> {
  if (task.warmup) return null;
  if (!task.bytes || !task.opts) return { ok: false, error: { code: 'extraction_failed', message: 'empty task' } };
  try {
    const result = await extractDocument(Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength), task.opts);
    return { ok: true, result };
  } catch (err) {
    return { ok: false, error: toProcessingError(err) };
  }
}

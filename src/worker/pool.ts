/**
 * The extraction thread pool (piscina): one thread per concurrent document, a heap limit per
 * thread and a time limit per document that terminates the thread running it, so a hostile file
 * costs at most one thread (ARCHITECTURE.md, path step 4). The pool replaces dead threads.
 */
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import type { ProcessingError } from '../domain/errors.js';
import type { ExtractOptions } from '../extract/types.js';
import type { DocumentOutcome } from '../store/types.js';
import type { ExtractTask, TaskResult } from './task.js';

const THREAD_FILE = new URL('./thread.js', import.meta.url).href;

/** Thrown by `extract` when the caller's signal (shutdown) aborted it: no outcome to write. */
export class ExtractionAbortedError extends Error {
  constructor() {
    super('extraction aborted by shutdown');
    this.name = 'ExtractionAbortedError';
  }
}

/** What a rejected thread means for the document. */
function threadFailure(err: unknown, heapMb: number): ProcessingError {
  const e = err as { code?: string; message?: string };
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return { code: 'extraction_failed', message: `extraction ran out of memory (thread heap limit ${heapMb} MB)` };
  }
  return { code: 'extraction_failed', message: `extraction thread failed: ${e?.message ?? String(err)}` };
}

/**
 * Ends the in-process OCR running in any thread: a thread being terminated first waits for its
 * running recognition, which would otherwise go on to the end of its page. Loaded on demand, so
 * the API process does not load the OCR code to start.
 */
function stopRecognitions(): void {
  void import('../extract/raster/ocr-addon.js').then((m) => m.cancelAllRecognitions()).catch(() => {});
}

/** A pool of `config.worker.concurrency` extraction threads. */
export class ExtractionPool {
  private readonly pool: Piscina<ExtractTask, TaskResult | null>;
  private readonly opts: ExtractOptions;

  constructor(private readonly config: Config) {
    const n = Math.max(1, config.worker.concurrency);
    // One OpenMP thread per recognition (see loadAddon in ocr-addon.ts): libgomp reads the limit
    // from the real environment, which only the main thread can set, before a thread loads it.
    process.env.OMP_THREAD_LIMIT ??= '1';
    this.pool = new Piscina({
      filename: THREAD_FILE,
      minThreads: n,
      maxThreads: n,
      // Threads live as long as the pool: loading tsx and the engine costs a thread ~1 s.
      idleTimeout: 2 ** 31 - 1,
      concurrentTasksPerWorker: 1,
      resourceLimits: { maxOldGenerationSizeMb: config.worker.maxHeapMb },
    });
    this.opts = {
      maxPages: config.limits.maxPages,
      maxMegapixels: config.limits.maxMegapixels,
      ocrLangs: config.ocr.langs,
      ocrEngine: config.ocr.engine,
    };
  }

  /** Waits until every thread has loaded the engine (a thread signals ready only after loading). */
  async warm(): Promise<void> {
    const n = this.pool.options.maxThreads;
    await Promise.all(Array.from({ length: n }, () => this.pool.run({ warmup: true })));
  }

  /**
   * Extracts one document and returns the outcome to store; never rejects except with
   * `ExtractionAbortedError` when `signal` (shutdown) fires first.
   */
  async extract(bytes: Uint8Array, signal?: AbortSignal): Promise<DocumentOutcome> {
    const limitMs = this.config.worker.timeoutMs;
    // A no-op round trip first (~0.1 ms) waits for a free, loaded thread: after a thread was
    // killed its replacement needs ~1–3 s to load tsx and the engine, which must not count
    // against the next document's time limit.
    try {
      await this.pool.run({ warmup: true }, { signal: signal ?? null });
    } catch (err) {
      if (signal?.aborted) throw new ExtractionAbortedError();
      return { status: 'failed', page_count: null, error: threadFailure(err, this.config.worker.maxHeapMb) };
    }
    const ctl = new AbortController();
    let reason: 'timeout' | 'shutdown' | null = null;
    const timer = setTimeout(() => {
      reason = 'timeout';
      ctl.abort('timeout');
    }, limitMs);
    const onShutdown = () => {
      reason = 'shutdown';
      ctl.abort('shutdown');
      stopRecognitions();
    };
    if (signal?.aborted) onShutdown();
    signal?.addEventListener('abort', onShutdown, { once: true });
    try {
      // The OCR stops at the limit too: a terminated thread waits for a running recognition.
      const opts = { ...this.opts, deadlineAt: Date.now() + limitMs };
      const res = await this.pool.run({ bytes, opts }, { signal: ctl.signal });
      if (!res) return { status: 'failed', page_count: null, error: { code: 'extraction_failed', message: 'no result' } };
      if (res.ok) return { status: 'succeeded', page_count: res.result.page_count, result_json: JSON.stringify(res.result) };
      return { status: 'failed', page_count: null, error: res.error };
    } catch (err) {
      if (reason === 'shutdown') throw new ExtractionAbortedError();
      if (reason === 'timeout') {
        return { status: 'failed', page_count: null, error: { code: 'timeout', message: `extraction exceeded the ${limitMs} ms time limit` } };
      }
      return { status: 'failed', page_count: null, error: threadFailure(err, this.config.worker.maxHeapMb) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onShutdown);
    }
  }

  /** Threads currently alive (for tests: a killed thread is replaced). */
  get threads(): number {
    return this.pool.threads.length;
  }

  /**
   * Ends every thread; in-flight tasks reject. Waits at most `waitMs` for the threads to exit: a
   * replacement thread still loading the engine (native modules) took ~15 s to honour terminate()
   * on a loaded 2-core machine, and nothing it holds needs saving.
   */
  async close(waitMs = 2000): Promise<void> {
    stopRecognitions();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pool.destroy(), new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }
}

/**
 * The extraction pool: `config.worker.concurrency` slots, each a child process (`slot.ts`) that
 * runs one document at a time under a heap limit, an RSS limit and a time limit, so a hostile
 * file costs at most one child, never the server (docs/design.md, "The path of a document", step 4). A child that
 * dies is replaced; a child is also recycled after `recycleAfter` documents, or when it stays
 * above `recycleRssMb` once its document is done, which gives its memory back to the system.
 */
import { extractOptions, type Config } from '../config.js';
import type { ProcessingError } from '../domain/errors.js';
import type { ExtractOptions } from '../extract/types.js';
import type { DocumentOutcome } from '../store/types.js';
import { childEntry } from './entry.js';
import { runFailure, Slot, type SlotLimits } from './slot.js';
import type { TaskStats } from './task.js';
import { NO_PDF_WARMUP } from './warmup.js';

/** Thrown by `extract` when the caller's signal (shutdown) aborted it: no outcome to write. */
export class ExtractionAbortedError extends Error {
  constructor() {
    super('extraction aborted by shutdown');
    this.name = 'ExtractionAbortedError';
  }
}

/** An outcome to store, with what the engine did (absent when the child gave no answer). */
/** `words_json`: the page words a later correction learns from (stored apart from the result). */
export type ExtractionOutcome = DocumentOutcome & { stats?: TaskStats; words_json?: string };

function failed(error: ProcessingError, stats?: TaskStats): ExtractionOutcome {
  return { status: 'failed', page_count: null, error, stats };
}

/** A pool of `config.worker.concurrency` extraction child processes. */
export class ExtractionPool {
  private readonly slots: Slot[];
  private readonly idle: Slot[];
  private readonly waiters: Array<(slot: Slot | null) => void> = [];
  private readonly limits: SlotLimits;
  private readonly opts: ExtractOptions;
  private readonly script: Promise<string>;
  private readonly childArgs: string[];
  private closed = false;

  /** `warmPdf: false`: children do not load the PDF reader before their first document (none will be a PDF). */
  constructor(
    private readonly config: Config,
    { warmPdf = true }: { warmPdf?: boolean } = {},
  ) {
    // One OpenMP thread per recognition (see loadAddon in ocr-addon.ts): the children inherit it.
    process.env.OMP_THREAD_LIMIT ??= '1';
    this.limits = { heapMb: config.worker.maxHeapMb, maxRssMb: config.worker.maxRssMb, timeoutMs: config.worker.timeoutMs };
    this.script = childEntry();
    this.childArgs = warmPdf ? [] : [NO_PDF_WARMUP];
    this.slots = Array.from({ length: Math.max(1, config.worker.concurrency) }, () => new Slot(this.script, this.limits, this.childArgs));
    this.idle = [...this.slots];
    this.opts = extractOptions(config);
  }

  /** Waits until every child has loaded the engine. */
  async warm(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /**
   * Extracts one document and returns the outcome to store; never rejects except with
   * `ExtractionAbortedError` when `signal` (shutdown) fires first.
   */
  async extract(bytes: Uint8Array, signal?: AbortSignal, extra: Pick<ExtractOptions, 'customFields' | 'vendorMemory' | 'embedded'> = {}): Promise<ExtractionOutcome> {
    const slot = await this.acquire(signal);
    let keep = false;
    try {
      // A replacement child loads the engine first (~1–3 s), which must not count against the
      // document's time limit: the limit starts with the run.
      try {
        await slot.ready;
      } catch (err) {
        return failed({ code: 'extraction_failed', message: (err as Error).message });
      }
      const run = await slot.run({ bytes, opts: { ...this.opts, ...extra, deadlineAt: Date.now() + this.limits.timeoutMs } }, signal);
      if (run.kind === 'aborted') throw new ExtractionAbortedError();
      if (run.kind !== 'done') return failed(runFailure(run, this.limits, 'extraction'));
      slot.documents++;
      keep = slot.documents < this.config.worker.recycleAfter && (slot.memory()?.rssMb ?? 0) <= this.config.worker.recycleRssMb;
      const res = run.result;
      return res.ok ? { status: 'succeeded', page_count: res.page_count, result_json: res.result_json, words_json: res.words_json, stats: res.stats } : failed(res.error, res.stats);
    } finally {
      this.release(keep ? slot : this.replace(slot));
    }
  }

  /** Process ids of the children (tests: a killed or recycled child is replaced). */
  get pids(): number[] {
    return this.slots.map((s) => s.pid ?? 0);
  }

  /** Children alive. */
  get threads(): number {
    return this.slots.filter((s) => s.alive).length;
  }

  /** Current RSS of each child in MB (null where unknown): for metrics and benchmarks. */
  memory(): Array<{ rssMb: number; peakRssMb: number } | null> {
    return this.slots.map((s) => s.memory());
  }

  /** Ends every child; in-flight extractions end as aborted. */
  async close(waitMs = 2000): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w(null);
    await Promise.all(this.slots.map((s) => s.close(waitMs)));
  }

  private async acquire(signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted || this.closed) throw new ExtractionAbortedError();
    const free = this.idle.pop();
    if (free) return free;
    const slot = await new Promise<Slot | null>((resolve) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(take);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(null);
      };
      const take = (s: Slot | null) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(s);
      };
      this.waiters.push(take);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    if (!slot) throw new ExtractionAbortedError();
    return slot;
  }

  private release(slot: Slot): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(slot);
    else this.idle.push(slot);
  }

  /** Ends `slot`'s child and puts a fresh one in its place. */
  private replace(slot: Slot): Slot {
    void slot.close();
    if (this.closed) return slot;
    const fresh = new Slot(this.script, this.limits, this.childArgs);
    this.slots[this.slots.indexOf(slot)] = fresh;
    return fresh;
  }
}

/**
 * The worker loop: claim pending documents while extraction slots are free, keep each lease renewed, run
 * the extraction in the pool and write the outcome, fenced by the attempt. Woken by
 * `store.waitForWork` (in-process signal or LISTEN), with polling every `pollMs` as the fallback.
 */
import { BlobUnavailableError, type BlobStore } from '../blobs/types.js';
import type { Config } from '../config.js';
import { startLeaseRenewal } from './lease.js';
import { startReaper } from './reaper.js';
import type { Metrics } from '../metrics/index.js';
import { storeFault } from '../store/faults.js';
import type { ClaimedDocument, Store } from '../store/types.js';
import { ExtractionAbortedError, ExtractionPool, type ExtractionOutcome } from './pool.js';
import { extractionInput } from '../review/input.js';
import { backoffMs, sleep } from '../domain/time.js';

export interface WorkerDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
  /** Called with each written outcome's status (metrics). */
  onOutcome?: (status: string) => void;
  /** Extraction time, OCR time and queue wait of each document. */
  metrics?: Metrics;
  log?: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void;
}

export interface Workers {
  /**
   * Stops claiming, lets in-flight documents finish for up to `graceMs` (default
   * `TABLEMILL_SHUTDOWN_GRACE_MS`), gives the leases of the rest back, then ends the slots.
   */
  stop(graceMs?: number): Promise<void>;
  readonly pool: ExtractionPool;
}

/**
 * Backoff after failed claims (database away, disk full): 1 s doubling to 10 s, so a fault that
 * lasts costs a claim every 10 s (a full disk logged 177 failed claims), and the loop resumes
 * within 10 s of the fault ending.
 */
const CLAIM_BACKOFF_MS = [1000, 10_000] as const;

/** Backoff between tries of an outcome write that met a fault: 250 ms doubling to 5 s. */
const WRITE_BACKOFF_MS = [250, 5000] as const;

/** Starts the loop, the pool and the reaper. Resolves once every thread has loaded the engine. */
export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const { config, store, blobs } = deps;
  const log = deps.log ?? (() => {});
  const concurrency = Math.max(1, config.worker.concurrency);
  const pool = new ExtractionPool(config);
  deps.metrics?.watchExtractionChildren(() => pool.memory());
  await pool.warm();
  // Reaping at half the lease bounds a dead worker's document to ~1.5 leases before it runs again.
  const reaper = startReaper(store, {
    maxAttempts: config.worker.maxAttempts,
    intervalMs: Math.max(100, Math.floor(config.worker.leaseMs / 2)),
    onReaped: (r) => log('info', 'reaped expired leases', r),
    onError: (err) => log('error', 'reaper pass failed', { error: String(err) }),
  });

  // Two signals: `shutdown` stops claiming; `kill` aborts extractions still running after the grace.
  const shutdown = new AbortController();
  const kill = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let wake: AbortController | null = null;

  async function processOne(doc: ClaimedDocument): Promise<void> {
    const renewal = startLeaseRenewal(store, doc, config.worker.leaseMs, {
      onLost: (reason) => log('warn', 'lease lost; abandoning the document', { document_id: doc.id, reason }),
    });
    const waitMs = doc.queued_at == null ? null : Math.max(0, Date.now() - doc.queued_at);
    if (waitMs !== null) deps.metrics?.queueWaited(waitMs / 1000);
    log('info', 'document claimed', { document_id: doc.id, batch_id: doc.batch_id, account_id: doc.account_id, attempt: doc.attempt, queue_wait_ms: waitMs });
    const started = performance.now();
    try {
      let outcome: ExtractionOutcome;
      let bytes: Buffer | null = null;
      try {
        // An unreachable object store or database is no fault of the file: waited out.
        bytes = await throughFaults(doc, 'original file read', () => blobs.get(doc.blob_key));
      } catch (err) {
        if (err instanceof BlobUnavailableError || storeFault(err)) throw err;
        outcome = { status: 'failed', page_count: null, error: { code: 'extraction_failed', message: `original file unreadable: ${(err as Error).message}` } };
      }
      // A lost lease aborts too: another attempt owns the document and our outcome would be discarded.
      if (bytes) {
        const input = await throughFaults(doc, 'extraction input read', () => extractionInput(store, doc));
        outcome = await pool.extract(bytes, AbortSignal.any([kill.signal, renewal.signal]), input);
      }
      const written = await writeOutcome(doc, outcome!);
      if (written && outcome!.words_json) {
        await store.review.putWords(doc.id, outcome!.words_json).catch((err) => log('warn', 'words of the document could not be stored', { document_id: doc.id, error: String(err) }));
      }
      if (written) {
        deps.onOutcome?.(outcome!.status);
        finished(doc, outcome!, (performance.now() - started) / 1000);
      } else log('warn', 'lease lost before completion; outcome discarded', { document_id: doc.id, attempt: doc.attempt });
    } catch (err) {
      if (!(err instanceof ExtractionAbortedError)) log('error', 'document processing failed', { document_id: doc.id, error: String(err) });
      else if (kill.signal.aborted && !renewal.lost) await release(doc);
    } finally {
      renewal.stop();
    }
  }

  /**
   * Runs a store call of a claimed document; a full disk or an unreachable database is waited
   * out (250 ms doubling to 5 s) and the call made again, even past the lease, until shutdown's
   * kill. For the outcome write the attempt fences it: a document the reaper handed on meanwhile
   * is not written twice, and a fault of a few seconds costs no second extraction.
   */
  async function throughFaults<T>(doc: ClaimedDocument, what: string, fn: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        const out = await fn();
        if (tries > 1) log('info', `${what} after a fault`, { document_id: doc.id, tries });
        return out;
      } catch (err) {
        const fault = storeFault(err) ?? (err instanceof BlobUnavailableError ? 'unavailable' : null);
        if (!fault || kill.signal.aborted) throw err;
        deps.metrics?.storeFault(fault, 'worker');
        if (tries === 1) log('warn', `${what} failed; retrying`, { document_id: doc.id, fault, error: String(err) });
        await sleep(backoffMs(tries - 1, ...WRITE_BACKOFF_MS), kill.signal);
      }
    }
  }

  /** Writes the outcome (false: another attempt owns the document now). */
  async function writeOutcome(doc: ClaimedDocument, outcome: ExtractionOutcome): Promise<boolean> {
    const written = await throughFaults(doc, 'outcome written', () => store.completeDocument(doc.id, doc.attempt, outcome, Date.now()));
    if (written) deps.metrics?.stored();
    return written;
  }

  /**
   * Shutdown after the grace: the lease goes back to the queue without using up an attempt.
   * If that write fails, the lease runs out and the reaper hands the document on (counted).
   */
  async function release(doc: ClaimedDocument): Promise<void> {
    try {
      const released = await store.releaseLease(doc.id, doc.attempt, Date.now());
      log('info', released ? 'lease given back at shutdown' : 'lease lost before it could be given back', { document_id: doc.id, attempt: doc.attempt });
    } catch (err) {
      log('warn', 'lease could not be given back; the reaper will requeue it', { document_id: doc.id, error: String(err) });
    }
  }

  /** The log line and metrics of a written outcome. */
  function finished(doc: ClaimedDocument, o: ExtractionOutcome, seconds: number): void {
    const kind = doc.content_type === 'application/pdf' ? 'pdf' : 'image';
    const outcome = o.status === 'succeeded' ? 'succeeded' : o.error.code;
    const engine = o.stats?.ocr_engine ?? (o.stats && kind === 'pdf' ? 'text' : null);
    log('info', 'document finished', {
      document_id: doc.id,
      batch_id: doc.batch_id,
      attempt: doc.attempt,
      outcome,
      duration_ms: Math.round(seconds * 1000),
      pages: o.page_count,
      kind,
      engine,
      ocr_ms: o.stats ? Math.round(o.stats.ocr_ms) : null,
    });
    deps.metrics?.extracted({ kind, outcome, seconds, ocrEngine: o.stats?.ocr_engine ?? null, ocrSeconds: (o.stats?.ocr_ms ?? 0) / 1000 });
  }

  async function run(): Promise<void> {
    let failedClaims = 0;
    while (!shutdown.signal.aborted) {
      const free = concurrency - inFlight.size;
      let claimed: ClaimedDocument[] = [];
      if (free > 0) {
        try {
          claimed = await store.claimDocuments(free, config.worker.leaseMs, Date.now());
        } catch (err) {
          const fault = storeFault(err);
          if (fault) deps.metrics?.storeFault(fault, 'worker');
          // One line when claims start failing, one when they resume; not one per try.
          if (failedClaims === 0) log('error', 'claim failed; backing off', { fault, error: String(err) });
          await sleep(backoffMs(failedClaims++, ...CLAIM_BACKOFF_MS), shutdown.signal);
          continue;
        }
        if (failedClaims > 0) log('info', 'claims resumed', { failed_claims: failedClaims });
        failedClaims = 0;
        for (const doc of claimed) {
          const p: Promise<void> = processOne(doc).finally(() => {
            inFlight.delete(p);
            wake?.abort();
          });
          inFlight.add(p);
        }
        if (claimed.length === free) continue;
      }
      wake = new AbortController();
      const onStop = () => wake?.abort();
      shutdown.signal.addEventListener('abort', onStop, { once: true });
      try {
        await store.waitForWork(config.worker.pollMs, wake.signal);
      } catch {
        // An aborted wait rejects on some adapters; either way we loop and look again.
      } finally {
        shutdown.signal.removeEventListener('abort', onStop);
        wake = null;
      }
    }
  }

  const loop = run();
  log('info', 'workers started', { slots: concurrency });

  return {
    pool,
    async stop(graceMs = config.worker.shutdownGraceMs) {
      shutdown.abort();
      wake?.abort();
      await loop;
      const timer = setTimeout(() => kill.abort(), graceMs);
      await Promise.allSettled([...inFlight]);
      clearTimeout(timer);
      await reaper.stop();
      await pool.close();
    },
  };
}

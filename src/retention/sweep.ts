/**
 * The retention sweep: at start, then every `intervalMs`, purges in small transactions the
 * terminal documents of deleted batches and, with `TABLEMILL_RETENTION_DAYS`, every terminal
 * document, batch event (with its deliveries) and idempotency row older than that. A document's
 * blob is deleted before its rows, so a kill in between leaves a row to purge again, never an
 * orphan file. Several processes may sweep one database: each purge skips what another holds.
 */
import type { BlobStore } from '../blobs/types.js';
import type { Store } from '../store/index.js';

export const RETENTION_INTERVAL_MS = 10 * 60_000;
/** Rows per transaction: short enough not to hold up the queue's writes. */
export const PURGE_BATCH = 500;
const DAY_MS = 86_400_000;

export interface Purged {
  documents: number;
  events: number;
  batches: number;
  idempotency: number;
}

/** One full pass: every batch of purges until none is left (or `signal` aborts). */
export async function purgeOnce(store: Store, blobs: BlobStore, retentionDays: number | null, now: number, signal?: AbortSignal): Promise<Purged> {
  const r = store.retention;
  const cutoff = retentionDays === null ? null : now - retentionDays * DAY_MS;
  const out: Purged = { documents: 0, events: 0, batches: 0, idempotency: 0 };
  const drain = async (step: () => Promise<number>): Promise<number> => {
    let total = 0;
    for (let n = PURGE_BATCH; n >= PURGE_BATCH && !signal?.aborted; total += n) n = await step();
    return total;
  };
  for (let docs = await r.purgeableDocuments(cutoff, PURGE_BATCH); docs.length > 0 && !signal?.aborted; docs = await r.purgeableDocuments(cutoff, PURGE_BATCH)) {
    for (const d of docs) await blobs.delete(d.blob_key);
    const removed = await r.purgeDocuments(docs.map((d) => d.id));
    out.documents += removed;
    // Nothing removed: the rest moved meanwhile (another sweep took them); the next pass sees.
    if (removed === 0 || docs.length < PURGE_BATCH) break;
  }
  out.batches = await drain(() => r.purgeDeletedBatches(PURGE_BATCH));
  if (cutoff !== null) {
    out.events = await drain(() => r.purgeEvents(cutoff, PURGE_BATCH));
    out.idempotency = await drain(() => r.purgeIdempotency(cutoff, now, PURGE_BATCH));
  }
  return out;
}

export interface RetentionSweep {
  /** The first pass, started at once. */
  readonly first: Promise<void>;
  /** Stops the timer and waits for a running pass to end its current transaction. */
  stop(): Promise<void>;
}

export function startRetentionSweep(
  store: Store,
  blobs: BlobStore,
  retentionDays: number | null,
  onPurged: (purged: Purged) => void,
  onError: (err: unknown) => void,
  intervalMs = RETENTION_INTERVAL_MS,
): RetentionSweep {
  const abort = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const pass = () => {
    running = running.then(async () => {
      if (abort.signal.aborted) return;
      try {
        const purged = await purgeOnce(store, blobs, retentionDays, Date.now(), abort.signal);
        if (purged.documents + purged.events + purged.batches + purged.idempotency > 0) onPurged(purged);
      } catch (err) {
        onError(err);
      }
    });
    return running;
  };
  const timer = setInterval(() => void pass(), intervalMs);
  timer.unref();
  return {
    first: pass(),
    async stop() {
      clearInterval(timer);
      abort.abort();
      await running;
    },
  };
}

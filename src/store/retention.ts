/**
 * What the retention sweep removes, as the Store keeps it (index of migration 135). A document
 * is purgeable once it is terminal and either completed before the cutoff or in a deleted batch.
 * Implemented per dialect in `sqlite/retention.ts` and `postgres/retention.ts`.
 */
import { publicStatus, type InternalState } from '../domain/status.js';
import type { BatchDelta } from './delta.js';

/** A purgeable document: its blob is deleted before its rows (a crash in between loses nothing). */
export interface PurgeableDocument {
  id: string;
  blob_key: string;
}

export interface RetentionStore {
  /**
   * Up to `limit` terminal documents completed before `cutoff` (null: no age limit), or of a
   * deleted batch, oldest first.
   */
  purgeableDocuments(cutoff: number | null, limit: number): Promise<PurgeableDocument[]>;
  /**
   * One transaction: removes those of `ids` still terminal (or, `anyState`, whatever their state:
   * a backup's copy leaving out rows whose file is gone) with their results, and takes them off
   * their batches' counters. Returns how many it removed.
   */
  purgeDocuments(ids: string[], anyState?: boolean): Promise<number>;
  /**
   * One transaction: up to `limit` batch events created before `cutoff` with no pending
   * delivery go together with their deliveries (an event left without deliveries would be
   * sent again). Returns how many events it removed.
   */
  purgeEvents(cutoff: number, limit: number): Promise<number>;
  /**
   * One transaction: up to `limit` deleted batches with no documents left go with their events,
   * deliveries and webhook. Returns how many batches it removed.
   */
  purgeDeletedBatches(limit: number): Promise<number>;
  /** Up to `limit` idempotency rows created before `cutoff` and not locked at `now`; returns how many. */
  purgeIdempotency(cutoff: number, now: number, limit: number): Promise<number>;
}

/** The counter moves of removing documents, one delta per batch. */
export function purgeDeltas(rows: { batch_id: string; state: string; started_at?: unknown }[]): Map<string, BatchDelta> {
  const out = new Map<string, BatchDelta>();
  for (const r of rows) {
    const status = publicStatus(r.state as InternalState, r.started_at !== null && r.started_at !== undefined);
    const d = out.get(r.batch_id) ?? { counts: {}, documents: 0, awaiting: 0 };
    d.counts[status] = (d.counts[status] ?? 0) - 1;
    d.documents = (d.documents ?? 0) - 1;
    if (r.state === 'uploaded') d.awaiting = (d.awaiting ?? 0) - 1;
    out.set(r.batch_id, d);
  }
  return out;
}

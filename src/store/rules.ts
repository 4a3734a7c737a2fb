/**
 * The Store's rules, written once for both dialects: how each transition moves a batch's
 * counters, when it writes the outbox event, what deleting a document does, and how lists page.
 * The dialects run these around their own SQL (one function per statement).
 */
import { isAllDone } from '../domain/batch.js';
import { publicStatus, type PublicStatus } from '../domain/status.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { move, type BatchDelta } from './delta.js';
import type { BatchRow, DocumentRow, Page } from './types.js';

/** The counter deltas of the transitions. */
export const deltas = {
  /** `n` documents uploaded (queued, counted, awaiting a process call). */
  uploaded: (n: number): BatchDelta => ({ counts: move(null, 'queued', n), documents: n, awaiting: n }),
  /** `n` first claims: queued → processing, and the batch has started. */
  firstClaimed: (n: number, now: number): BatchDelta => ({ counts: move('queued', 'processing', n), startedAt: now }),
  /** One document finished, as `succeeded` or `failed`. */
  completed: (status: 'succeeded' | 'failed', now: number): BatchDelta => ({ counts: move('processing', status), completedAt: now }),
  /** `n` documents canceled before they started, `awaiting` of them never submitted. */
  canceled: (n: number, now: number, awaiting = 0): BatchDelta => ({ counts: move('queued', 'canceled', n), completedAt: now, awaiting: -awaiting }),
  /** `n` expired leases out of attempts: processing → failed (worker_lost). */
  reapedFailed: (n: number, now: number): BatchDelta => ({ counts: move('processing', 'failed', n), completedAt: now }),
  /** A terminal document removed: uncounted. */
  removed: (status: PublicStatus): BatchDelta => ({ counts: move(status, null), documents: -1 }),
};

/**
 * Rows per batch id, in batch id order: the order both dialects update batch rows in, so
 * concurrent transactions spanning the same batches cannot deadlock.
 */
export function perBatch<T extends { batch_id?: unknown }>(rows: T[], counts: (r: T) => boolean): [string, number][] {
  const by = new Map<string, number>();
  for (const r of rows) if (counts(r)) by.set(String(r.batch_id), (by.get(String(r.batch_id)) ?? 0) + 1);
  return [...by].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A first claim is the one that made `attempts` 1: only then is the document queued → processing. */
export const isFirstClaim = (r: { attempts?: unknown }): boolean => Number(r.attempts) === 1;

/** The outbox rule: a transition that leaves a live batch all_done writes its run's event. */
export function writesCompletedEvent(batch: BatchRow): boolean {
  return batch.deleted_at === null && isAllDone(batch.counts);
}

/** What `deleteDocument` does to a document: cancel it (not started), delete it (terminal), or refuse (processing). */
export function deletion(doc: DocumentRow): { action: 'cancel' | 'delete' | 'conflict'; status: PublicStatus } {
  const status = publicStatus(doc.state, doc.started_at !== null);
  return { action: status === 'queued' ? 'cancel' : status === 'processing' ? 'conflict' : 'delete', status };
}

/** Keyset paging: ask the dialect for `limit + 1` rows after the cursor's position. */
function pager<Row, Key>(kind: string, shape: ('string' | 'number')[], toKey: (v: (string | number)[]) => Key, fromRow: (r: Row) => (string | number)[]) {
  return {
    /** The position after which the page starts; null for the first page. Throws `InvalidCursorError`. */
    after(cursor: string | null): Key | null {
      return cursor ? toKey(decodeCursor(kind, cursor, shape)) : null;
    },
    /** The page of `rows` (fetched with `limit + 1`) and the cursor of the next one. */
    page<R extends Row>(rows: R[], limit: number): Page<R> {
      const items = rows.slice(0, limit);
      return { items, next_cursor: rows.length > limit ? encodeCursor(kind, fromRow(items[items.length - 1])) : null };
    },
  };
}

/** Batches newest first, by (created_at, id). */
export const batchPages = pager<BatchRow, { created_at: number; id: string }>(
  'b',
  ['number', 'string'],
  ([created_at, id]) => ({ created_at: created_at as number, id: id as string }),
  (b) => [b.created_at, b.id],
);

/** A batch's documents in upload order, by their sequence number. */
export const resultPages = pager<{ seq: number }, number>(
  'r',
  ['number'],
  ([seq]) => seq as number,
  (d) => [d.seq],
);

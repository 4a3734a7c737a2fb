/** SQL of the `batches` table (SQLite). */
import type { StatusCounts } from '../../domain/batch.js';
import { deltaParams, type BatchDelta } from '../delta.js';
import { BATCH_COLUMNS, toBatch, toRecount } from '../rows.js';
import type { BatchRecount, BatchRow } from '../types.js';
import { prepared, type Db } from './db.js';

type Raw = Record<string, unknown>;
const one = (r: unknown): BatchRow | null => (r ? toBatch(r as Raw) : null);

export function selectLiveBatch(db: Db, accountId: string, name: string): BatchRow | null {
  const sql = `SELECT ${BATCH_COLUMNS} FROM batches WHERE account_id = ? AND name = ? AND deleted_at IS NULL`;
  return one(prepared(db, sql).get(accountId, name));
}

export function selectBatchById(db: Db, id: string): BatchRow | null {
  return one(prepared(db, `SELECT ${BATCH_COLUMNS} FROM batches WHERE id = ?`).get(id));
}

/** The counter columns moved by a delta (`deltaParams`), as bumpBatch and upsertLiveBatch set them. */
const BUMP = `queued = queued + @dq, processing = processing + @dp, succeeded = succeeded + @ds,
      failed = failed + @df, canceled = canceled + @dc, document_count = document_count + @dn,
      awaiting_process = awaiting_process + @da,
      min_started_at = min(coalesce(min_started_at, @started), coalesce(@started, min_started_at)),
      max_completed_at = max(coalesce(max_completed_at, @completed), coalesce(@completed, max_completed_at))`;

/** Applies a counter delta in one statement and returns the row after it. */
export function bumpBatch(db: Db, id: string, d: BatchDelta): BatchRow {
  const sql = `UPDATE batches SET ${BUMP} WHERE id = @id RETURNING ${BATCH_COLUMNS}`;
  return toBatch(prepared(db, sql).get(deltaParams(id, d)) as Raw);
}

const UPSERT_LIVE = `INSERT INTO batches (id, account_id, name, created_at, queued, processing, succeeded, failed, canceled, document_count, awaiting_process, min_started_at, max_completed_at)
     VALUES (@id, @account_id, @name, @created_at, @dq, @dp, @ds, @df, @dc, @dn, @da, @started, @completed)
     ON CONFLICT (account_id, name) WHERE deleted_at IS NULL DO UPDATE SET ${BUMP}
     RETURNING ${BATCH_COLUMNS}`;

/**
 * Applies a counter delta (of counts that only grow) to the live batch of that name, creating it
 * with `b` first when there is none; returns the row after it. One statement where a lookup, an
 * insert and an update were three: the partial unique index on live names finds the row. Its SQL
 * is one string made once: the statement cache's lookup hashes the string it is given, and a
 * string built on each call is hashed (and flattened) on each call.
 */
export function upsertLiveBatch(db: Db, b: { id: string; account_id: string; name: string; created_at: number }, d: BatchDelta): BatchRow {
  const params = deltaParams(b.id, d) as ReturnType<typeof deltaParams> & { account_id: string; name: string; created_at: number };
  params.account_id = b.account_id;
  params.name = b.name;
  params.created_at = b.created_at;
  return toBatch(prepared(db, UPSERT_LIVE).get(params) as Raw);
}

/** A process call submitted `submitted` uploaded documents: a new run, and they no longer await it. */
export function incrementRun(db: Db, id: string, submitted: number): BatchRow {
  const sql = `UPDATE batches SET run = run + 1, awaiting_process = awaiting_process - ? WHERE id = ? RETURNING ${BATCH_COLUMNS}`;
  return toBatch(prepared(db, sql).get(submitted, id) as Raw);
}

/** Marks the live batch deleted (its uploaded documents are canceled in the same transaction); null if there is none. */
export function markBatchDeleted(db: Db, accountId: string, name: string, now: number): BatchRow | null {
  const sql = `UPDATE batches SET deleted_at = ?, awaiting_process = 0 WHERE account_id = ? AND name = ? AND deleted_at IS NULL RETURNING ${BATCH_COLUMNS}`;
  const r = prepared(db, sql).get(now, accountId, name) as Raw | undefined;
  return r ? toBatch(r) : null;
}

/** After a document row is removed: the span is recomputed from what remains (one indexed scan). */
export function recomputeSpan(db: Db, id: string): BatchRow {
  const sql = `UPDATE batches SET
      min_started_at = (SELECT min(started_at) FROM documents WHERE batch_id = @id),
      max_completed_at = (SELECT max(completed_at) FROM documents WHERE batch_id = @id)
    WHERE id = @id RETURNING ${BATCH_COLUMNS}`;
  return toBatch(prepared(db, sql).get({ id }) as Raw);
}

/** Live batches of an account, newest first, after the (created_at, id) position if given. */
export function selectLiveBatchesPage(db: Db, accountId: string, after: { created_at: number; id: string } | null, limit: number): BatchRow[] {
  const rows = after
    ? prepared(
        db,
        `SELECT ${BATCH_COLUMNS} FROM batches WHERE account_id = @a AND deleted_at IS NULL
           AND (created_at < @c OR (created_at = @c AND id < @i)) ORDER BY created_at DESC, id DESC LIMIT @n`,
      ).all({ a: accountId, c: after.created_at, i: after.id, n: limit })
    : prepared(db, `SELECT ${BATCH_COLUMNS} FROM batches WHERE account_id = @a AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT @n`).all({
        a: accountId,
        n: limit,
      });
  return (rows as Raw[]).map(toBatch);
}

/** The counters recomputed from the documents (a full scan of the batch). */
export function recountBatchRow(db: Db, id: string): BatchRecount {
  const r = prepared(
    db,
    `SELECT
       coalesce(sum(state = 'uploaded' OR (state = 'pending' AND started_at IS NULL)), 0) AS queued,
       coalesce(sum(state = 'leased' OR (state = 'pending' AND started_at IS NOT NULL)), 0) AS processing,
       coalesce(sum(state = 'succeeded'), 0) AS succeeded,
       coalesce(sum(state = 'failed'), 0) AS failed,
       coalesce(sum(state = 'canceled'), 0) AS canceled,
       coalesce(sum(state = 'uploaded'), 0) AS awaiting_process,
       count(*) AS document_count, min(started_at) AS min_started_at, max(completed_at) AS max_completed_at
     FROM documents WHERE batch_id = ?`,
  ).get(id) as Raw;
  return toRecount(r);
}

/** Store-wide gauges: the batch counters summed, and the pending documents (partial index). */
export function selectDocumentStats(db: Db): { documentsByStatus: StatusCounts; queueDepth: number } {
  const r = prepared(
    db,
    `SELECT coalesce(sum(queued), 0) AS queued, coalesce(sum(processing), 0) AS processing,
       coalesce(sum(succeeded), 0) AS succeeded, coalesce(sum(failed), 0) AS failed,
       coalesce(sum(canceled), 0) AS canceled,
       (SELECT count(*) FROM documents WHERE state = 'pending') AS pending
     FROM batches`,
  ).get() as Raw;
  return {
    documentsByStatus: { queued: Number(r.queued), processing: Number(r.processing), succeeded: Number(r.succeeded), failed: Number(r.failed), canceled: Number(r.canceled) },
    queueDepth: Number(r.pending),
  };
}

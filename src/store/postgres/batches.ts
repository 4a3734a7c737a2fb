/** SQL of the `batches` table (PostgreSQL). */
import type { StatusCounts } from '../../domain/batch.js';
import { deltaParams, type BatchDelta } from '../delta.js';
import { BATCH_COLUMNS, toBatch, toRecount } from '../rows.js';
import type { BatchRecount, BatchRow } from '../types.js';
import type { Q } from './pool.js';

const one = (rows: Record<string, unknown>[]): BatchRow | null => (rows[0] ? toBatch(rows[0]) : null);

export async function selectLiveBatch(q: Q, accountId: string, name: string, forUpdate = false): Promise<BatchRow | null> {
  const sql = `SELECT ${BATCH_COLUMNS} FROM batches WHERE account_id = $1 AND name = $2 AND deleted_at IS NULL${forUpdate ? ' FOR UPDATE' : ''}`;
  return one((await q.query(sql, [accountId, name])).rows);
}

export async function selectBatchById(q: Q, id: string): Promise<BatchRow | null> {
  return one((await q.query(`SELECT ${BATCH_COLUMNS} FROM batches WHERE id = $1`, [id])).rows);
}

/** The counter columns moved by a delta ($2..$10 of `bumpParams`), as bumpBatch and upsertLiveBatch set them. */
const BUMP = `queued = batches.queued + $2, processing = batches.processing + $3, succeeded = batches.succeeded + $4,
      failed = batches.failed + $5, canceled = batches.canceled + $6, document_count = batches.document_count + $7,
      min_started_at = LEAST(batches.min_started_at, $8::bigint), max_completed_at = GREATEST(batches.max_completed_at, $9::bigint),
      awaiting_process = batches.awaiting_process + $10`;

function bumpParams(id: string, d: BatchDelta): unknown[] {
  const p = deltaParams(id, d);
  return [p.id, p.dq, p.dp, p.ds, p.df, p.dc, p.dn, p.started, p.completed, p.da];
}

/** Applies a counter delta in one statement and returns the row after it (LEAST/GREATEST skip NULLs). */
export async function bumpBatch(q: Q, id: string, d: BatchDelta): Promise<BatchRow> {
  const sql = `UPDATE batches SET ${BUMP} WHERE id = $1 RETURNING ${BATCH_COLUMNS}`;
  return toBatch((await q.query(sql, bumpParams(id, d))).rows[0]);
}

/**
 * Applies a counter delta (of counts that only grow) to the live batch of that name, creating it
 * with `b` first when there is none, and returns the row after it: one statement, which locks
 * the row as SELECT ... FOR UPDATE did (ordering the upload against deleteBatch and submitBatch
 * of the same name), where a lookup, an insert and an update were three round trips.
 */
export async function upsertLiveBatch(q: Q, b: { id: string; account_id: string; name: string; created_at: number }, d: BatchDelta): Promise<BatchRow> {
  const sql = `INSERT INTO batches (id, queued, processing, succeeded, failed, canceled, document_count, min_started_at, max_completed_at, awaiting_process, account_id, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (account_id, name) WHERE deleted_at IS NULL DO UPDATE SET ${BUMP}
     RETURNING ${BATCH_COLUMNS}`;
  return toBatch((await q.query(sql, [...bumpParams(b.id, d), b.account_id, b.name, b.created_at])).rows[0]);
}

/** A process call submitted `submitted` uploaded documents: a new run, and they no longer await it. */
export async function incrementRun(q: Q, id: string, submitted: number): Promise<BatchRow> {
  const sql = `UPDATE batches SET run = run + 1, awaiting_process = awaiting_process - $2 WHERE id = $1 RETURNING ${BATCH_COLUMNS}`;
  return toBatch((await q.query(sql, [id, submitted])).rows[0]);
}

/** Marks the live batch deleted (taking its row lock first; its uploaded documents are canceled in the same transaction); null if there is none. */
export async function markBatchDeleted(q: Q, accountId: string, name: string, now: number): Promise<BatchRow | null> {
  const sql = `UPDATE batches SET deleted_at = $3, awaiting_process = 0 WHERE account_id = $1 AND name = $2 AND deleted_at IS NULL RETURNING ${BATCH_COLUMNS}`;
  return one((await q.query(sql, [accountId, name, now])).rows);
}

/** After a document row is removed: the span is recomputed from what remains (one indexed scan). */
export async function recomputeSpan(q: Q, id: string): Promise<BatchRow> {
  const sql = `UPDATE batches SET
      min_started_at = (SELECT min(started_at) FROM documents WHERE batch_id = $1),
      max_completed_at = (SELECT max(completed_at) FROM documents WHERE batch_id = $1)
    WHERE id = $1 RETURNING ${BATCH_COLUMNS}`;
  return toBatch((await q.query(sql, [id])).rows[0]);
}

/** Live batches of an account, newest first, after the (created_at, id) position if given. */
export async function selectLiveBatchesPage(q: Q, accountId: string, after: { created_at: number; id: string } | null, limit: number): Promise<BatchRow[]> {
  const { rows } = after
    ? await q.query(
        `SELECT ${BATCH_COLUMNS} FROM batches WHERE account_id = $1 AND deleted_at IS NULL AND (created_at, id) < ($2, $3)
         ORDER BY created_at DESC, id DESC LIMIT $4`,
        [accountId, after.created_at, after.id, limit],
      )
    : await q.query(`SELECT ${BATCH_COLUMNS} FROM batches WHERE account_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2`, [accountId, limit]);
  return rows.map(toBatch);
}

/** The counters recomputed from the documents (a full scan of the batch). */
export async function recountBatchRow(q: Q, id: string): Promise<BatchRecount> {
  const r = (
    await q.query(
      `SELECT
         count(*) FILTER (WHERE state = 'uploaded' OR (state = 'pending' AND started_at IS NULL)) AS queued,
         count(*) FILTER (WHERE state = 'leased' OR (state = 'pending' AND started_at IS NOT NULL)) AS processing,
         count(*) FILTER (WHERE state = 'succeeded') AS succeeded,
         count(*) FILTER (WHERE state = 'failed') AS failed,
         count(*) FILTER (WHERE state = 'canceled') AS canceled,
         count(*) FILTER (WHERE state = 'uploaded') AS awaiting_process,
         count(*) AS document_count, min(started_at) AS min_started_at, max(completed_at) AS max_completed_at
       FROM documents WHERE batch_id = $1`,
      [id],
    )
  ).rows[0];
  return toRecount(r);
}

/** Store-wide gauges: the batch counters summed, and the pending documents (partial index). */
export async function selectDocumentStats(q: Q): Promise<{ documentsByStatus: StatusCounts; queueDepth: number }> {
  const r = (
    await q.query(
      `SELECT coalesce(sum(queued), 0) AS queued, coalesce(sum(processing), 0) AS processing,
         coalesce(sum(succeeded), 0) AS succeeded, coalesce(sum(failed), 0) AS failed,
         coalesce(sum(canceled), 0) AS canceled,
         (SELECT count(*) FROM documents WHERE state = 'pending') AS pending
       FROM batches`,
    )
  ).rows[0];
  return {
    documentsByStatus: { queued: Number(r.queued), processing: Number(r.processing), succeeded: Number(r.succeeded), failed: Number(r.failed), canceled: Number(r.canceled) },
    queueDepth: Number(r.pending),
  };
}

/** SQL of the `batch_events` webhook outbox (PostgreSQL). */
import { toEvent } from '../rows.js';
import type { BatchEvent, BatchRow } from '../types.js';
import type { Q } from './pool.js';

/**
 * SQL building the `BatchRow` JSON (the shape of `toBatch`) from a batches row aliased `b`, for
 * statements that write the event in the same statement as the transition.
 */
export const BATCH_JSON_SQL = `jsonb_build_object('id', b.id, 'account_id', b.account_id, 'name', b.name,
  'counts', jsonb_build_object('queued', b.queued, 'processing', b.processing, 'succeeded', b.succeeded, 'failed', b.failed, 'canceled', b.canceled),
  'document_count', b.document_count, 'created_at', b.created_at, 'min_started_at', b.min_started_at,
  'max_completed_at', b.max_completed_at, 'run', b.run, 'deleted_at', b.deleted_at, 'webhook_url', b.webhook_url)`;

/** The all_done condition of `isAllDone` on a batches row aliased `b`, live batches only. */
export const LIVE_ALL_DONE_SQL = 'b.deleted_at IS NULL AND b.queued = 0 AND b.processing = 0 AND b.succeeded + b.failed + b.canceled > 0';

/** One event per (batch, run): a second all_done in the same run writes nothing (false). */
export async function insertBatchCompleted(q: Q, id: string, batch: BatchRow, now: number): Promise<boolean> {
  const sql = `INSERT INTO batch_events (id, batch_id, run, type, batch_json, created_at) VALUES ($1, $2, $3, 'batch.completed', $4::jsonb, $5)
     ON CONFLICT (batch_id, run) DO NOTHING`;
  return ((await q.query(sql, [id, batch.id, batch.run, JSON.stringify(batch), now])).rowCount ?? 0) > 0;
}

export async function selectBatchEvents(q: Q, batchId: string): Promise<BatchEvent[]> {
  const sql = 'SELECT id, batch_id, run, type, batch_json, created_at FROM batch_events WHERE batch_id = $1 ORDER BY run, created_at';
  return (await q.query(sql, [batchId])).rows.map(toEvent);
}

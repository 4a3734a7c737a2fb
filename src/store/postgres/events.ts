/** SQL of the `batch_events` webhook outbox (PostgreSQL). */
import { toEvent } from '../rows.js';
import type { BatchEvent, BatchRow } from '../types.js';
import type { Q } from './pool.js';

/** One event per (batch, run): a second all_done in the same run writes nothing. */
export async function insertBatchCompleted(q: Q, id: string, batch: BatchRow, now: number): Promise<void> {
  const sql = `INSERT INTO batch_events (id, batch_id, run, type, batch_json, created_at) VALUES ($1, $2, $3, 'batch.completed', $4::jsonb, $5)
     ON CONFLICT (batch_id, run) DO NOTHING`;
  await q.query(sql, [id, batch.id, batch.run, JSON.stringify(batch), now]);
}

export async function selectBatchEvents(q: Q, batchId: string): Promise<BatchEvent[]> {
  const sql = 'SELECT id, batch_id, run, type, batch_json, created_at FROM batch_events WHERE batch_id = $1 ORDER BY run, created_at';
  return (await q.query(sql, [batchId])).rows.map(toEvent);
}

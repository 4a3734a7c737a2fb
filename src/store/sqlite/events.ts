/** SQL of the `batch_events` webhook outbox (SQLite). */
import { toEvent } from '../rows.js';
import type { BatchEvent, BatchRow } from '../types.js';
import { prepared, type Db } from './db.js';

/** One event per (batch, run): a second all_done in the same run writes nothing (false). */
export function insertBatchCompleted(db: Db, id: string, batch: BatchRow, now: number): boolean {
  const sql = `INSERT INTO batch_events (id, batch_id, run, type, batch_json, created_at) VALUES (?, ?, ?, 'batch.completed', ?, ?)
     ON CONFLICT (batch_id, run) DO NOTHING`;
  return prepared(db, sql).run(id, batch.id, batch.run, JSON.stringify(batch), now).changes > 0;
}

export function selectBatchEvents(db: Db, batchId: string): BatchEvent[] {
  const sql = 'SELECT id, batch_id, run, type, batch_json, created_at FROM batch_events WHERE batch_id = ? ORDER BY run, created_at';
  return (prepared(db, sql).all(batchId) as Record<string, unknown>[]).map(toEvent);
}

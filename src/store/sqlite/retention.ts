/** SQL of the retention sweep (SQLite); see `../retention.ts`. Every purge is one transaction. */
import { purgeDeltas, type PurgeableDocument, type RetentionStore } from '../retention.js';
import { bumpBatch, recomputeSpan } from './batches.js';
import { prepared, type Db } from './db.js';

const TERMINAL = "('succeeded', 'failed', 'canceled')";

export class SqliteRetentionStore implements RetentionStore {
  constructor(
    private readonly db: Db,
    private readonly tx: <T>(fn: () => T) => T,
  ) {}

  async purgeableDocuments(cutoff: number | null, limit: number): Promise<PurgeableDocument[]> {
    // Two indexed arms: old terminal documents, and the terminal documents of deleted batches.
    const sql = `SELECT id, blob_key FROM (
        SELECT d.seq, d.id, d.blob_key FROM documents d
          WHERE d.state IN ${TERMINAL} AND d.completed_at < @cutoff
        UNION
        SELECT d.seq, d.id, d.blob_key FROM batches b JOIN documents d ON d.batch_id = b.id
          WHERE b.deleted_at IS NOT NULL AND d.state IN ${TERMINAL}
      ) ORDER BY seq LIMIT @limit`;
    return prepared(this.db, sql).all({ cutoff: cutoff ?? -1, limit }) as PurgeableDocument[];
  }

  async purgeDocuments(ids: string[], anyState = false): Promise<number> {
    if (ids.length === 0) return 0;
    return this.tx(() => {
      const sql = `DELETE FROM documents WHERE id IN (SELECT value FROM json_each(?)) ${anyState ? '' : `AND state IN ${TERMINAL}`} RETURNING batch_id, state, started_at`;
      const rows = prepared(this.db, sql).all(JSON.stringify(ids)) as { batch_id: string; state: string; started_at: number | null }[];
      for (const [batchId, delta] of purgeDeltas(rows)) {
        bumpBatch(this.db, batchId, delta);
        recomputeSpan(this.db, batchId);
      }
      return rows.length;
    });
  }

  async purgeEvents(cutoff: number, limit: number): Promise<number> {
    return this.tx(() => {
      const sql = `SELECT e.id FROM batch_events e WHERE e.created_at < ?
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries w WHERE w.event_id = e.id AND w.status = 'pending')
        ORDER BY e.created_at LIMIT ?`;
      const ids = JSON.stringify((prepared(this.db, sql).all(cutoff, limit) as { id: string }[]).map((r) => r.id));
      prepared(this.db, 'DELETE FROM webhook_deliveries WHERE event_id IN (SELECT value FROM json_each(?))').run(ids);
      return prepared(this.db, 'DELETE FROM batch_events WHERE id IN (SELECT value FROM json_each(?))').run(ids).changes;
    });
  }

  async purgeDeletedBatches(limit: number): Promise<number> {
    return this.tx(() => {
      const sql = `SELECT b.id FROM batches b WHERE b.deleted_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.batch_id = b.id) LIMIT ?`;
      const ids = JSON.stringify((prepared(this.db, sql).all(limit) as { id: string }[]).map((r) => r.id));
      for (const table of ['webhook_deliveries', 'batch_events', 'webhooks']) {
        prepared(this.db, `DELETE FROM ${table} WHERE batch_id IN (SELECT value FROM json_each(?))`).run(ids);
      }
      return prepared(this.db, 'DELETE FROM batches WHERE id IN (SELECT value FROM json_each(?))').run(ids).changes;
    });
  }

  async purgeIdempotency(cutoff: number, now: number, limit: number): Promise<number> {
    const sql = `DELETE FROM idempotency_keys WHERE rowid IN
        (SELECT rowid FROM idempotency_keys WHERE created_at < ? AND locked_until < ? LIMIT ?)`;
    return prepared(this.db, sql).run(cutoff, now, limit).changes;
  }
}

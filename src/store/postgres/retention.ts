/** SQL of the retention sweep (PostgreSQL); see `../retention.ts`. Every purge is one transaction. */
import type pg from 'pg';
import { purgeDeltas, type PurgeableDocument, type RetentionStore } from '../retention.js';
import { bumpBatch, recomputeSpan } from './batches.js';
import { transaction } from './pool.js';

const TERMINAL = "('succeeded', 'failed', 'canceled')";

export class PostgresRetentionStore implements RetentionStore {
  constructor(private readonly pool: pg.Pool) {}

  async purgeableDocuments(cutoff: number | null, limit: number): Promise<PurgeableDocument[]> {
    // Two indexed arms: old terminal documents, and the terminal documents of deleted batches.
    const sql = `SELECT id, blob_key FROM (
        SELECT d.seq, d.id, d.blob_key FROM documents d
          WHERE d.state IN ${TERMINAL} AND d.completed_at < $1
        UNION
        SELECT d.seq, d.id, d.blob_key FROM batches b JOIN documents d ON d.batch_id = b.id
          WHERE b.deleted_at IS NOT NULL AND d.state IN ${TERMINAL}
      ) p ORDER BY seq LIMIT $2`;
    return (await this.pool.query<PurgeableDocument>(sql, [cutoff ?? -1, limit])).rows;
  }

  async purgeDocuments(ids: string[], anyState = false): Promise<number> {
    if (ids.length === 0) return 0;
    return transaction(this.pool, async (c) => {
      const sql = `DELETE FROM documents WHERE id = ANY($1::text[]) ${anyState ? '' : `AND state IN ${TERMINAL}`} RETURNING batch_id, state, started_at`;
      const rows = (await c.query<{ batch_id: string; state: string; started_at: string | null }>(sql, [ids])).rows;
      // Batch rows locked in id order, as every other multi-batch transaction would.
      for (const [batchId, delta] of [...purgeDeltas(rows)].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await bumpBatch(c, batchId, delta);
        await recomputeSpan(c, batchId);
      }
      return rows.length;
    });
  }

  async purgeEvents(cutoff: number, limit: number): Promise<number> {
    return transaction(this.pool, async (c) => {
      const sql = `SELECT e.id FROM batch_events e WHERE e.created_at < $1
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries w WHERE w.event_id = e.id AND w.status = 'pending')
        ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED`;
      const ids = (await c.query<{ id: string }>(sql, [cutoff, limit])).rows.map((r) => r.id);
      await c.query('DELETE FROM webhook_deliveries WHERE event_id = ANY($1::text[])', [ids]);
      return (await c.query('DELETE FROM batch_events WHERE id = ANY($1::text[])', [ids])).rowCount ?? 0;
    });
  }

  async purgeDeletedBatches(limit: number): Promise<number> {
    return transaction(this.pool, async (c) => {
      const sql = `SELECT b.id FROM batches b WHERE b.deleted_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.batch_id = b.id) LIMIT $1 FOR UPDATE SKIP LOCKED`;
      const ids = (await c.query<{ id: string }>(sql, [limit])).rows.map((r) => r.id);
      for (const table of ['webhook_deliveries', 'batch_events', 'webhooks']) {
        await c.query(`DELETE FROM ${table} WHERE batch_id = ANY($1::text[])`, [ids]);
      }
      return (await c.query('DELETE FROM batches WHERE id = ANY($1::text[])', [ids])).rowCount ?? 0;
    });
  }

  async purgeIdempotency(cutoff: number, now: number, limit: number): Promise<number> {
    const sql = `DELETE FROM idempotency_keys WHERE ctid IN
        (SELECT ctid FROM idempotency_keys WHERE created_at < $1 AND locked_until < $2 LIMIT $3)`;
    return (await this.pool.query(sql, [cutoff, now, limit])).rowCount ?? 0;
  }
}

/**
 * SQL of `webhooks` and `webhook_deliveries` (PostgreSQL). The claim is one statement: due
 * pending attempts `FOR UPDATE SKIP LOCKED`, leased and returned with what the sender needs, so
 * several dispatchers (serve and worker processes) never take the same attempt.
 */
import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { newId } from '../../domain/names.js';
import { toClaimedDelivery, toDelivery, toWebhook } from '../rows.js';
import { receiverOf, type AttemptResult, type ClaimFairness, type ClaimedDelivery, type DeliveryRow, type WebhookRow, type WebhookStore } from '../webhooks.js';
import { notifyChange } from './notify.js';
import { transaction } from './pool.js';

type Raw = Record<string, unknown>;
const DELIVERY_COLUMNS = 'id, batch_id, event_id, attempt, status, response_status, error, created_at, next_attempt_at';

async function failPending(c: PoolClient, batchId: string, error: string): Promise<void> {
  await c.query(`UPDATE webhook_deliveries SET status = 'failed', error = $1, next_attempt_at = NULL, lease_until = NULL WHERE batch_id = $2 AND status = 'pending'`, [
    error,
    batchId,
  ]);
}

/** The `WebhookStore` over the PostgreSQL adapter's pool. */
export class PostgresWebhookStore implements WebhookStore {
  constructor(private readonly pool: Pool) {}

  async putWebhook(accountId: string, batchId: string, url: string, secret: string, now: number): Promise<WebhookRow> {
    return transaction(this.pool, async (c) => {
      const r = await c.query(
        `INSERT INTO webhooks (batch_id, account_id, url, receiver, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (batch_id) DO UPDATE SET url = excluded.url, receiver = excluded.receiver, secret = excluded.secret,
           created_at = excluded.created_at, disabled_at = NULL, disabled_reason = NULL
         RETURNING *`,
        [batchId, accountId, url, receiverOf(url), secret, now],
      );
      await c.query('UPDATE batches SET webhook_url = $1 WHERE id = $2', [url, batchId]);
      return toWebhook(r.rows[0]);
    });
  }

  async getWebhook(batchId: string): Promise<WebhookRow | null> {
    const r = await this.pool.query('SELECT * FROM webhooks WHERE batch_id = $1', [batchId]);
    return r.rows[0] ? toWebhook(r.rows[0]) : null;
  }

  async deleteWebhook(batchId: string): Promise<boolean> {
    return transaction(this.pool, async (c) => {
      const gone = ((await c.query('DELETE FROM webhooks WHERE batch_id = $1', [batchId])).rowCount ?? 0) > 0;
      if (gone) {
        await c.query('UPDATE batches SET webhook_url = NULL WHERE id = $1', [batchId]);
        await failPending(c, batchId, 'webhook removed');
      }
      return gone;
    });
  }

  async listDeliveries(batchId: string, limit: number): Promise<DeliveryRow[]> {
    const r = await this.pool.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE batch_id = $1 ORDER BY created_at DESC, attempt DESC, id DESC LIMIT $2`,
      [batchId, limit],
    );
    return r.rows.map(toDelivery);
  }

  async getDelivery(batchId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const r = await this.pool.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE batch_id = $1 AND id = $2`, [batchId, deliveryId]);
    return r.rows[0] ? toDelivery(r.rows[0]) : null;
  }

  async redeliver(batchId: string, deliveryId: string, now: number): Promise<DeliveryRow | null> {
    return transaction(this.pool, async (c) => {
      const src = await c.query('SELECT event_id FROM webhook_deliveries WHERE batch_id = $1 AND id = $2', [batchId, deliveryId]);
      if (!src.rows[0]) return null;
      const eventId = src.rows[0].event_id as string;
      // The event's attempts are numbered under a row lock on its first attempt.
      await c.query('SELECT 1 FROM webhook_deliveries WHERE event_id = $1 AND attempt = 1 FOR UPDATE', [eventId]);
      const r = await c.query(
        `INSERT INTO webhook_deliveries (id, batch_id, event_id, attempt, status, created_at, next_attempt_at)
         SELECT $1, $2, $3, coalesce(max(attempt), 0) + 1, 'pending', $4, $4 FROM webhook_deliveries WHERE event_id = $3
         RETURNING ${DELIVERY_COLUMNS}`,
        [newId('dlv'), batchId, eventId, now],
      );
      await notifyChange(c, 'webhooks');
      return toDelivery(r.rows[0]);
    });
  }

  async enqueueEvents(now: number): Promise<number> {
    const due = await this.pool.query(
      `SELECT e.id, e.batch_id FROM webhooks w JOIN batch_events e ON e.batch_id = w.batch_id AND e.created_at >= w.created_at
       WHERE w.disabled_at IS NULL AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`,
    );
    let count = 0;
    for (const e of due.rows as Raw[]) {
      const r = await this.pool.query(
        `INSERT INTO webhook_deliveries (id, batch_id, event_id, attempt, status, created_at, next_attempt_at)
         VALUES ($1, $2, $3, 1, 'pending', $4, $4) ON CONFLICT (event_id, attempt) DO NOTHING`,
        [newId('dlv'), e.batch_id, e.id, now],
      );
      count += r.rowCount ?? 0;
    }
    return count;
  }

  async claimDeliveries(limit: number, leaseMs: number, now: number, fair: ClaimFairness = {}): Promise<ClaimedDelivery[]> {
    const token = randomBytes(12).toString('hex');
    // The earliest due attempt of each receiving host not busy, then of those at most an
    // account's room, earliest first. DISTINCT ON cannot take FOR UPDATE, so the update guards
    // instead: a row another dispatcher leased meanwhile fails the re-checked condition.
    const r = await this.pool.query(
      `WITH claimed AS (
         UPDATE webhook_deliveries SET lease_until = $1, claim_token = $2
         WHERE id IN (
           SELECT id FROM (
             SELECT id, next_attempt_at, account_id, row_number() OVER (PARTITION BY account_id ORDER BY next_attempt_at, id) AS nth_of_account
             FROM (
               SELECT DISTINCT ON (w.receiver) d.id, d.next_attempt_at, w.account_id
               FROM webhook_deliveries d JOIN webhooks w ON w.batch_id = d.batch_id AND w.disabled_at IS NULL
               WHERE d.status = 'pending' AND d.next_attempt_at <= $3 AND (d.lease_until IS NULL OR d.lease_until < $3)
                 AND NOT (w.receiver = ANY($5::text[]))
               ORDER BY w.receiver, d.next_attempt_at, d.id) due) ranked
           WHERE nth_of_account <= coalesce(($6::jsonb ->> account_id)::int, $7)
           ORDER BY next_attempt_at LIMIT $4)
           AND status = 'pending' AND (lease_until IS NULL OR lease_until < $3)
         RETURNING *)
       SELECT c.id, c.batch_id, c.event_id, c.attempt, c.status, c.response_status, c.error, c.created_at, c.next_attempt_at, c.claim_token,
              w.account_id, w.url, w.receiver, w.secret, e.type AS event_type, e.created_at AS event_created_at, e.batch_json::text AS batch_json
       FROM claimed c JOIN webhooks w ON w.batch_id = c.batch_id JOIN batch_events e ON e.id = c.event_id`,
      [now + leaseMs, token, now, limit, [...(fair.busyReceivers ?? [])], JSON.stringify(fair.accountRoom ?? {}), fair.perAccount ?? limit],
    );
    return (r.rows as Raw[]).map(toClaimedDelivery);
  }

  async finishAttempt(claim: ClaimedDelivery, result: AttemptResult, newDeliveryId: string, now: number): Promise<boolean> {
    return transaction(this.pool, async (c) => {
      const done = await c.query(
        `UPDATE webhook_deliveries SET status = $1, response_status = $2, error = $3, next_attempt_at = $4, lease_until = NULL
         WHERE id = $5 AND claim_token = $6 AND status = 'pending'`,
        [result.status, result.response_status, result.error, result.retry_at, claim.id, claim.claim_token],
      );
      if ((done.rowCount ?? 0) === 0) return false;
      if (result.retry_at !== null) {
        await c.query('SELECT 1 FROM webhook_deliveries WHERE event_id = $1 AND attempt = 1 FOR UPDATE', [claim.event_id]);
        // max + 1, not claim.attempt + 1: a manual redelivery may have taken that number.
        await c.query(
          `INSERT INTO webhook_deliveries (id, batch_id, event_id, attempt, status, created_at, next_attempt_at)
           SELECT $1, $2, $3, max(attempt) + 1, 'pending', $4, $5 FROM webhook_deliveries WHERE event_id = $3`,
          [newDeliveryId, claim.batch_id, claim.event_id, now, result.retry_at],
        );
      }
      if (result.disable) {
        await c.query('UPDATE webhooks SET disabled_at = $1, disabled_reason = $2 WHERE batch_id = $3 AND disabled_at IS NULL', [
          now,
          result.error ?? `receiver answered ${result.response_status}`,
          claim.batch_id,
        ]);
        await c.query('UPDATE batches SET webhook_url = NULL WHERE id = $1', [claim.batch_id]);
        await failPending(c, claim.batch_id, 'webhook disabled');
      }
      return true;
    });
  }
}

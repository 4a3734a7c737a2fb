/**
 * SQL of `webhooks` and `webhook_deliveries` (SQLite). Writers run in `BEGIN IMMEDIATE`
 * transactions: the database's one write lock is what makes the claim safe across processes
 * (the guard `status = 'pending' AND lease expired` is re-checked inside the UPDATE).
 */
import { randomBytes } from 'node:crypto';
import { newId } from '../../domain/names.js';
import type { LocalChanges } from '../changes.js';
import { toClaimedDelivery, toDelivery, toWebhook } from '../rows.js';
import { receiverOf, type AttemptResult, type ClaimFairness, type ClaimedDelivery, type DeliveryRow, type WebhookRow, type WebhookStore } from '../webhooks.js';
import { prepared, type Db } from './db.js';

type Raw = Record<string, unknown>;

const DELIVERY_COLUMNS = 'id, batch_id, event_id, attempt, status, response_status, error, created_at, next_attempt_at';

/** Fails every pending attempt of a batch (its webhook went away or was disabled). */
function failPending(db: Db, batchId: string, error: string): void {
  prepared(db, `UPDATE webhook_deliveries SET status = 'failed', error = ?, next_attempt_at = NULL, lease_until = NULL WHERE batch_id = ? AND status = 'pending'`).run(
    error,
    batchId,
  );
}

/** The `WebhookStore` over one better-sqlite3 connection; a redelivery emits `webhooks` on `changes`. */
export class SqliteWebhookStore implements WebhookStore {
  constructor(
    private readonly db: Db,
    private readonly changes: LocalChanges,
  ) {}

  async putWebhook(accountId: string, batchId: string, url: string, secret: string, now: number): Promise<WebhookRow> {
    const tx = this.db.transaction(() => {
      const row = prepared(
        this.db,
        `INSERT INTO webhooks (batch_id, account_id, url, receiver, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (batch_id) DO UPDATE SET url = excluded.url, receiver = excluded.receiver, secret = excluded.secret,
           created_at = excluded.created_at, disabled_at = NULL, disabled_reason = NULL
         RETURNING *`,
      ).get(batchId, accountId, url, receiverOf(url), secret, now) as Raw;
      prepared(this.db, 'UPDATE batches SET webhook_url = ? WHERE id = ?').run(url, batchId);
      return toWebhook(row);
    });
    return tx.immediate();
  }

  async getWebhook(batchId: string): Promise<WebhookRow | null> {
    const r = prepared(this.db, 'SELECT * FROM webhooks WHERE batch_id = ?').get(batchId) as Raw | undefined;
    return r ? toWebhook(r) : null;
  }

  async deleteWebhook(batchId: string): Promise<boolean> {
    const tx = this.db.transaction(() => {
      const gone = prepared(this.db, 'DELETE FROM webhooks WHERE batch_id = ?').run(batchId).changes > 0;
      if (gone) {
        prepared(this.db, 'UPDATE batches SET webhook_url = NULL WHERE id = ?').run(batchId);
        failPending(this.db, batchId, 'webhook removed');
      }
      return gone;
    });
    return tx.immediate();
  }

  async listDeliveries(batchId: string, limit: number): Promise<DeliveryRow[]> {
    const sql = `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE batch_id = ? ORDER BY created_at DESC, attempt DESC, id DESC LIMIT ?`;
    return (prepared(this.db, sql).all(batchId, limit) as Raw[]).map(toDelivery);
  }

  async getDelivery(batchId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const r = prepared(this.db, `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE batch_id = ? AND id = ?`).get(batchId, deliveryId) as Raw | undefined;
    return r ? toDelivery(r) : null;
  }

  async redeliver(batchId: string, deliveryId: string, now: number): Promise<DeliveryRow | null> {
    const tx = this.db.transaction(() => {
      const src = prepared(this.db, 'SELECT event_id FROM webhook_deliveries WHERE batch_id = ? AND id = ?').get(batchId, deliveryId) as Raw | undefined;
      if (!src) return null;
      const r = prepared(
        this.db,
        `INSERT INTO webhook_deliveries (id, batch_id, event_id, attempt, status, created_at, next_attempt_at)
         SELECT ?, ?, ?, coalesce(max(attempt), 0) + 1, 'pending', ?, ? FROM webhook_deliveries WHERE event_id = ?
         RETURNING ${DELIVERY_COLUMNS}`,
      ).get(newId('dlv'), batchId, src.event_id, now, now, src.event_id) as Raw;
      return toDelivery(r);
    });
    const row = tx.immediate();
    if (row) this.changes.emit('webhooks');
    return row;
  }

  async enqueueEvents(now: number): Promise<number> {
    // Walks from the (few) enabled webhooks to their batch's events by the (batch_id, run)
    // index, so the cost follows webhooks, not the whole outbox.
    const due = prepared(
      this.db,
      `SELECT e.id, e.batch_id FROM webhooks w JOIN batch_events e ON e.batch_id = w.batch_id AND e.created_at >= w.created_at
       WHERE w.disabled_at IS NULL AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`,
    );
    const insert = prepared(
      this.db,
      `INSERT INTO webhook_deliveries (id, batch_id, event_id, attempt, status, created_at, next_attempt_at)
       VALUES (?, ?, ?, 1, 'pending', ?, ?) ON CONFLICT (event_id, attempt) DO NOTHING`,
    );
    // Read first, outside a transaction: an idle dispatcher polls twice a second and must not
    // take the database's one write lock from the workers each time. The insert's ON CONFLICT
    // settles a race with another process.
    const rows = due.all() as Raw[];
    if (!rows.length) return 0;
    const tx = this.db.transaction(() => {
      let count = 0;
      for (const e of rows) count += insert.run(newId('dlv'), e.batch_id, e.id, now, now).changes;
      return count;
    });
    return tx.immediate();
  }

  async claimDeliveries(limit: number, leaseMs: number, now: number, fair: ClaimFairness = {}): Promise<ClaimedDelivery[]> {
    // The earliest due attempt of each receiving host not busy, then of those at most an
    // account's room, earliest first.
    const pick = prepared(
      this.db,
      `SELECT id FROM (
         SELECT id, next_attempt_at, account_id, row_number() OVER (PARTITION BY account_id ORDER BY next_attempt_at, id) AS nth_of_account
         FROM (
           SELECT d.id, d.next_attempt_at, w.account_id, row_number() OVER (PARTITION BY w.receiver ORDER BY d.next_attempt_at, d.id) AS nth
           FROM webhook_deliveries d JOIN webhooks w ON w.batch_id = d.batch_id AND w.disabled_at IS NULL
           WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)
             AND w.receiver NOT IN (SELECT value FROM json_each(?)))
         WHERE nth = 1)
       WHERE nth_of_account <= coalesce((SELECT value FROM json_each(?) WHERE key = account_id), ?)
       ORDER BY next_attempt_at LIMIT ?`,
    );
    const args = [now, now, JSON.stringify(fair.busyReceivers ?? []), JSON.stringify(fair.accountRoom ?? {}), fair.perAccount ?? limit];
    const take = prepared(
      this.db,
      `UPDATE webhook_deliveries SET lease_until = ?, claim_token = ?
       WHERE id = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)`,
    );
    const load = prepared(
      this.db,
      `SELECT d.id, d.batch_id, d.event_id, d.attempt, d.status, d.response_status, d.error, d.created_at, d.next_attempt_at, d.claim_token,
              w.account_id, w.url, w.receiver, w.secret, e.type AS event_type, e.created_at AS event_created_at, e.batch_json
       FROM webhook_deliveries d JOIN webhooks w ON w.batch_id = d.batch_id JOIN batch_events e ON e.id = d.event_id WHERE d.id = ?`,
    );
    // Nothing due (the usual case): answer from a read, without the write lock.
    if (!pick.all(...args, 1).length) return [];
    const tx = this.db.transaction(() => {
      const out: ClaimedDelivery[] = [];
      for (const { id } of pick.all(...args, limit) as Array<{ id: string }>) {
        const token = randomBytes(12).toString('hex');
        if (take.run(now + leaseMs, token, id, now).changes === 0) continue;
        out.push(toClaimedDelivery(load.get(id) as Raw));
      }
      return out;
    });
    return tx.immediate();
  }

  async finishAttempt(claim: ClaimedDelivery, result: AttemptResult, newDeliveryId: string, now: number): Promise<boolean> {
    const tx = this.db.transaction(() => {
      const done = prepared(
        this.db,
        `UPDATE webhook_deliveries SET status = ?, response_status = ?, error = ?, next_attempt_at = ?, lease_until = NULL
         WHERE id = ? AND claim_token = ? AND status = 'pending'`,
      ).run(result.status, result.response_status, result.error, result.retry_at, claim.id, claim.claim_token);
      if (done.changes === 0) return false;
      if (result.retry_at !== null) {
        prepared(
          this.db,
          // max + 1, not claim.attempt + 1: a manual redelivery may have taken that number.
          `INSERT INTO webhook_deliveries (id, batch_id, event_id, attempt, status, created_at, next_attempt_at)
           SELECT ?, ?, ?, max(attempt) + 1, 'pending', ?, ? FROM webhook_deliveries WHERE event_id = ?`,
        ).run(newDeliveryId, claim.batch_id, claim.event_id, now, result.retry_at, claim.event_id);
      }
      if (result.disable) {
        prepared(this.db, `UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE batch_id = ? AND disabled_at IS NULL`).run(
          now,
          result.error ?? `receiver answered ${result.response_status}`,
          claim.batch_id,
        );
        prepared(this.db, 'UPDATE batches SET webhook_url = NULL WHERE id = ?').run(claim.batch_id);
        failPending(this.db, claim.batch_id, 'webhook disabled');
      }
      return true;
    });
    return tx.immediate();
  }
}

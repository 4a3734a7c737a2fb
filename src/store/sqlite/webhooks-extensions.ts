/** The issue-5 store extensions over the SQLite adapter's connection. */
import type { StoreExtensions } from '../webhook-types.js';
import type { Db } from './db.js';
import { SqliteIdempotencyStore } from './idempotency.js';
import { SqliteWebhookStore } from './webhooks.js';

/** Webhooks, idempotency keys and the rate-limit table (migration 102) on `db`. */
export function sqliteExtensions(db: unknown): StoreExtensions {
  const conn = db as Db;
  return {
    webhooks: new SqliteWebhookStore(conn),
    idempotency: new SqliteIdempotencyStore(conn),
    rateLimit: { kind: 'sqlite', db: conn, tableName: 'rate_limits' },
  };
}

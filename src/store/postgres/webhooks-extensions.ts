/** The issue-5 store extensions over the PostgreSQL adapter's pool. */
import type { Pool } from 'pg';
import type { StoreExtensions } from '../webhook-types.js';
import { PostgresIdempotencyStore } from './idempotency.js';
import { PostgresWebhookStore } from './webhooks.js';

/** Webhooks, idempotency keys and the rate-limit table (migration 102) on `pool`. */
export function postgresExtensions(pool: unknown, schemaName: string | null): StoreExtensions {
  const p = pool as Pool;
  return {
    webhooks: new PostgresWebhookStore(p),
    idempotency: new PostgresIdempotencyStore(p),
    rateLimit: { kind: 'postgres', pool: p, tableName: 'rate_limits', schemaName },
  };
}

/**
 * SQL of `idempotency_keys` (PostgreSQL). `beginIdempotent` locks the key's row (or inserts
 * it; a racing insert loses on the primary key and re-reads), so one request of several
 * concurrent duplicates runs.
 */
import type { Pool } from 'pg';
import type { IdempotencyBegin, IdempotencyStore } from '../idempotency.js';
import { storedIdempotency } from '../rows.js';
import { transaction } from './pool.js';

type Raw = Record<string, unknown>;

/** The `IdempotencyStore` over the PostgreSQL adapter's pool. */
export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly pool: Pool) {}

  async beginIdempotent(scope: string, key: string, requestHash: string | null, now: number, lockMs: number, ttlMs: number): Promise<IdempotencyBegin> {
    return transaction(this.pool, async (c): Promise<IdempotencyBegin> => {
      // Insert-or-nothing first: the winner of a race owns the key without reading it.
      const ins = await c.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, status, created_at, locked_until, expires_at)
         VALUES ($1, $2, $3, NULL, $4, $5, $6) ON CONFLICT (scope, key) DO NOTHING`,
        [scope, key, requestHash, now, now + lockMs, now + ttlMs],
      );
      if ((ins.rowCount ?? 0) > 0) return { state: 'started' };
      const r = (await c.query('SELECT * FROM idempotency_keys WHERE scope = $1 AND key = $2 FOR UPDATE', [scope, key])).rows[0] as Raw;
      const stored = storedIdempotency(r, now);
      if (stored) return stored;
      // Expired, or unfinished with its lock run out (its process is gone): taken over.
      await c.query(
        `UPDATE idempotency_keys SET request_hash = $3, status = NULL, response_headers = NULL, response_body = NULL,
           created_at = $4, locked_until = $5, expires_at = $6 WHERE scope = $1 AND key = $2`,
        [scope, key, requestHash, now, now + lockMs, now + ttlMs],
      );
      return { state: 'started' };
    });
  }

  async completeIdempotent(scope: string, key: string, requestHash: string, status: number, headers: Record<string, string>, body: string): Promise<void> {
    await this.pool.query('UPDATE idempotency_keys SET status = $1, response_headers = $2, response_body = $3, request_hash = $6 WHERE scope = $4 AND key = $5', [
      status,
      JSON.stringify(headers),
      body,
      scope,
      key,
      requestHash,
    ]);
  }

  async releaseIdempotent(scope: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL', [scope, key]);
  }

  async purgeIdempotent(now: number): Promise<number> {
    return (await this.pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }
}

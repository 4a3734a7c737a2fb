/**
 * SQL of `idempotency_keys` (SQLite). `beginIdempotent` reads and takes the key in one
 * `BEGIN IMMEDIATE` transaction, so two processes racing on one key see one winner.
 */
import type { IdempotencyBegin, IdempotencyStore } from '../idempotency.js';
import { storedIdempotency } from '../rows.js';
import { prepared, type Db } from './db.js';

type Raw = Record<string, unknown>;

/** The `IdempotencyStore` over one better-sqlite3 connection. */
export class SqliteIdempotencyStore implements IdempotencyStore {
  constructor(private readonly db: Db) {}

  async beginIdempotent(scope: string, key: string, requestHash: string | null, now: number, lockMs: number, ttlMs: number): Promise<IdempotencyBegin> {
    const tx = this.db.transaction((): IdempotencyBegin => {
      const r = prepared(this.db, 'SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?').get(scope, key) as Raw | undefined;
      const stored = storedIdempotency(r, now);
      if (stored) return stored;
      // Expired, or unfinished with its lock run out (its process is gone): taken over.
      prepared(
        this.db,
        `INSERT INTO idempotency_keys (scope, key, request_hash, status, created_at, locked_until, expires_at) VALUES (?, ?, ?, NULL, ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = NULL, response_headers = NULL,
           response_body = NULL, created_at = excluded.created_at, locked_until = excluded.locked_until, expires_at = excluded.expires_at`,
      ).run(scope, key, requestHash, now, now + lockMs, now + ttlMs);
      return { state: 'started' };
    });
    return tx.immediate();
  }

  async completeIdempotent(scope: string, key: string, requestHash: string, status: number, headers: Record<string, string>, body: string): Promise<void> {
    prepared(this.db, 'UPDATE idempotency_keys SET request_hash = ?, status = ?, response_headers = ?, response_body = ? WHERE scope = ? AND key = ?').run(
      requestHash,
      status,
      JSON.stringify(headers),
      body,
      scope,
      key,
    );
  }

  async releaseIdempotent(scope: string, key: string): Promise<void> {
    prepared(this.db, 'DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND status IS NULL').run(scope, key);
  }

  async purgeIdempotent(now: number): Promise<number> {
    return prepared(this.db, 'DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now).changes;
  }
}

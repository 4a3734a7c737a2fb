/** SQL of the `accounts` and `api_keys` tables (SQLite). */
import type { Account, ApiKeyRow, KeyAuth } from '../types.js';
import { prepared, type Db } from './db.js';

export function insertAccountIfMissing(db: Db, a: Account): void {
  prepared(db, 'INSERT INTO accounts (id, name, created_at) VALUES (@id, @name, @created_at) ON CONFLICT (name) DO NOTHING').run(a);
}

export function selectAccountByName(db: Db, name: string): Account | null {
  return (prepared(db, 'SELECT id, name, created_at FROM accounts WHERE name = ?').get(name) as Account | undefined) ?? null;
}

export function insertApiKey(db: Db, k: { id: string; account_id: string; key_hash: string; created_at: number }): void {
  prepared(db, 'INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES (@id, @account_id, @key_hash, @created_at)').run(k);
}

export function selectKeyByHash(db: Db, keyHash: string): KeyAuth | null {
  const sql = `SELECT a.id, a.name, a.created_at, k.id AS key_id, k.last_used_at FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = ? AND k.revoked_at IS NULL`;
  const r = prepared(db, sql).get(keyHash) as (Account & { key_id: string; last_used_at: number | null }) | undefined;
  return r ? { account: { id: r.id, name: r.name, created_at: r.created_at }, key_id: r.key_id, last_used_at: r.last_used_at } : null;
}

export function updateKeyLastUsed(db: Db, keyId: string, now: number): void {
  prepared(db, 'UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, keyId);
}

export function selectApiKeys(db: Db, accountName: string | null): ApiKeyRow[] {
  const sql = `SELECT k.id, a.name AS account_name, k.created_at, k.last_used_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE ? IS NULL OR a.name = ? ORDER BY k.created_at, k.id`;
  return prepared(db, sql).all(accountName, accountName) as ApiKeyRow[];
}

/** True if the key existed and was not yet revoked. */
export function updateKeyRevoked(db: Db, keyId: string, now: number): boolean {
  return prepared(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, keyId).changes === 1;
}

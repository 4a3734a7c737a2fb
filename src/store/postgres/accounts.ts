/** SQL of the `accounts` and `api_keys` tables (PostgreSQL). */
import type { Account, ApiKeyRow, KeyAuth } from '../types.js';
import type { Q } from './pool.js';

/** Inserts the account unless the name exists, and returns the row either way. */
export async function upsertAccount(q: Q, a: Account): Promise<Account> {
  await q.query('INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [a.id, a.name, a.created_at]);
  return (await q.query<Account>('SELECT id, name, created_at FROM accounts WHERE name = $1', [a.name])).rows[0];
}

export async function insertApiKey(q: Q, k: { id: string; account_id: string; key_hash: string; created_at: number }): Promise<void> {
  await q.query('INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES ($1, $2, $3, $4)', [k.id, k.account_id, k.key_hash, k.created_at]);
}

export async function selectKeyByHash(q: Q, keyHash: string): Promise<KeyAuth | null> {
  const sql = `SELECT a.id, a.name, a.created_at, k.id AS key_id, k.last_used_at FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;
  const r = (await q.query<Account & { key_id: string; last_used_at: number | null }>(sql, [keyHash])).rows[0];
  return r ? { account: { id: r.id, name: r.name, created_at: r.created_at }, key_id: r.key_id, last_used_at: r.last_used_at } : null;
}

export async function updateKeyLastUsed(q: Q, keyId: string, now: number): Promise<void> {
  await q.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [now, keyId]);
}

export async function selectApiKeys(q: Q, accountName: string | null): Promise<ApiKeyRow[]> {
  const sql = `SELECT k.id, a.name AS account_name, k.created_at, k.last_used_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE $1::text IS NULL OR a.name = $1 ORDER BY k.created_at, k.id`;
  return (await q.query<ApiKeyRow>(sql, [accountName])).rows;
}

/** True if the key existed and was not yet revoked. */
export async function updateKeyRevoked(q: Q, keyId: string, now: number): Promise<boolean> {
  return ((await q.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, keyId])).rowCount ?? 0) === 1;
}

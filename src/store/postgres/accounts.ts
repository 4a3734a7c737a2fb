/** SQL of the `accounts` and `api_keys` tables (PostgreSQL). */
import type { Account } from '../types.js';
import type { Q } from './pool.js';

/** Inserts the account unless the name exists, and returns the row either way. */
export async function upsertAccount(q: Q, a: Account): Promise<Account> {
  await q.query('INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [a.id, a.name, a.created_at]);
  return (await q.query<Account>('SELECT id, name, created_at FROM accounts WHERE name = $1', [a.name])).rows[0];
}

export async function insertApiKey(q: Q, k: { id: string; account_id: string; key_hash: string; created_at: number }): Promise<void> {
  await q.query('INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES ($1, $2, $3, $4)', [k.id, k.account_id, k.key_hash, k.created_at]);
}

export async function selectAccountByKeyHash(q: Q, keyHash: string): Promise<Account | null> {
  const sql = 'SELECT a.id, a.name, a.created_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1';
  return (await q.query<Account>(sql, [keyHash])).rows[0] ?? null;
}

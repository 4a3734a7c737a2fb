/** SQL of the `accounts` and `api_keys` tables (SQLite). */
import type { Account } from '../types.js';
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

export function selectAccountByKeyHash(db: Db, keyHash: string): Account | null {
  const sql = 'SELECT a.id, a.name, a.created_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?';
  return (prepared(db, sql).get(keyHash) as Account | undefined) ?? null;
}

/** SQL of corrections, page words, run options and vendor memories (SQLite). */
import type { ReviewStore, VendorRow } from '../review.js';
import { toVendor } from '../rows.js';
import { prepared, type Db } from './db.js';

type Raw = Record<string, unknown>;

export class SqliteReviewStore implements ReviewStore {
  constructor(private readonly db: Db) {}

  async getCorrection(accountId: string, documentId: string): Promise<string | null> {
    const r = prepared(this.db, 'SELECT body_json FROM document_corrections WHERE document_id = ? AND account_id = ?').get(documentId, accountId) as Raw | undefined;
    return (r?.body_json as string | undefined) ?? null;
  }

  async putCorrection(accountId: string, documentId: string, bodyJson: string, now: number, expected?: string | null): Promise<boolean> {
    if (typeof expected === 'string') {
      const sql = 'UPDATE document_corrections SET body_json = ?, updated_at = ? WHERE document_id = ? AND account_id = ? AND body_json = ?';
      return prepared(this.db, sql).run(bodyJson, now, documentId, accountId, expected).changes === 1;
    }
    const sql = `INSERT INTO document_corrections (document_id, account_id, body_json, updated_at)
       SELECT id, account_id, ?, ? FROM documents WHERE id = ? AND account_id = ?
       ON CONFLICT (document_id) DO ${expected === null ? 'NOTHING' : 'UPDATE SET body_json = excluded.body_json, updated_at = excluded.updated_at'}`;
    return prepared(this.db, sql).run(bodyJson, now, documentId, accountId).changes === 1;
  }

  async deleteCorrection(accountId: string, documentId: string): Promise<boolean> {
    return prepared(this.db, 'DELETE FROM document_corrections WHERE document_id = ? AND account_id = ?').run(documentId, accountId).changes === 1;
  }

  async putWords(documentId: string, wordsJson: string): Promise<void> {
    const sql = `INSERT INTO document_words (document_id, words_json) SELECT id, ? FROM documents WHERE id = ?
       ON CONFLICT (document_id) DO UPDATE SET words_json = excluded.words_json`;
    prepared(this.db, sql).run(wordsJson, documentId);
  }

  async getWords(accountId: string, documentId: string): Promise<string | null> {
    const sql = 'SELECT w.words_json FROM document_words w JOIN documents d ON d.id = w.document_id WHERE w.document_id = ? AND d.account_id = ?';
    const r = prepared(this.db, sql).get(documentId, accountId) as Raw | undefined;
    return (r?.words_json as string | undefined) ?? null;
  }

  async getOptions(accountId: string, documentId: string): Promise<string | null> {
    const r = prepared(this.db, 'SELECT options_json FROM documents WHERE id = ? AND account_id = ?').get(documentId, accountId) as Raw | undefined;
    return (r?.options_json as string | null | undefined) ?? null;
  }

  async listVendors(accountId: string, limit: number): Promise<VendorRow[]> {
    const sql = 'SELECT * FROM vendor_memories WHERE account_id = ? ORDER BY updated_at DESC, id LIMIT ?';
    return (prepared(this.db, sql).all(accountId, limit) as Raw[]).map(toVendor);
  }

  async putVendor(v: VendorRow): Promise<void> {
    const sql = `INSERT INTO vendor_memories (id, account_id, name, memory_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, memory_json = excluded.memory_json, updated_at = excluded.updated_at
       WHERE vendor_memories.account_id = excluded.account_id`;
    prepared(this.db, sql).run(v.id, v.account_id, v.name, v.memory_json, v.created_at, v.updated_at);
  }

  async deleteVendor(accountId: string, id: string): Promise<boolean> {
    return prepared(this.db, 'DELETE FROM vendor_memories WHERE id = ? AND account_id = ?').run(id, accountId).changes === 1;
  }
}

/** SQL of corrections, page words, run options and vendor memories (PostgreSQL). */
import type { Pool } from 'pg';
import type { ReviewStore, VendorRow } from '../review.js';
import { toVendor } from '../rows.js';

export class PostgresReviewStore implements ReviewStore {
  constructor(private readonly pool: Pool) {}

  async getCorrection(accountId: string, documentId: string): Promise<string | null> {
    const { rows } = await this.pool.query('SELECT body_json FROM document_corrections WHERE document_id = $1 AND account_id = $2', [documentId, accountId]);
    return (rows[0]?.body_json as string | undefined) ?? null;
  }

  async putCorrection(accountId: string, documentId: string, bodyJson: string, now: number, expected?: string | null): Promise<boolean> {
    if (typeof expected === 'string') {
      // Under READ COMMITTED an update waiting on another re-checks its condition on the row that one committed.
      const sql = 'UPDATE document_corrections SET body_json = $1, updated_at = $2 WHERE document_id = $3 AND account_id = $4 AND body_json = $5';
      return (await this.pool.query(sql, [bodyJson, now, documentId, accountId, expected])).rowCount === 1;
    }
    const sql = `INSERT INTO document_corrections (document_id, account_id, body_json, updated_at)
       SELECT id, account_id, $1, $2 FROM documents WHERE id = $3 AND account_id = $4
       ON CONFLICT (document_id) DO ${expected === null ? 'NOTHING' : 'UPDATE SET body_json = excluded.body_json, updated_at = excluded.updated_at'}`;
    return (await this.pool.query(sql, [bodyJson, now, documentId, accountId])).rowCount === 1;
  }

  async deleteCorrection(accountId: string, documentId: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM document_corrections WHERE document_id = $1 AND account_id = $2', [documentId, accountId])).rowCount === 1;
  }

  async putWords(documentId: string, wordsJson: string): Promise<void> {
    const sql = `INSERT INTO document_words (document_id, words_json) SELECT id, $1 FROM documents WHERE id = $2
       ON CONFLICT (document_id) DO UPDATE SET words_json = excluded.words_json`;
    await this.pool.query(sql, [wordsJson, documentId]);
  }

  async getWords(accountId: string, documentId: string): Promise<string | null> {
    const sql = 'SELECT w.words_json FROM document_words w JOIN documents d ON d.id = w.document_id WHERE w.document_id = $1 AND d.account_id = $2';
    const { rows } = await this.pool.query(sql, [documentId, accountId]);
    return (rows[0]?.words_json as string | undefined) ?? null;
  }

  async getOptions(accountId: string, documentId: string): Promise<string | null> {
    const { rows } = await this.pool.query('SELECT options_json FROM documents WHERE id = $1 AND account_id = $2', [documentId, accountId]);
    return (rows[0]?.options_json as string | null | undefined) ?? null;
  }

  async listVendors(accountId: string, limit: number): Promise<VendorRow[]> {
    const { rows } = await this.pool.query('SELECT * FROM vendor_memories WHERE account_id = $1 ORDER BY updated_at DESC, id LIMIT $2', [accountId, limit]);
    return rows.map(toVendor);
  }

  async putVendor(v: VendorRow): Promise<void> {
    const sql = `INSERT INTO vendor_memories (id, account_id, name, memory_json, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, memory_json = excluded.memory_json, updated_at = excluded.updated_at
       WHERE vendor_memories.account_id = excluded.account_id`;
    await this.pool.query(sql, [v.id, v.account_id, v.name, v.memory_json, v.created_at, v.updated_at]);
  }

  async deleteVendor(accountId: string, id: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM vendor_memories WHERE id = $1 AND account_id = $2', [id, accountId])).rowCount === 1;
  }
}

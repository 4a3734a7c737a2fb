/** Original uploads in PostgreSQL (cluster mode), in 1 MiB `bytea` chunks (tables: migration 001). */
import { Readable } from 'node:stream';
import type pg from 'pg';
import { BlobNotFoundError, type BlobStore, type PutResult } from './types.js';
import { PutTally, isBlobKey, newBlobKey } from './keys.js';

/** 1 MiB a row: a 25 MiB upload is 25 inserts, and a read never holds more than a chunk per row. */
const CHUNK = 1024 * 1024;

/**
 * Shares the PostgreSQL store's pool (`close` leaves it open). A put streams into one
 * transaction; nothing is visible until it commits, and a refused or failed put rolls back.
 */
export class PostgresBlobStore implements BlobStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(source: Readable | AsyncIterable<Uint8Array>, opts: { maxBytes?: number } = {}): Promise<PutResult> {
    const key = newBlobKey();
    const c = await this.pool.connect();
    const tally = new PutTally(opts.maxBytes);
    let n = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (!pendingBytes) return;
      await c.query('INSERT INTO blob_chunks (key, n, data) VALUES ($1, $2, $3)', [key, n++, Buffer.concat(pending, pendingBytes)]);
      pending = [];
      pendingBytes = 0;
    };
    try {
      await c.query('BEGIN');
      await c.query("INSERT INTO blobs (key, size, sha256, created_at) VALUES ($1, 0, '', $2)", [key, Date.now()]);
      for await (const chunk of tally.read(source)) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= CHUNK) await flush();
      }
      await flush();
      const result = tally.result(key);
      await c.query('UPDATE blobs SET size = $2, sha256 = $3 WHERE key = $1', [key, result.size, result.sha256]);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  async get(key: string): Promise<Buffer> {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    const meta = await this.pool.query('SELECT size FROM blobs WHERE key = $1', [key]);
    if (!meta.rows.length) throw new BlobNotFoundError(key);
    const { rows } = await this.pool.query<{ data: Buffer }>('SELECT data FROM blob_chunks WHERE key = $1 ORDER BY n', [key]);
    return Buffer.concat(rows.map((r) => r.data));
  }

  async stream(key: string): Promise<Readable> {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    const meta = await this.pool.query<{ chunks: number }>('SELECT (SELECT count(*) FROM blob_chunks c WHERE c.key = b.key)::int AS chunks FROM blobs b WHERE key = $1', [key]);
    if (!meta.rows.length) throw new BlobNotFoundError(key);
    const chunks = meta.rows[0].chunks;
    const pool = this.pool;
    // One chunk per query: a large blob is never held in memory whole.
    return Readable.from(
      (async function* () {
        for (let n = 0; n < chunks; n++) {
          const r = await pool.query<{ data: Buffer }>('SELECT data FROM blob_chunks WHERE key = $1 AND n = $2', [key, n]);
          if (!r.rows.length) throw new BlobNotFoundError(key);
          yield r.rows[0].data;
        }
      })(),
    );
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) return;
    await this.pool.query('DELETE FROM blobs WHERE key = $1', [key]);
  }

  async close(): Promise<void> {}
}

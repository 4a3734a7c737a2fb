/** Opens the configured BlobStore: a local folder (embedded) or the PostgreSQL store's tables. */
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import { LocalBlobStore } from './local.js';
import type { BlobStore } from './types.js';

export { BlobNotFoundError, BlobTooLargeError } from './types.js';
export type { BlobStore, PutResult } from './types.js';

/**
 * `<dataDir>/blobs` when embedded; with `databaseUrl`, the PG store's pool (so blobs live in
 * the same database and need no shared disk between hosts). `store` must be the opened Store.
 */
export async function openBlobStore(config: Config, store: Store): Promise<BlobStore> {
  if (config.databaseUrl) {
    const pool = (store as unknown as { pool?: unknown }).pool;
    if (!pool) throw new Error('cluster mode needs the PostgreSQL store (no pool on this store)');
    const { PostgresBlobStore } = await import('./postgres.js');
    return new PostgresBlobStore(pool as import('pg').Pool);
  }
  return new LocalBlobStore(join(config.dataDir, 'blobs'));
}

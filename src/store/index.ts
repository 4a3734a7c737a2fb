/** Opens the configured Store: SQLite under `dataDir` (embedded) or PostgreSQL (`databaseUrl`). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { SqliteStore } from './sqlite/store.js';
import type { Store } from './types.js';

export { InvalidCursorError } from './cursor.js';
export type * from './types.js';
export type * from './webhooks.js';
export type * from './idempotency.js';
export type * from './changes.js';
export type * from './rate-limits.js';
export type * from './retention.js';
export type * from './review.js';
export { BlobNotFoundError, BlobTooLargeError, BlobUnavailableError } from '../blobs/types.js';
export type { BlobStore, PutResult } from '../blobs/types.js';

/** The Store for `config`, not yet migrated (serve, worker and `migrate` call `migrate()`). */
export async function openStore(config: Config): Promise<Store> {
  // Loaded lazily, like `pg`, so a process that keeps its blobs at home never loads the AWS SDK.
  const blobs = config.blobs ? (await import('../blobs/s3.js')).S3BlobStore.fromConfig(config.blobs) : undefined;
  if (config.databaseUrl) {
    const { PostgresStore } = await import('./postgres/store.js');
    return PostgresStore.open(config.databaseUrl, config.dbSchema, { blobs });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteStore(join(config.dataDir, 'tablemill.db'), { blobDir: join(config.dataDir, 'blobs'), blobs });
}

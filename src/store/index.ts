/** Opens the configured Store: SQLite under `dataDir` (embedded) or PostgreSQL (`databaseUrl`). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { SqliteStore } from './sqlite/store.js';
import type { Store } from './types.js';

export { InvalidCursorError } from './cursor.js';
export type * from './types.js';

/** The Store for `config`, not yet migrated (serve, worker and `migrate` call `migrate()`). */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) {
    // Interim: the PostgreSQL adapter lands in the next commit.
    throw new Error('PostgreSQL store not committed yet');
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteStore(join(config.dataDir, 'tablemill.db'));
}

/** `tablemill migrate`: applies pending migrations to the configured database and exits. */
import { loadConfig } from '../config.js';
import { openStore } from '../store/index.js';
import { EXIT } from './exit.js';

/** The exit code: 0 once the schema is current (already current is success too). */
export async function run(flags: Record<string, string>): Promise<number> {
  const config = loadConfig(process.env, flags);
  const store = await openStore(config);
  try {
    await store.migrate();
    const where = config.databaseUrl ? `PostgreSQL${config.dbSchema ? ` (schema ${config.dbSchema})` : ''}` : `${config.dataDir}/tablemill.db`;
    process.stdout.write(`migrations applied: ${where} is current\n`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

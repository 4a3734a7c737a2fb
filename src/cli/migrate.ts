/** `tablemill migrate`: applies pending migrations to the configured database and exits. */
import { loadConfig } from '../config.js';
import { openStore } from '../store/index.js';
import type { ParsedArgs } from './args.js';

/** The exit code: 0 once the schema is current (already current is success too). */
export async function run(args: ParsedArgs): Promise<number> {
  if (args.positionals.length) {
    process.stderr.write('usage: tablemill migrate [--data-dir DIR | --database-url postgres://…]\n');
    return 2;
  }
  const config = loadConfig(process.env, args.flags);
  const store = await openStore(config);
  try {
    await store.migrate();
    const where = config.databaseUrl ? `PostgreSQL${config.dbSchema ? ` (schema ${config.dbSchema})` : ''}` : `${config.dataDir}/tablemill.db`;
    process.stdout.write(`migrations applied: ${where} is current\n`);
    return 0;
  } finally {
    await store.close();
  }
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DUMP_PATHS, dumpPostgresSchema, dumpSqliteSchema } from '../../scripts/schema-dump.js';

const url = process.env.TABLEMILL_TEST_DATABASE_URL;
const STALE = 'schema.sql is stale: run `node bin/run-ts.js scripts/schema-dump.ts` and commit it with the migration';

describe('committed schema dumps match the migrations', () => {
  it('sqlite', () => {
    expect(dumpSqliteSchema(), STALE).toBe(readFileSync(DUMP_PATHS.sqlite, 'utf8'));
  });
  it.skipIf(!url)('postgres', async () => {
    expect(await dumpPostgresSchema(url!), STALE).toBe(readFileSync(DUMP_PATHS.postgres, 'utf8'));
  });
});

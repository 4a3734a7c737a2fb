// The v1 flow on PostgreSQL, in a fresh schema dropped afterwards; skipped without TABLEMILL_TEST_DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import pg from 'pg';
import { registerFlow } from './flow.js';

const url = process.env.TABLEMILL_TEST_DATABASE_URL;
const schema = `e2e_flow_${randomBytes(5).toString('hex')}`;

if (!url) {
  describe.skip('v1 flow over HTTP (postgresql)', () => it('needs TABLEMILL_TEST_DATABASE_URL', () => {}));
} else {
  registerFlow(
    'postgresql',
    () => ({ DATABASE_URL: url, TABLEMILL_DB_SCHEMA: schema }),
    async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  );
}

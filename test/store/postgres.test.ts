import { afterAll, describe, it } from 'vitest';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres/store.js';
import { storeContract } from './contract.js';

const url = process.env.TABLEMILL_TEST_DATABASE_URL;

if (!url) {
  describe.skip('Store contract: postgres (TABLEMILL_TEST_DATABASE_URL unset)', () => it('skipped', () => {}));
} else {
  // Each test gets its own fresh schema, dropped when the file is done.
  const prefix = `t_store_${process.pid}_${Date.now().toString(36)}`;
  const schemas: string[] = [];
  afterAll(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await c.end();
  });
  storeContract('postgres', {
    async fresh() {
      schemas.push(`${prefix}_${schemas.length}`);
      const s = await PostgresStore.open(url, schemas[schemas.length - 1], { max: 4 });
      await s.migrate();
      return s;
    },
    async another() {
      return PostgresStore.open(url, schemas[schemas.length - 1], { max: 4 });
    },
  });
}

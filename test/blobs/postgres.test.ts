import { afterAll, beforeAll, describe, it } from 'vitest';
import pg from 'pg';
import { PostgresBlobStore } from '../../src/blobs/postgres.js';
import { PostgresStore } from '../../src/store/postgres/store.js';
import { blobContract } from './contract.js';

const url = process.env.TABLEMILL_TEST_DATABASE_URL;

if (!url) {
  describe.skip('BlobStore contract: postgres (TABLEMILL_TEST_DATABASE_URL unset)', () => it('skipped', () => {}));
} else {
  const schema = `t_blobs_${process.pid}_${Date.now().toString(36)}`;
  let store: PostgresStore;
  beforeAll(async () => {
    store = await PostgresStore.open(url, schema, { max: 4 });
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });
  blobContract('postgres', {
    async open() {
      return new PostgresBlobStore(store.pool);
    },
    async leftovers() {
      // Blob rows, plus any chunk rows without one (the foreign key should make those impossible).
      const r = await store.pool.query('SELECT (SELECT count(*) FROM blobs) + (SELECT count(*) FROM blob_chunks c WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.key = c.key)) AS n');
      return Number(r.rows[0].n);
    },
  });
}

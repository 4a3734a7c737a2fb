import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/names.js';
import pg from 'pg';
import { listenerName } from '../../src/store/postgres/pool.js';
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
  let last: PostgresStore | null = null;
  storeContract('postgres', {
    async fresh() {
      schemas.push(`${prefix}_${schemas.length}`);
      const s = await PostgresStore.open(url, schemas[schemas.length - 1], { max: 4 });
      await s.migrate();
      return (last = s);
    },
    async another() {
      return PostgresStore.open(url, schemas[schemas.length - 1], { max: 4 });
    },
    async blobLeftovers() {
      // Blob rows, plus any chunk rows without one (the foreign key should make those impossible).
      const r = await (last as PostgresStore).pool.query(
        'SELECT (SELECT count(*) FROM blobs) + (SELECT count(*) FROM blob_chunks c WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.key = c.key)) AS n',
      );
      return Number(r.rows[0].n);
    },
  });

  it('a LISTEN connection killed by the server is re-opened by the next wait', async () => {
    schemas.push(`${prefix}_listen`);
    const s = await PostgresStore.open(url, schemas[schemas.length - 1], { max: 2 });
    const other = await PostgresStore.open(url, schemas[schemas.length - 1], { max: 2 });
    try {
      await s.migrate();
      await other.waitForWork(100); // opens other's LISTEN connection
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      // Only this schema's listener: other test files share the server.
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [listenerName(schemas[schemas.length - 1])]);
      await admin.end();
      expect(killed.rowCount).toBeGreaterThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 100));
      await other.waitForWork(100); // notices nothing, reconnects
      const acc = await s.getOrCreateAccount('l', 1);
      await s.insertDocuments(acc.id, 'b', [{ id: newId('doc'), filename: 'a', content_type: 'application/pdf', size_bytes: 1, sha256: '0'.repeat(64), blob_key: 'k' }], 1);
      const t0 = Date.now();
      const woken = other.waitForWork(5000);
      await new Promise((r) => setTimeout(r, 100));
      await s.submitBatch(acc.id, 'b', 2);
      await woken;
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      await s.close();
      await other.close();
    }
  });
}

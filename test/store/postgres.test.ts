import { afterAll, describe, expect, it } from 'vitest';
import { fakeDocument } from '../../bench/seed.js';
import { newId } from '../../src/domain/names.js';
import pg from 'pg';
import { listenerName } from '../../src/store/postgres/pool.js';
import { PostgresStore } from '../../src/store/postgres/store.js';
import { storeContract } from './contract.js';

const url = process.env.TABLEMILL_TEST_DATABASE_URL;
const RESULT = '{"tables":[],"line_items":[]}';

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

  async function fresh(): Promise<PostgresStore> {
    schemas.push(`${prefix}_q${schemas.length}`);
    const s = await PostgresStore.open(url!, schemas[schemas.length - 1], { max: 4 });
    await s.migrate();
    return s;
  }
  async function seed(s: PostgresStore, account: string, batch: string, n: number, now = 1): Promise<string> {
    const acc = await s.getOrCreateAccount(account, now);
    await s.insertDocuments(acc.id, batch, Array.from({ length: n }, (_, i) => fakeDocument(i)), now);
    await s.submitBatch(acc.id, batch, now);
    return acc.id;
  }

  describe('postgres queue', () => {
    it('concurrent completions share statements: each fenced by its attempt, counters and one event per batch right', async () => {
      const s = await fresh();
      try {
        const accA = await seed(s, 'a', 'one', 30);
        const accB = await seed(s, 'b', 'two', 10);
        const got = await s.claimDocuments(40, 60_000, 2);
        expect(got).toHaveLength(40);
        expect((await s.getBatch(accA, 'one'))!.counts).toMatchObject({ queued: 0, processing: 30 });
        const stale = got[0];
        const written = await Promise.all(
          got.map((d, i) =>
            i % 7 === 3
              ? s.completeDocument(d.id, d.attempt, { status: 'failed', page_count: null, error: { code: 'extraction_failed', message: 'bad' } }, 3)
              : s.completeDocument(d.id, d.attempt + (d === stale ? 1 : 0), { status: 'succeeded', page_count: 1, result_json: RESULT }, 3),
          ),
        );
        expect(written.filter((w) => !w)).toHaveLength(1);
        expect(written[0]).toBe(false);
        // The stale completion wrote nothing: its document still counts as processing.
        const one = (await s.getBatch(accA, 'one'))!;
        const two = (await s.getBatch(accB, 'two'))!;
        const failedIdx = got.map((d, i) => (i % 7 === 3 ? d.batch_id : null)).filter(Boolean);
        const failedOne = failedIdx.filter((b) => b === one.id).length;
        const failedTwo = failedIdx.filter((b) => b === two.id).length;
        const staleInOne = stale.batch_id === one.id ? 1 : 0;
        expect(one.counts).toMatchObject({ queued: 0, processing: staleInOne, failed: failedOne, succeeded: 30 - failedOne - staleInOne });
        expect(two.counts).toMatchObject({ queued: 0, processing: 1 - staleInOne, failed: failedTwo, succeeded: 10 - failedTwo - (1 - staleInOne) });
        const done = stale.batch_id === one.id ? two : one;
        expect(await s.listBatchEvents(done.id)).toHaveLength(1);
        expect(await s.listBatchEvents(stale.batch_id)).toHaveLength(0);
        expect(await s.completeDocument(stale.id, stale.attempt, { status: 'succeeded', page_count: 1, result_json: RESULT }, 4)).toBe(true);
        expect(await s.listBatchEvents(stale.batch_id)).toHaveLength(1);
        expect(await s.getDocumentResult(stale.account_id, stale.id)).not.toBeNull();
        // The counters the group statements kept equal a recount of the documents.
        for (const b of [one, two]) expect((await s.getBatchById(b.account_id, b.id))!.counts).toEqual((await s.recountBatch(b.id))!.counts);
      } finally {
        await s.close();
      }
    });
  });
}

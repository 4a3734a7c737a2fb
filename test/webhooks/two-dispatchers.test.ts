import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, completeAll, open, pgSchema, removeDir, until, upload, type Harness } from './harness.js';
import { startReceiver, verifyStandardWebhook, type Receiver } from './receiver.js';

const BASE = { TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1', TABLEMILL_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', TABLEMILL_RATE_LIMITS: '0' };

function suite(name: string, extra: () => Record<string, string> | null, cleanup: () => Promise<void> = async () => {}) {
  describe.skipIf(extra() === null)(name, () => {
    let a: Harness;
    let b: Harness;
    let rx: Receiver;
    beforeAll(async () => {
      rx = await startReceiver();
      a = await open({ ...BASE, ...extra()! });
      // A second app (its own store connection and dispatcher) on the same database.
      b = await open(a.env, a.key);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await rx?.close();
      if (a) removeDir(a.dir);
      await cleanup();
    });

    it('two dispatchers on one database send each event exactly once, retries included', async () => {
      const names = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'];
      rx.plan('/b5', [500, 200]);
      const secrets: Record<string, string> = {};
      for (const [i, n] of names.entries()) {
        const h = i % 2 ? b : a;
        expect((await upload(h, n, 1)).status).toBe(201);
        const res = await api(h, 'PUT', `/v1/batches/${n}/webhook`, { url: `${rx.base}/${n}` });
        secrets[n] = (await res.json()).secret;
        await api(h, 'POST', `/v1/batches/${n}/process`);
      }
      await completeAll(a.store);
      await until(() => names.every((n) => rx.on(`/${n}`).length === (n === 'b5' ? 2 : 1)), 15_000);
      await new Promise((r) => setTimeout(r, 1500)); // a few more rounds of both loops
      for (const n of names) {
        const got = rx.on(`/${n}`);
        expect(got, n).toHaveLength(n === 'b5' ? 2 : 1);
        for (const r of got) expect(verifyStandardWebhook(secrets[n], r).data.batch.batch_name).toBe(n);
      }
      const log = (await (await api(b, 'GET', '/v1/batches/b5/webhook/deliveries')).json()).deliveries;
      expect(log.map((d: any) => [d.attempt, d.status])).toEqual([
        [2, 'delivered'],
        [1, 'failed'],
      ]);
    });
  });
}

suite('two dispatchers, SQLite file', () => ({}));
const pgs = pgSchema('tm_wh');
suite('two dispatchers, PostgreSQL (SKIP LOCKED claim)', () => (pgs ? { DATABASE_URL: pgs.url, TABLEMILL_DB_SCHEMA: pgs.schema } : null), async () => pgs?.drop());

// Receivers that accept a request and never answer (at the default 10 s timeout) delay no one
// else's event by more than 1 s: 20 of them, one with a backlog of 8 events, for another batch
// of the same account; 100 batches on paths of one host, and then an account's 60 hosts more,
// for another account's. Sends are capped per receiving host (2) and per account (32). SQLite
// and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { api, completeAll, open, pgSchema, removeDir, until, upload, type Harness } from './harness.js';
import { blackHole, startReceiver, type BlackHole, type Receiver } from './receiver.js';

const BASE = { TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1', TABLEMILL_RATE_LIMITS: '0' };

/** Uploads, hooks and processes one batch per URL, eight at a time. */
async function hookBatches(h: Harness, prefix: string, urls: string[]): Promise<void> {
  for (let i = 0; i < urls.length; i += 8) {
    await Promise.all(
      urls.slice(i, i + 8).map(async (url, j) => {
        const name = `${prefix}${i + j}`;
        expect((await upload(h, name, 1)).status).toBe(201);
        expect((await api(h, 'PUT', `/v1/batches/${name}/webhook`, { url })).status).toBe(200);
        expect((await api(h, 'POST', `/v1/batches/${name}/process`)).status).toBe(202);
      }),
    );
  }
}

/** Another account's batch, hooked to `url`, processed and completed; the delay of its delivery in ms. */
async function otherAccountDelay(h: Harness, rx: Receiver, name: string): Promise<number> {
  const { key } = await createKey(h.store, `other-${name}`, Date.now());
  const auth = { authorization: `Bearer ${key}` };
  expect((await upload(h, name, 1, auth)).status).toBe(201);
  expect((await api(h, 'PUT', `/v1/batches/${name}/webhook`, { url: `${rx.base}/${name}` }, auth)).status).toBe(200);
  expect((await api(h, 'POST', `/v1/batches/${name}/process`, undefined, auth)).status).toBe(202);
  const done = Date.now();
  await completeAll(h.store);
  await until(() => rx.on(`/${name}`).length === 1, 10_000, 10);
  return rx.on(`/${name}`)[0].at - done;
}

function suite(name: string, extra: () => Record<string, string> | null, cleanup: () => Promise<void> = async () => {}) {
  describe.skipIf(extra() === null)(name, () => {
    let h: Harness;
    let rx: Receiver;
    let holes: BlackHole[] = [];
    beforeAll(async () => {
      rx = await startReceiver();
      holes = await Promise.all(Array.from({ length: 20 }, () => blackHole()));
      h = await open({ ...BASE, ...extra()! });
    });
    afterAll(async () => {
      // The dispatcher waits for its sends in flight when it stops: free them first.
      await Promise.all(holes.map((x) => x.close()));
      await h?.close();
      await rx?.close();
      if (h) removeDir(h.dir);
      await cleanup();
    });

    it('20 receivers that never answer delay another batch\'s event by under 1 s; a backlog gets 2 sends at once', async () => {
      expect(h.config.webhooks.timeoutMs).toBe(10_000);
      const slow = [...holes.map((x, i) => ({ name: `dead${i}`, url: x.url })), ...Array.from({ length: 7 }, (_, i) => ({ name: `backlog${i}`, url: holes[0].url }))];
      for (const b of slow) {
        expect((await upload(h, b.name, 1)).status).toBe(201);
        expect((await api(h, 'PUT', `/v1/batches/${b.name}/webhook`, { url: b.url })).status).toBe(200);
        await api(h, 'POST', `/v1/batches/${b.name}/process`);
      }
      expect((await upload(h, 'live', 1)).status).toBe(201);
      expect((await api(h, 'PUT', `/v1/batches/live/webhook`, { url: `${rx.base}/live` })).status).toBe(200);
      await completeAll(h.store);
      // Every dead receiver has a send hanging on it.
      await until(() => holes.every((x) => x.open > 0), 5000);
      await api(h, 'POST', '/v1/batches/live/process');
      const done = Date.now();
      await completeAll(h.store);
      await until(() => rx.on('/live').length === 1, 5000, 10);
      const delay = rx.on('/live')[0].at - done;
      console.log(`${name}: live event ${delay} ms after its batch finished; backlog receiver peak ${holes[0].peak} sends at once`);
      expect(delay).toBeLessThan(1000);
      expect(holes.every((x) => x.open > 0)).toBe(true);
      expect(holes[0].peak).toBe(2);
    });

    it('100 batches of one account on one hanging host: 2 sends at once there, another account\'s delivery within 1 s', async () => {
      const hole = await blackHole();
      holes.push(hole);
      await hookBatches(h, 'hang', Array.from({ length: 100 }, (_, i) => `${hole.base}/s${i}`));
      await completeAll(h.store);
      await until(() => hole.open >= 2, 5000);
      const delay = await otherAccountDelay(h, rx, 'other1');
      console.log(`${name}: other account's event ${delay} ms after its batch finished; hanging host peak ${hole.peak}`);
      expect(delay).toBeLessThan(1000);
      expect(hole.peak).toBe(2);
    });

    it('an account\'s sends are capped across hosts too: its hanging hosts hold at most 32 sends', async () => {
      const more = await Promise.all(Array.from({ length: 60 }, () => blackHole()));
      holes.push(...more);
      await hookBatches(h, 'wide', more.map((x) => x.url));
      await completeAll(h.store);
      // The account's cap is full (the tests above left sends hanging too).
      const hanging = () => holes.reduce((n, x) => n + x.open, 0);
      await until(() => hanging() >= 32, 5000);
      const delay = await otherAccountDelay(h, rx, 'other2');
      const open = hanging();
      console.log(`${name}: other account's event ${delay} ms after its batch finished; ${open} sends hanging`);
      expect(delay).toBeLessThan(1000);
      expect(open).toBeLessThanOrEqual(32);
    });
  });
}

suite('slow receivers, SQLite file', () => ({}));
const pgs = pgSchema('tm_whslow');
suite('slow receivers, PostgreSQL', () => (pgs ? { DATABASE_URL: pgs.url, TABLEMILL_DB_SCHEMA: pgs.schema } : null), async () => pgs?.drop());

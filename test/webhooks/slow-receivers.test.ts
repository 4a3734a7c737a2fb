// Issue 25 §9: 20 receivers that accept a connection and never answer (at the default 10 s
// timeout), one of them with a backlog of 8 events, do not delay another batch's event by more
// than 1 s; the one with a backlog gets at most 2 sends at once. SQLite and PostgreSQL.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, completeAll, open, pgSchema, removeDir, until, upload, type Harness } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const BASE = { TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1', TABLEMILL_RATE_LIMITS: '0' };

interface BlackHole {
  url: string;
  /** Connections open now, and the most at once. */
  open: number;
  peak: number;
  total: number;
  close(): Promise<void>;
}

/** A receiver that accepts connections and never answers. */
async function blackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  const hole = { url: '', open: 0, peak: 0, total: 0, close: async () => {} };
  const server: Server = createServer((s) => {
    sockets.add(s);
    hole.open++;
    hole.total++;
    hole.peak = Math.max(hole.peak, hole.open);
    s.on('error', () => {});
    s.on('close', () => {
      sockets.delete(s);
      hole.open--;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hole.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  hole.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return hole;
}

function suite(name: string, extra: () => Record<string, string> | null, cleanup: () => Promise<void> = async () => {}) {
  describe.skipIf(extra() === null)(name, () => {
    let h: Harness;
    let rx: Receiver;
    let holes: BlackHole[] = [];
    beforeAll(async () => {
      rx = await startReceiver();
      holes = await Promise.all(Array.from({ length: 20 }, blackHole));
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
  });
}

suite('slow receivers, SQLite file', () => ({}));
const pgs = pgSchema('tm_whslow');
suite('slow receivers, PostgreSQL', () => (pgs ? { DATABASE_URL: pgs.url, TABLEMILL_DB_SCHEMA: pgs.schema } : null), async () => pgs?.drop());

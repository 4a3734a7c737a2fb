import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, completeAll, open, pgSchema, removeDir, until, upload, type Harness } from './harness.js';
import { startReceiver, verifyStandardWebhook, type Receiver } from './receiver.js';

// A short retry schedule (1 s between attempts) so retries, restarts and 410 fit in seconds.
const ENV = { TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1', TABLEMILL_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', TABLEMILL_RATE_LIMITS: '0' };

function suite(name: string, extra: () => Record<string, string> | null, cleanup: () => Promise<void> = async () => {}) {
  describe.skipIf(extra() === null)(name, () => suiteBody(extra, cleanup));
}

function suiteBody(extra: () => Record<string, string> | null, cleanup: () => Promise<void>) {
  let h: Harness;
  let rx: Receiver;

  beforeAll(async () => {
    rx = await startReceiver();
    h = await open({ ...ENV, ...extra()! });
  });
  afterAll(async () => {
    await h?.close();
    await rx?.close();
    if (h) removeDir(h.dir);
    await cleanup();
  });

  async function register(batch: string, path: string): Promise<string> {
    const res = await api(h, 'PUT', `/v1/batches/${batch}/webhook`, { url: rx.base + path });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    return body.secret;
  }

  async function runBatch(batch: string, docs = 1): Promise<void> {
    expect((await upload(h, batch, docs)).status).toBe(201);
    expect((await api(h, 'POST', `/v1/batches/${batch}/process`)).status).toBe(202);
    await completeAll(h.store);
  }

  async function deliveries(batch: string): Promise<any[]> {
    const res = await api(h, 'GET', `/v1/batches/${batch}/webhook/deliveries`);
    expect(res.status).toBe(200);
    return (await res.json()).deliveries;
  }

  describe('webhook delivery over real HTTP', () => {
    it('signs per Standard Webhooks, sends exactly one event per run, and a new one after re-process', async () => {
      await upload(h, 'one', 1);
      const secret = await register('one', '/one');
      const shown = await (await api(h, 'GET', '/v1/batches/one/webhook')).json();
      expect(shown.secret).not.toBe(secret);
      expect(shown.secret).toMatch(/^whsec_…/);
      expect(shown.url).toBe(rx.base + '/one');

      expect((await api(h, 'POST', '/v1/batches/one/process')).status).toBe(202);
      await completeAll(h.store);
      await until(() => rx.on('/one').length === 1);
      const first = rx.on('/one')[0];
      const body = verifyStandardWebhook(secret, first);
      expect(first.headers['content-type']).toBe('application/json');
      expect(body.id).toMatch(/^evt_/);
      expect(first.headers['webhook-id']).toBe(body.id);
      expect(body.type).toBe('batch.completed');
      expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.data.batch).toMatchObject({ batch_name: 'one', status: 'succeeded', all_done: true, document_count: 1, webhook_url: rx.base + '/one' });
      // A wrong secret must not verify (the verifier is not vacuous).
      expect(() => verifyStandardWebhook('whsec_' + Buffer.alloc(32, 7).toString('base64'), first)).toThrow(/signature/);

      // Three more poll rounds: still one event for this run.
      await new Promise((r) => setTimeout(r, 1600));
      expect(rx.on('/one')).toHaveLength(1);

      // Add a document to the finished batch and process again: a second event, no re-registration.
      await runBatch('one', 1);
      await until(() => rx.on('/one').length === 2);
      const second = verifyStandardWebhook(secret, rx.on('/one')[1]);
      expect(second.id).not.toBe(body.id);
      expect(second.data.batch.document_count).toBe(2);
      // The receiver has the request before the dispatcher has written its outcome down.
      await until(async () => (await deliveries('one')).every((d) => d.status === 'delivered'));
      const log = await deliveries('one');
      expect(log.map((d) => [d.status, d.attempt, d.response_status])).toEqual([
        ['delivered', 1, 200],
        ['delivered', 1, 200],
      ]);
      expect(log[0].event_id).toBe(second.id);
    });

    it('retries until 2xx with the same webhook-id and a fresh timestamp, logging each attempt', async () => {
      rx.plan('/retry', [500, 503, 200]);
      await upload(h, 'retry', 1);
      const secret = await register('retry', '/retry');
      expect((await api(h, 'POST', '/v1/batches/retry/process')).status).toBe(202);
      await completeAll(h.store);
      await until(() => rx.on('/retry').length === 3, 15_000);
      const got = rx.on('/retry');
      const ids = new Set(got.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const r of got) verifyStandardWebhook(secret, r);
      // Attempts ~1 s apart (±10 % jitter, plus the 500 ms poll).
      expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(850);
      expect(Number(got[2].headers['webhook-timestamp'])).toBeGreaterThan(Number(got[0].headers['webhook-timestamp']));
      await until(async () => (await deliveries('retry'))[0].status === 'delivered');
      const log = await deliveries('retry');
      expect(log.map((d) => [d.attempt, d.status, d.response_status])).toEqual([
        [3, 'delivered', 200],
        [2, 'failed', 503],
        [1, 'failed', 500],
      ]);
      expect(log[1].next_attempt_at).not.toBeNull();
      expect(log[0].next_attempt_at).toBeNull();
      await new Promise((r) => setTimeout(r, 1200));
      expect(rx.on('/retry')).toHaveLength(3);
      // Every attempt is in the attempt histogram by outcome (earlier tests delivered too).
      const metrics = await h.deps.metrics.render();
      const count = (outcome: string) => Number(new RegExp(`^tablemill_webhook_attempt_duration_seconds_count\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
      expect(count('retry')).toBeGreaterThanOrEqual(2);
      expect(count('delivered')).toBeGreaterThanOrEqual(1);
    });

    it('gives up after the schedule is spent', async () => {
      rx.plan('/down', [500]);
      await upload(h, 'down', 1);
      await register('down', '/down');
      await api(h, 'POST', '/v1/batches/down/process');
      await completeAll(h.store);
      await until(() => rx.on('/down').length === 4, 15_000);
      await until(async () => (await deliveries('down')).every((d) => d.status === 'failed'));
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.on('/down')).toHaveLength(4); // 1 + three retries of '1s,1s,1s'
      const log = await deliveries('down');
      expect(log[0]).toMatchObject({ attempt: 4, status: 'failed', response_status: 500, next_attempt_at: null });
    });

    it('410 Gone disables the webhook: no retry, no later event', async () => {
      rx.plan('/gone', [410]);
      await upload(h, 'gone', 1);
      await register('gone', '/gone');
      await api(h, 'POST', '/v1/batches/gone/process');
      await completeAll(h.store);
      await until(() => rx.on('/gone').length === 1);
      await until(async () => (await deliveries('gone'))[0]?.status === 'failed');
      const hook = await (await api(h, 'GET', '/v1/batches/gone/webhook')).json();
      expect(hook.disabled_at).not.toBeNull();
      expect((await (await api(h, 'GET', '/v1/batches/gone')).json()).webhook_url).toBeNull();
      await runBatch('gone', 1);
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.on('/gone')).toHaveLength(1);
      const log = await deliveries('gone');
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ status: 'failed', response_status: 410, next_attempt_at: null });
      // Redelivery of a disabled webhook is refused until it is registered again.
      expect((await api(h, 'POST', `/v1/batches/gone/webhook/deliveries/${log[0].id}/redeliver`)).status).toBe(409);
    });

    it('redeliver sends the same event id again now', async () => {
      const log = await deliveries('one');
      const before = rx.on('/one').length;
      const res = await api(h, 'POST', `/v1/batches/one/webhook/deliveries/${log[1].id}/redeliver`);
      expect(res.status).toBe(202);
      const d = await res.json();
      expect(d).toMatchObject({ event_id: log[1].event_id, status: 'pending', attempt: 2 });
      await until(() => rx.on('/one').length === before + 1);
      expect(rx.on('/one').at(-1)!.headers['webhook-id']).toBe(log[1].event_id);
      expect((await api(h, 'POST', '/v1/batches/one/webhook/deliveries/dlv_nope/redeliver')).status).toBe(404);
    });

    it('a server restart during the retries still delivers, with the same webhook-id', async () => {
      rx.plan('/restart', [500, 200]);
      await upload(h, 'restart', 1);
      const secret = await register('restart', '/restart');
      await api(h, 'POST', '/v1/batches/restart/process');
      await completeAll(h.store);
      await until(() => rx.on('/restart').length === 1);
      await until(async () => (await deliveries('restart')).length === 2); // the failed one and the pending retry
      await h.close();
      const seenWhileDown = rx.on('/restart').length;
      h = await open(h.env, h.key);
      await until(() => rx.on('/restart').length === 2, 10_000);
      expect(seenWhileDown).toBe(1);
      const [a, b] = rx.on('/restart');
      expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
      verifyStandardWebhook(secret, b);
      await until(async () => (await deliveries('restart'))[0].status === 'delivered');
    });

    it('DELETE removes the webhook; registration refuses bad URLs and secrets', async () => {
      expect((await api(h, 'DELETE', '/v1/batches/one/webhook')).status).toBe(204);
      expect((await api(h, 'GET', '/v1/batches/one/webhook')).status).toBe(404);
      expect((await api(h, 'DELETE', '/v1/batches/one/webhook')).status).toBe(404);
      expect((await (await api(h, 'GET', '/v1/batches/one')).json()).webhook_url).toBeNull();
      expect((await api(h, 'PUT', '/v1/batches/one/webhook', { url: 'ftp://x.example/' })).status).toBe(400);
      expect((await api(h, 'PUT', '/v1/batches/one/webhook', { url: 'https://x.example/', secret: 'hunter2' })).status).toBe(400);
      expect((await api(h, 'PUT', '/v1/batches/nosuch/webhook', { url: 'https://x.example/' })).status).toBe(404);
      const own = 'whsec_' + Buffer.alloc(24, 1).toString('base64');
      const res = await api(h, 'PUT', '/v1/batches/one/webhook', { url: 'https://x.example/', secret: own });
      expect(res.status).toBe(200);
      expect((await res.json()).secret).toBe(own);
    });
  });
}

suite('SQLite', () => ({}));
const pgs = pgSchema('tm_dl');
suite('PostgreSQL', () => (pgs ? { DATABASE_URL: pgs.url, TABLEMILL_DB_SCHEMA: pgs.schema } : null), async () => pgs?.drop());

describe('registration without allowPrivate', () => {
  it('refuses literal forbidden addresses with 400 and accepts names', async () => {
    const strict = await open({ TABLEMILL_RATE_LIMITS: '0' });
    try {
      await upload(strict, 'b', 1);
      for (const url of ['http://127.0.0.1:9/x', 'http://[::1]/x', 'http://[::ffff:10.0.0.1]/', 'http://169.254.169.254/latest/meta-data', 'http://localhost/x', 'http://0x7f.1/']) {
        const res = await api(strict, 'PUT', '/v1/batches/b/webhook', { url });
        expect(res.status, url).toBe(400);
        expect((await res.json()).error.code).toBe('invalid_request');
      }
      expect((await api(strict, 'PUT', '/v1/batches/b/webhook', { url: 'https://hooks.example.com/x' })).status).toBe(200);
    } finally {
      await strict.close();
      removeDir(strict.dir);
    }
  });
});

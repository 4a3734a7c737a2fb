// The SDK against a real server: uploads from a stream and a Blob, webhooks end to end (a real
// receiver verifies each delivery with verifyWebhook; redeliver sends the same event again),
// and typed errors carrying the request id.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TablemillApiError, TablemillClient, verifyWebhook, WebhookVerificationError } from '@tablemill/client';
import { icdarPdf } from '../../../test/e2e/fixtures.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from '../../../test/e2e/server.js';

let api: ServeProcess;
let key: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1' };
  key = createKeyCli(env, 'sdk');
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  api = await serve(env);
}, 120_000);
afterAll(async () => {
  await api?.stop();
  receiver.close();
});

async function until<T>(fn: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('TablemillClient', () => {
  it('uploads from a stream and a Blob; webhooks set, delivered, verified and redelivered', async () => {
    const client = new TablemillClient(api.url, key);
    const up = await client.upload('hooked', [
      { filename: 'streamed.pdf', stream: Readable.from([icdarPdf('eu-002')]) },
      { filename: 'blob.pdf', data: new Blob([icdarPdf('eu-003')]) },
    ]);
    expect(up.documents.map((d) => [d.filename, d.size_bytes])).toEqual([
      ['streamed.pdf', icdarPdf('eu-002').length],
      ['blob.pdf', icdarPdf('eu-003').length],
    ]);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = await client.setWebhook('hooked', { url });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await client.getWebhook('hooked')).url).toBe(url);

    await client.process('hooked');
    const done = await client.waitUntilDone('hooked', { timeoutMs: 120_000 });
    expect(done.counts.succeeded).toBe(2);
    const first = await until(() => received[0]);
    const event = verifyWebhook(first.headers as Record<string, string>, first.body, hook.secret);
    expect(event).toMatchObject({ type: 'batch.completed', data: { batch: { batch_name: 'hooked', all_done: true } } });
    expect(() => verifyWebhook(first.headers as Record<string, string>, first.body.replace('hooked', 'hooker'), hook.secret)).toThrow(WebhookVerificationError);

    // The dispatcher records the answer just after the receiver has it.
    let deliveries = await client.webhookDeliveries('hooked');
    for (let i = 0; i < 100 && deliveries[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      deliveries = await client.webhookDeliveries('hooked');
    }
    expect(deliveries[0]).toMatchObject({ event_id: event.id, status: 'delivered', response_status: 204 });
    await client.redeliver('hooked', deliveries[0].id);
    const second = await until(() => received[1]);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verifyWebhook(second.headers as Record<string, string>, second.body, hook.secret).id).toBe(event.id);
    await client.deleteWebhook('hooked');
    await expect(client.getWebhook('hooked')).rejects.toMatchObject({ status: 404 });
  }, 180_000);

  it('throws TablemillApiError with status, code and request id', async () => {
    const client = new TablemillClient(api.url, key);
    const err = await client.getBatch('missing-batch').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TablemillApiError);
    expect(err).toMatchObject({ status: 404, code: 'batch_not_found', requestId: expect.stringMatching(/^req_/) });
    const unauthorized = await new TablemillClient(api.url, 'tm_wrong').listBatches().catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

// waitUntilDone against a real server with its rate limits on: a batch held ~90 s by a slow
// document (a long scanned PDF stopped by a 90 s time limit) finishes without a single 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TablemillApiError, TablemillClient } from '@tablemill/client';
import { icdarPdf, scannedPdf } from '../../../test/e2e/fixtures.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from '../../../test/e2e/server.js';

const LIMIT_MS = 90_000;
let api: ServeProcess;
let key: string;

beforeAll(async () => {
  const env = {
    TABLEMILL_DATA_DIR: tempDataDir(),
    TABLEMILL_RATE_LIMITS: '1',
    TABLEMILL_DOCUMENT_TIMEOUT_MS: String(LIMIT_MS),
    TABLEMILL_WORKER_CONCURRENCY: '1',
  };
  key = createKeyCli(env, 'waiter');
  api = await serve(env);
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

describe('waitUntilDone', () => {
  it('waits out a ~90 s batch with long-polls, never exceeding the status rate limit', async () => {
    const client = new TablemillClient(api.url, key);
    // 60 scanned pages take minutes to OCR: the time limit ends the document at 90 s.
    await client.upload('slow', [
      { filename: 'quick.pdf', data: icdarPdf('eu-002') },
      { filename: 'slow-scan.pdf', data: await scannedPdf(60) },
    ]);
    const statusCalls: number[] = [];
    const realFetch = globalThis.fetch;
    // Counts the status requests this client sends (they still go to the real server).
    globalThis.fetch = async (input, init) => {
      const res = await realFetch(input, init);
      if (/\/v1\/batches\/slow(\?|$)/.test(String(input))) statusCalls.push(res.status);
      return res;
    };
    const started = Date.now();
    let done;
    try {
      await client.process('slow');
      done = await client.waitUntilDone('slow', { timeoutMs: 180_000 });
    } finally {
      globalThis.fetch = realFetch;
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`waitUntilDone: ${seconds.toFixed(1)} s, ${statusCalls.length} status requests (${statusCalls.filter((s) => s === 304).length} answered 304), statuses ${[...new Set(statusCalls)].join(', ')}`);
    expect(done.all_done).toBe(true);
    expect(done.counts).toMatchObject({ succeeded: 1, failed: 1 });
    const slow = (await client.results('slow')).find((d) => d.filename === 'slow-scan.pdf')!;
    expect(slow.processing_error?.code).toBe('timeout');
    expect(seconds).toBeGreaterThanOrEqual(LIMIT_MS / 1000 - 5);
    expect(statusCalls).not.toContain(429);
    // At most one request a second, and far fewer while nothing changes (30 s long-polls).
    expect(statusCalls.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);

    // The limit was really on: a burst past 120 a minute is refused, with Retry-After.
    const burst = await Promise.allSettled(Array.from({ length: 130 }, () => client.getBatch('slow')));
    const refused = burst.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as TablemillApiError);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].status).toBe(429);
    expect(refused[0].retryAfterS).toBeGreaterThan(0);
  }, 240_000);
});

/**
 * The Store contract for the parts beside documents and batches: webhooks and deliveries,
 * idempotency keys, rate-limit counters, blobs and the change stream. Run by `storeContract`
 * against every adapter, on real databases.
 */
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/names.js';
import type { ChangeKind, Store } from '../../src/store/index.js';
import { blobContract } from './contract-blobs.js';

export interface PartsHarness {
  fresh(): Promise<Store>;
  another(): Promise<Store>;
  /** Blobs (and partial blobs or temp files) held by the `blobs` of the last `fresh()` Store. */
  blobLeftovers(): Promise<number>;
}

const LEASE = 30_000;
const doc = () => ({ id: newId('doc'), filename: 'f.pdf', content_type: 'application/pdf', size_bytes: 1, sha256: 'ab'.repeat(32), blob_key: newId('req') });
const ok = { status: 'succeeded' as const, page_count: 1, result_json: '{"tables":[],"line_items":[]}' };
const retry = (at: number) => ({ status: 'failed' as const, response_status: 500, error: 'receiver answered 500', retry_at: at, disable: false });

/** A batch of one document, processed to all_done at time `t` (its batch event written). */
async function finishedBatch(s: Store, name = 'b') {
  const acc = await s.getOrCreateAccount(`acc-${newId('req')}`, 1);
  const { batch } = await s.insertDocuments(acc.id, name, [doc()], 10);
  return {
    acc,
    batch,
    async finish(t: number) {
      await s.submitBatch(acc.id, name, t);
      const [c] = await s.claimDocuments(1, LEASE, t);
      await s.completeDocument(c.id, c.attempt, ok, t);
    },
  };
}

/** Resolves with the kinds seen on `s.changes` while `fn` runs, once `until` has been seen. */
async function changesDuring(s: Store, until: ChangeKind[], fn: () => Promise<void>): Promise<Set<ChangeKind>> {
  const seen = new Set<ChangeKind>();
  let wake = () => {};
  const offs = (['documents', 'webhooks'] as const).map((k) =>
    s.changes.subscribe(k, () => {
      seen.add(k);
      wake();
    }),
  );
  try {
    // A first subscription may open a connection (PostgreSQL LISTEN): let it settle.
    await new Promise((r) => setTimeout(r, 200));
    await fn();
    const deadline = Date.now() + 3000;
    while (!until.every((k) => seen.has(k)) && Date.now() < deadline) await new Promise<void>((r) => ((wake = r), setTimeout(r, 50)));
    return seen;
  } finally {
    for (const off of offs) off();
  }
}

export function partsContract(name: string, harness: PartsHarness): void {
  describe(`Store contract (webhooks): ${name}`, () => {
    it('a webhook is registered, replaced, shown on the batch, and removed with its pending deliveries failed', async () => {
      const s = await harness.fresh();
      try {
        const { acc, batch, finish } = await finishedBatch(s);
        expect(await s.webhooks.getWebhook(batch.id)).toBeNull();
        expect(await s.webhooks.deleteWebhook(batch.id, 5)).toBe(false);
        const w = await s.webhooks.putWebhook(acc.id, batch.id, 'https://a.example/hook', 'whsec_a', 5);
        expect(w).toEqual({ batch_id: batch.id, account_id: acc.id, url: 'https://a.example/hook', secret: 'whsec_a', created_at: 5, disabled_at: null, disabled_reason: null });
        expect((await s.getBatch(acc.id, 'b'))?.webhook_url).toBe('https://a.example/hook');
        const again = await s.webhooks.putWebhook(acc.id, batch.id, 'https://b.example/hook', 'whsec_b', 6);
        expect(again).toMatchObject({ url: 'https://b.example/hook', secret: 'whsec_b', created_at: 6 });
        await finish(20);
        expect(await s.webhooks.enqueueEvents(21)).toBe(1);
        const [d] = await s.webhooks.listDeliveries(batch.id, 10);
        expect(d).toMatchObject({ batch_id: batch.id, attempt: 1, status: 'pending', next_attempt_at: 21 });
        expect(await s.webhooks.deleteWebhook(batch.id, 30)).toBe(true);
        expect(await s.webhooks.getWebhook(batch.id)).toBeNull();
        expect((await s.getBatch(acc.id, 'b'))?.webhook_url).toBeNull();
        expect(await s.webhooks.getDelivery(batch.id, d.id)).toMatchObject({ status: 'failed', error: 'webhook removed' });
      } finally {
        await s.close();
      }
    });

    it('each event becomes one first attempt; one claimer of two gets it; a retry is the next attempt', async () => {
      const s1 = await harness.fresh();
      const s2 = await harness.another();
      try {
        const { acc, batch, finish } = await finishedBatch(s1);
        await finish(5); // before the webhook: not delivered
        await s1.webhooks.putWebhook(acc.id, batch.id, 'https://a.example/hook', 'whsec_a', 10);
        expect(await s1.webhooks.enqueueEvents(11)).toBe(0);
        await s1.insertDocuments(acc.id, 'b', [doc()], 12);
        await finish(20);
        const [events] = [await s1.listBatchEvents(batch.id)];
        expect(events.map((e) => e.run)).toEqual([1, 2]);
        const [n1, n2] = await Promise.all([s1.webhooks.enqueueEvents(21), s2.webhooks.enqueueEvents(21)]);
        expect(n1 + n2).toBe(1);
        const [c1, c2] = await Promise.all([s1.webhooks.claimDeliveries(5, 1000, 22), s2.webhooks.claimDeliveries(5, 1000, 22)]);
        const claims = [...c1, ...c2];
        expect(claims).toHaveLength(1);
        const claim = claims[0];
        expect(claim).toMatchObject({ batch_id: batch.id, event_id: events[1].id, attempt: 1, url: 'https://a.example/hook', secret: 'whsec_a', event_type: 'batch.completed', event_created_at: 20 });
        expect(JSON.parse(claim.batch_json)).toMatchObject({ id: batch.id, run: 2 });
        expect(await s1.webhooks.claimDeliveries(5, 1000, 23)).toEqual([]); // leased
        expect(await s2.webhooks.finishAttempt(claim, retry(100), newId('dlv'), 30)).toBe(true);
        expect(await s2.webhooks.finishAttempt(claim, retry(100), newId('dlv'), 31)).toBe(false); // already recorded
        const log = await s1.webhooks.listDeliveries(batch.id, 10);
        expect(log.map((d) => [d.attempt, d.status, d.response_status, d.next_attempt_at])).toEqual([
          [2, 'pending', null, 100],
          [1, 'failed', 500, 100],
        ]);
        expect(await s1.webhooks.claimDeliveries(5, 1000, 99)).toEqual([]); // not due yet
        const [next] = await s1.webhooks.claimDeliveries(5, 1000, 100);
        expect(next).toMatchObject({ attempt: 2, event_id: events[1].id });
        // A claim whose lease ran out and was taken again writes nothing.
        const [taken] = await s2.webhooks.claimDeliveries(5, 1000, 1200);
        expect(taken.id).toBe(next.id);
        expect(await s1.webhooks.finishAttempt(next, { ...retry(0), retry_at: null }, newId('dlv'), 1201)).toBe(false);
        expect(await s2.webhooks.finishAttempt(taken, { status: 'delivered', response_status: 204, error: null, retry_at: null, disable: false }, newId('dlv'), 1202)).toBe(true);
        expect((await s1.webhooks.getDelivery(batch.id, taken.id))?.status).toBe('delivered');
      } finally {
        await s1.close();
        await s2.close();
      }
    });

    it('a claim takes one due attempt per receiving host (name and port) and none of the busy hosts', async () => {
      const s = await harness.fresh();
      try {
        const hooks: Record<string, string> = {
          b1: 'https://a.example/hook',
          b2: 'https://a.example:443/other?x=1',
          b3: 'http://a.example/hook',
          b4: 'https://b.example/hook',
        };
        for (const [name, url] of Object.entries(hooks)) {
          const { acc, batch, finish } = await finishedBatch(s, name);
          await s.webhooks.putWebhook(acc.id, batch.id, url, 'whsec_a', 1);
          await finish(5);
        }
        expect(await s.webhooks.enqueueEvents(6)).toBe(4);
        const skipped = await s.webhooks.claimDeliveries(10, 1000, 7, { busyReceivers: ['a.example:443'] });
        expect(skipped.map((c) => c.receiver).sort()).toEqual(['a.example:80', 'b.example:443']);
        const first = await s.webhooks.claimDeliveries(10, 1000, 7);
        expect(first.map((c) => c.receiver)).toEqual(['a.example:443']);
        const second = await s.webhooks.claimDeliveries(10, 1000, 7, { busyReceivers: [] });
        expect(second.map((c) => c.receiver)).toEqual(['a.example:443']);
        expect(new Set([...first, ...second].map((c) => c.url))).toEqual(new Set([hooks.b1, hooks.b2]));
      } finally {
        await s.close();
      }
    });

    it('a claim takes no more of an account than its room', async () => {
      const s = await harness.fresh();
      try {
        const acc = await s.getOrCreateAccount('busy', 1);
        for (const n of [1, 2, 3, 4]) {
          const name = `h${n}`;
          const { batch } = await s.insertDocuments(acc.id, name, [doc()], 2);
          await s.webhooks.putWebhook(acc.id, batch.id, `https://h${n}.example/hook`, 'whsec_a', 3);
          await s.submitBatch(acc.id, name, 4);
          const [c] = await s.claimDocuments(1, LEASE, 4);
          await s.completeDocument(c.id, c.attempt, ok, 5);
        }
        const other = await finishedBatch(s, 'other');
        await s.webhooks.putWebhook(other.acc.id, other.batch.id, 'https://o.example/hook', 'whsec_a', 3);
        await other.finish(5);
        expect(await s.webhooks.enqueueEvents(6)).toBe(5);
        const fair = { accountRoom: { [acc.id]: 1 }, perAccount: 2 };
        const claimed = await s.webhooks.claimDeliveries(10, 1000, 7, fair);
        // One of the busy account's four (its room), and the other account's.
        expect(claimed.filter((c) => c.account_id === acc.id)).toHaveLength(1);
        expect(claimed.filter((c) => c.account_id === other.acc.id)).toHaveLength(1);
        // An account not named may take `perAccount`.
        const rest = await s.webhooks.claimDeliveries(10, 1000, 7, { perAccount: 2 });
        expect(rest.map((c) => c.account_id)).toEqual([acc.id, acc.id]);
      } finally {
        await s.close();
      }
    });

    it('a redelivery is the next attempt of the same event, due now; 410 disables the webhook and fails what is pending', async () => {
      const s = await harness.fresh();
      try {
        const { acc, batch, finish } = await finishedBatch(s);
        await s.webhooks.putWebhook(acc.id, batch.id, 'https://a.example/hook', 'whsec_a', 1);
        await finish(5);
        await s.webhooks.enqueueEvents(6);
        const [claim] = await s.webhooks.claimDeliveries(1, 1000, 6);
        await s.webhooks.finishAttempt(claim, { status: 'delivered', response_status: 200, error: null, retry_at: null, disable: false }, newId('dlv'), 7);
        expect(await s.webhooks.redeliver(batch.id, 'dlv_nope', 8)).toBeNull();
        const again = await s.webhooks.redeliver(batch.id, claim.id, 8);
        expect(again).toMatchObject({ event_id: claim.event_id, attempt: 2, status: 'pending', next_attempt_at: 8 });
        const third = await s.webhooks.redeliver(batch.id, claim.id, 9);
        expect(third?.attempt).toBe(3);
        const [c2] = await s.webhooks.claimDeliveries(1, 1000, 10);
        expect(await s.webhooks.finishAttempt(c2, { status: 'failed', response_status: 410, error: 'gone', retry_at: null, disable: true }, newId('dlv'), 11)).toBe(true);
        expect(await s.webhooks.getWebhook(batch.id)).toMatchObject({ disabled_at: 11, disabled_reason: 'gone' });
        const log = await s.webhooks.listDeliveries(batch.id, 10);
        expect(log.every((d) => d.status !== 'pending')).toBe(true);
        expect(await s.webhooks.claimDeliveries(5, 1000, 12)).toEqual([]);
        expect(await s.webhooks.listDeliveries(batch.id, 1)).toHaveLength(1);
      } finally {
        await s.close();
      }
    });
  });

  describe(`Store contract (idempotency, rate limits): ${name}`, () => {
    it('a key is taken once, reported while held, replayed when done, freed on release, and expires', async () => {
      const s1 = await harness.fresh();
      const s2 = await harness.another();
      try {
        const ids = s1.idempotency;
        const begins = await Promise.all([ids.beginIdempotent('sc', 'k', 'h1', 100, 50, 1000), s2.idempotency.beginIdempotent('sc', 'k', 'h1', 100, 50, 1000)]);
        expect(begins.map((b) => b.state).sort()).toEqual(['in_progress', 'started']);
        expect(begins.find((b) => b.state === 'in_progress')).toEqual({ state: 'in_progress', request_hash: 'h1' });
        expect(await ids.beginIdempotent('other', 'k', 'h1', 100, 50, 1000)).toEqual({ state: 'started' }); // scoped by API key
        await ids.completeIdempotent('sc', 'k', 'h1', 201, { 'content-type': 'application/json' }, '{"a":1}');
        expect(await ids.beginIdempotent('sc', 'k', 'h2', 120, 50, 1000)).toEqual({ state: 'done', request_hash: 'h1', status: 201, headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
        // A holder that died: its lock runs out and the next request takes over.
        expect((await ids.beginIdempotent('sc', 'dead', null, 100, 50, 1000)).state).toBe('started');
        expect((await ids.beginIdempotent('sc', 'dead', null, 140, 50, 1000)).state).toBe('in_progress');
        expect((await ids.beginIdempotent('sc', 'dead', null, 151, 50, 1000)).state).toBe('started');
        await ids.releaseIdempotent('sc', 'dead');
        expect((await ids.beginIdempotent('sc', 'dead', null, 152, 50, 1000)).state).toBe('started');
        // Expired: purged, and a done key starts afresh.
        expect((await ids.beginIdempotent('sc', 'k', 'h3', 1101, 50, 1000)).state).toBe('started');
        expect(await ids.purgeIdempotent(5000)).toBe(3);
        expect(await ids.purgeIdempotent(5000)).toBe(0);
      } finally {
        await s1.close();
        await s2.close();
      }
    });

    it('rate-limit counters are shared by every connection and refuse past the limit', async () => {
      const s1 = await harness.fresh();
      const s2 = await harness.another();
      try {
        const a = s1.rateLimits.limiter({ points: 3, duration: 60, keyPrefix: 'status' });
        const b = s2.rateLimits.limiter({ points: 3, duration: 60, keyPrefix: 'status' });
        expect((await a.consume('key1')).remainingPoints).toBe(2);
        expect((await b.consume('key1')).remainingPoints).toBe(1);
        expect((await a.consume('key1')).remainingPoints).toBe(0);
        const refused = await b.consume('key1').catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(RateLimiterRes);
        expect((refused as RateLimiterRes).msBeforeNext).toBeGreaterThan(0);
        expect((await b.consume('key2')).remainingPoints).toBe(2);
        const other = s1.rateLimits.limiter({ points: 3, duration: 60, keyPrefix: 'default' });
        expect((await other.consume('key1')).remainingPoints).toBe(2); // another class, another counter
      } finally {
        await s1.close();
        await s2.close();
      }
    });
  });

  describe(`Store contract (changes): ${name}`, () => {
    it('document transitions emit `documents`; a completed batch and a redelivery emit `webhooks`', async () => {
      const writer = await harness.fresh();
      const watcher = await harness.another();
      try {
        const acc = await writer.getOrCreateAccount('c', 1);
        let seen = await changesDuring(watcher, ['documents'], async () => {
          await writer.insertDocuments(acc.id, 'b', [doc()], 2);
        });
        expect([...seen]).toEqual(['documents']);
        let claimId = '';
        seen = await changesDuring(watcher, ['documents', 'webhooks'], async () => {
          await writer.submitBatch(acc.id, 'b', 3);
          const [c] = await writer.claimDocuments(1, LEASE, 4);
          claimId = c.id;
          await writer.completeDocument(c.id, c.attempt, ok, 5);
        });
        expect([...seen].sort()).toEqual(['documents', 'webhooks']);
        expect(claimId).not.toBe('');
        const batch = (await writer.getBatch(acc.id, 'b'))!;
        await writer.webhooks.putWebhook(acc.id, batch.id, 'https://a.example/hook', 'whsec_a', 1);
        await writer.webhooks.enqueueEvents(6);
        const [d] = await writer.webhooks.listDeliveries(batch.id, 1);
        seen = await changesDuring(watcher, ['webhooks'], async () => {
          await writer.webhooks.redeliver(batch.id, d.id, 7);
        });
        expect([...seen]).toEqual(['webhooks']);
        // Reads and refused writes change nothing.
        seen = await changesDuring(watcher, [], async () => {
          await writer.getBatch(acc.id, 'b');
          await writer.claimDocuments(5, LEASE, 8);
          // A repeated completion (a retry whose first answer was lost) is told its outcome is
          // stored and writes nothing; a different outcome for the finished attempt is refused.
          expect(await writer.completeDocument(claimId, 1, ok, 9)).toBe(true);
          expect(await writer.completeDocument(claimId, 1, { status: 'failed', page_count: null, error: { code: 'corrupt_file', message: 'x' } }, 9)).toBe(false);
          await new Promise((r) => setTimeout(r, 300));
        });
        expect([...seen]).toEqual([]);
      } finally {
        await writer.close();
        await watcher.close();
      }
    });

    it('an unsubscribed listener hears nothing more', async () => {
      const s = await harness.fresh();
      try {
        let heard = 0;
        const off = s.changes.subscribe('documents', () => heard++);
        await new Promise((r) => setTimeout(r, 200));
        const acc = await s.getOrCreateAccount('u', 1);
        await s.insertDocuments(acc.id, 'b', [doc()], 2);
        const deadline = Date.now() + 3000;
        while (heard === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(heard).toBe(1);
        off();
        await s.insertDocuments(acc.id, 'b', [doc()], 3);
        await new Promise((r) => setTimeout(r, 300));
        expect(heard).toBe(1);
      } finally {
        await s.close();
      }
    });
  });

  let blobStore: Store | null = null;
  afterAll(async () => {
    await blobStore?.close();
  });
  blobContract(`${name} (store.blobs)`, {
    async open() {
      await blobStore?.close();
      blobStore = await harness.fresh();
      return blobStore.blobs;
    },
    leftovers: () => harness.blobLeftovers(),
  });
}

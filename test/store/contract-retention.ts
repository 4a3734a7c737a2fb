/**
 * The Store contract of the retention sweep, run by `storeContract` against every adapter on
 * real databases, with real blobs in the store's own blob store: old terminal rows and their
 * files go, recent and unfinished ones stay, counters stay equal to a recount, nothing is re-sent.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/names.js';
import { purgeOnce } from '../../src/retention/sweep.js';
import type { NewDocument, Store } from '../../src/store/index.js';
import type { PartsHarness } from './contract-parts.js';

const DAY = 86_400_000;
const OLD = 1_000_000;
const NOW = OLD + 30 * DAY;
const RECENT = NOW - DAY;
const LEASE = 30_000;
const ok = { status: 'succeeded' as const, page_count: 1, result_json: '{"tables":[],"line_items":[]}' };
const bad = { status: 'failed' as const, page_count: null, error: { code: 'corrupt_file' as const, message: 'broken' } };
const delivered = { status: 'delivered' as const, response_status: 200, error: null, retry_at: null, disable: false };

/** `n` documents, each with a real blob in `s.blobs`. */
async function withBlobs(s: Store, n: number): Promise<NewDocument[]> {
  const out: NewDocument[] = [];
  for (let i = 0; i < n; i++) {
    const put = await s.blobs.put(Readable.from([Buffer.from(`file ${i}`)]));
    out.push({ id: newId('doc'), filename: `f${i}.pdf`, content_type: 'application/pdf', size_bytes: put.size, sha256: put.sha256, blob_key: put.key });
  }
  return out;
}

const exists = (s: Store, key: string) => s.blobs.get(key).then(
  () => true,
  () => false,
);

/** The batch row's counters equal a recount of its documents. */
async function consistent(s: Store, accountId: string, batchId: string) {
  const row = await s.getBatchById(accountId, batchId);
  const { counts, document_count, awaiting_process, min_started_at, max_completed_at } = row!;
  expect({ counts, document_count, awaiting_process, min_started_at, max_completed_at }).toEqual(await s.recountBatch(batchId));
  return row!;
}

/** A batch of one document completed at `t`, with a webhook registered before. */
async function hookedBatch(s: Store, accountId: string, name: string, t: number) {
  const { batch } = await s.insertDocuments(accountId, name, await withBlobs(s, 1), t - 10);
  await s.webhooks.putWebhook(accountId, batch.id, `https://${name}.example/hook`, 'whsec_a', t - 5);
  await s.submitBatch(accountId, name, t);
  const [c] = await s.claimDocuments(1, LEASE, t);
  await s.completeDocument(c.id, c.attempt, ok, t);
  return batch;
}

export function retentionContract(name: string, harness: PartsHarness): void {
  describe(`Store contract (retention): ${name}`, () => {
    it('purges old terminal documents with results and files; keeps recent and unfinished ones; counters follow', async () => {
      const s = await harness.fresh();
      try {
        const acc = await s.getOrCreateAccount('acc', 1);
        const docs = await withBlobs(s, 5);
        const { batch } = await s.insertDocuments(acc.id, 'b', docs, OLD);
        await s.submitBatch(acc.id, 'b', OLD);
        const claimed = await s.claimDocuments(5, LEASE, OLD);
        const byId = new Map(claimed.map((c) => [c.id, c]));
        const [d0, d1, d2, d3] = docs.map((d) => byId.get(d.id)!);
        await s.completeDocument(d0.id, d0.attempt, ok, OLD);
        await s.completeDocument(d1.id, d1.attempt, bad, OLD);
        await s.completeDocument(d2.id, d2.attempt, ok, RECENT);
        await s.completeDocument(d3.id, d3.attempt, ok, RECENT);
        // docs[4] stays leased (in flight) since OLD.

        expect((await purgeOnce(s, s.blobs, null, NOW)).documents).toBe(0); // retention off
        expect(await s.getDocument(acc.id, d0.id)).not.toBeNull();

        expect((await purgeOnce(s, s.blobs, 7, NOW)).documents).toBe(2);
        expect(await s.getDocumentResult(acc.id, d0.id)).toBeNull();
        expect(await s.getDocument(acc.id, d1.id)).toBeNull();
        expect((await s.getDocumentResult(acc.id, d2.id))?.result_json).toBe(ok.result_json);
        expect((await s.getDocument(acc.id, docs[4].id))?.state).toBe('leased');
        expect(await Promise.all(docs.map((d) => exists(s, d.blob_key)))).toEqual([false, false, true, true, true]);
        const row = await consistent(s, acc.id, batch.id);
        expect(row.counts).toMatchObject({ succeeded: 2, failed: 0, processing: 1 });
        expect(row.document_count).toBe(3);
        expect((await purgeOnce(s, s.blobs, 7, NOW)).documents).toBe(0);
      } finally {
        await s.close();
      }
    });

    it('a deleted batch loses its files once its in-flight documents end, then its rows', async () => {
      const s = await harness.fresh();
      try {
        const acc = await s.getOrCreateAccount('acc', 1);
        const docs = await withBlobs(s, 3);
        const { batch } = await s.insertDocuments(acc.id, 'gone', docs, RECENT);
        await s.submitBatch(acc.id, 'gone', RECENT);
        const [running] = await s.claimDocuments(1, LEASE, RECENT);
        await s.deleteBatch(acc.id, 'gone', RECENT + 1);
        expect((await purgeOnce(s, s.blobs, null, NOW)).documents).toBe(2); // the canceled ones
        expect(await exists(s, docs.find((d) => d.id === running.id)!.blob_key)).toBe(true);
        await consistent(s, acc.id, batch.id);
        expect((await purgeOnce(s, s.blobs, null, NOW)).batches).toBe(0); // one still in flight

        await s.completeDocument(running.id, running.attempt, ok, RECENT + 2);
        expect(await purgeOnce(s, s.blobs, null, NOW)).toMatchObject({ documents: 1, batches: 1 });
        expect(await s.getBatchById(acc.id, batch.id)).toBeNull();
        expect(await Promise.all(docs.map((d) => exists(s, d.blob_key)))).toEqual([false, false, false]);
        expect(await s.webhooks.getWebhook(batch.id)).toBeNull();
      } finally {
        await s.close();
      }
    });

    it('old events go with their deliveries and are not sent again; pending and recent ones stay', async () => {
      const s = await harness.fresh();
      try {
        const acc = await s.getOrCreateAccount('acc', 1);
        const old = await hookedBatch(s, acc.id, 'old', OLD);
        const pend = await hookedBatch(s, acc.id, 'pend', OLD);
        expect(await s.webhooks.enqueueEvents(OLD + 1)).toBe(2);
        const claims = await s.webhooks.claimDeliveries(5, LEASE, OLD + 2);
        await s.webhooks.finishAttempt(claims.find((c) => c.batch_id === old.id)!, delivered, newId('dlv'), OLD + 3);
        const recent = await hookedBatch(s, acc.id, 'recent', RECENT);
        expect(await s.webhooks.enqueueEvents(RECENT + 1)).toBe(1);

        expect((await purgeOnce(s, s.blobs, 7, NOW)).events).toBe(1);
        expect(await s.listBatchEvents(old.id)).toEqual([]);
        expect(await s.webhooks.listDeliveries(old.id, 10)).toEqual([]);
        expect(await s.listBatchEvents(pend.id)).toHaveLength(1);
        expect(await s.webhooks.listDeliveries(pend.id, 10)).toHaveLength(1);
        expect(await s.listBatchEvents(recent.id)).toHaveLength(1);
        expect(await s.webhooks.enqueueEvents(NOW)).toBe(0);
        expect(await s.getBatchById(acc.id, old.id)).not.toBeNull(); // a live batch stays, emptied
        await consistent(s, acc.id, old.id);
      } finally {
        await s.close();
      }
    });

    it('old idempotency rows go; recent ones still replay', async () => {
      const s = await harness.fresh();
      try {
        for (const [key, t] of [['k-old', OLD], ['k-new', RECENT]] as const) {
          expect(await s.idempotency.beginIdempotent('scope', key, 'h', t, 1000, 100 * DAY)).toEqual({ state: 'started' });
          await s.idempotency.completeIdempotent('scope', key, 'h', 201, {}, '{}');
        }
        expect((await purgeOnce(s, s.blobs, 7, NOW)).idempotency).toBe(1);
        expect(await s.idempotency.beginIdempotent('scope', 'k-old', 'h', NOW, 1000, 100 * DAY)).toEqual({ state: 'started' });
        expect(await s.idempotency.beginIdempotent('scope', 'k-new', 'h', NOW, 1000, 100 * DAY)).toMatchObject({ state: 'done' });
      } finally {
        await s.close();
      }
    });
  });
}

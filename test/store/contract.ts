/**
 * The one Store contract suite, run against every adapter (sqlite.test.ts, postgres.test.ts).
 * Each test gets a fresh, migrated database; after every operation the batch row's counters
 * are compared with a full recount of its documents.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { batchStatus, batchTimestamps, isAllDone } from '../../src/domain/batch.js';
import { newId } from '../../src/domain/names.js';
import { publicStatus } from '../../src/domain/status.js';
import { InvalidCursorError } from '../../src/store/cursor.js';
import type { BatchRow, NewDocument, Store } from '../../src/store/types.js';
import { fairContract } from './contract-fair.js';
import { partsContract, type PartsHarness } from './contract-parts.js';
import { retentionContract } from './contract-retention.js';
import { reviewContract } from './contract-review.js';

export interface StoreHarness extends PartsHarness {
  /** A new, empty, migrated database and a first connection to it. */
  fresh(): Promise<Store>;
  /** Another, independent connection (pool) to the database of the last `fresh()`. */
  another(): Promise<Store>;
}

const LEASE = 30_000;

function doc(n = 0): NewDocument {
  return { id: newId('doc'), filename: `f${n}.pdf`, content_type: 'application/pdf', size_bytes: 100 + n, sha256: 'ab'.repeat(32), blob_key: `blob-${n}-${newId('req')}` };
}
const docs = (n: number) => Array.from({ length: n }, (_, i) => doc(i));
const ok = (pages = 1) => ({ status: 'succeeded' as const, page_count: pages, result_json: JSON.stringify({ tables: [], line_items: [] }) });
const bad = { status: 'failed' as const, page_count: null, error: { code: 'corrupt_file' as const, message: 'broken' } };

export function storeContract(name: string, harness: StoreHarness): void {
  describe(`Store contract: ${name}`, () => {
    const open: Store[] = [];
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close();
    });
    const fresh = async () => {
      const s = await harness.fresh();
      open.push(s);
      return s;
    };
    const another = async () => {
      const s = await harness.another();
      open.push(s);
      return s;
    };

    /** Counters on the row must equal a recount, after every operation. */
    async function consistent(s: Store, accountId: string, batchId: string): Promise<BatchRow> {
      const row = (await s.getBatchById(accountId, batchId)) as BatchRow;
      expect(row).not.toBeNull();
      const re = await s.recountBatch(batchId);
      expect({ counts: row.counts, document_count: row.document_count, awaiting_process: row.awaiting_process, min_started_at: row.min_started_at, max_completed_at: row.max_completed_at }).toEqual(re);
      return row;
    }

    async function setup(s: Store, n: number, batchName = 'b1') {
      const acc = await s.getOrCreateAccount(`acc-${newId('req')}`, 1000);
      const ins = await s.insertDocuments(acc.id, batchName, docs(n), 1000);
      return { acc, batch: ins.batch, documents: ins.documents };
    }

    it('migrate is idempotent and ping answers', async () => {
      const s = await fresh();
      await s.migrate();
      await s.migrate();
      await s.ping();
    });

    it('two connections migrating at once apply each migration once', async () => {
      const s1 = await fresh();
      const s2 = await another();
      await Promise.all([s1.migrate(), s2.migrate(), s1.migrate()]);
      const acc = await s2.getOrCreateAccount('m', 1);
      expect((await s1.getOrCreateAccount('m', 2)).id).toBe(acc.id);
    });

    it('concurrent uploads to a new name land in one batch', async () => {
      const s1 = await fresh();
      const s2 = await another();
      const acc = await s1.getOrCreateAccount('u', 1);
      const [a, b, c] = await Promise.all([
        s1.insertDocuments(acc.id, 'race', docs(3), 10),
        s2.insertDocuments(acc.id, 'race', docs(2), 10),
        s2.insertDocuments(acc.id, 'race', docs(1), 11),
      ]);
      expect(new Set([a.batch.id, b.batch.id, c.batch.id]).size).toBe(1);
      const row = await consistent(s1, acc.id, a.batch.id);
      expect(row.document_count).toBe(6);
    });

    it('accounts and API keys by hash', async () => {
      const s = await fresh();
      const a = await s.getOrCreateAccount('acme', 1);
      const again = await s.getOrCreateAccount('acme', 2);
      expect(again).toEqual(a);
      expect(a.id).toMatch(/^acc_/);
      await s.createApiKey(a.id, 'f'.repeat(64), 3);
      expect(await s.findAccountByKeyHash('f'.repeat(64))).toEqual(a);
      expect(await s.findAccountByKeyHash('0'.repeat(64))).toBeNull();
    });

    it('API keys: listed without their hash, last use recorded, revoked keys find nothing', async () => {
      const s = await fresh();
      const a = await s.getOrCreateAccount('keys-a', 1);
      const b = await s.getOrCreateAccount('keys-b', 1);
      const k1 = await s.createApiKey(a.id, '1'.repeat(64), 10);
      const k2 = await s.createApiKey(a.id, '2'.repeat(64), 20);
      await s.createApiKey(b.id, '3'.repeat(64), 30);
      expect(await s.findKey('1'.repeat(64))).toEqual({ account: a, key_id: k1, last_used_at: null });
      await s.touchApiKey(k1, 50);
      expect((await s.findKey('1'.repeat(64)))!.last_used_at).toBe(50);
      expect(await s.listApiKeys('keys-a')).toEqual([
        { id: k1, account_name: 'keys-a', created_at: 10, last_used_at: 50, revoked_at: null },
        { id: k2, account_name: 'keys-a', created_at: 20, last_used_at: null, revoked_at: null },
      ]);
      expect((await s.listApiKeys()).map((k) => k.account_name)).toEqual(expect.arrayContaining(['keys-a', 'keys-a', 'keys-b']));
      expect(await s.revokeApiKey(k1, 60)).toBe(true);
      expect(await s.revokeApiKey(k1, 70)).toBe(false);
      expect(await s.revokeApiKey('key_missing', 70)).toBe(false);
      expect(await s.findKey('1'.repeat(64))).toBeNull();
      expect(await s.findAccountByKeyHash('1'.repeat(64))).toBeNull();
      expect(await s.findAccountByKeyHash('2'.repeat(64))).toEqual(a);
      expect((await s.listApiKeys('keys-a'))[0].revoked_at).toBe(60);
    });

    it('upload → submit → claim → complete moves counters and the timestamp chain', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 3);
      expect(batch.counts).toEqual({ queued: 3, processing: 0, succeeded: 0, failed: 0, canceled: 0 });
      expect(batch.document_count).toBe(3);
      expect(batch.run).toBe(0);
      expect(documents.map((d) => [d.state, d.batch_name, d.created_at, d.started_at])).toEqual(Array(3).fill(['uploaded', 'b1', 1000, null]));
      await consistent(s, acc.id, batch.id);

      const sub = await s.submitBatch(acc.id, 'b1', 1100);
      expect(sub?.submitted).toBe(3);
      expect(sub?.batch.run).toBe(1);
      expect(batchStatus(sub!.batch.counts)).toBe('queued');
      expect((await s.getDocument(acc.id, documents[0].id))?.state).toBe('pending');
      expect((await s.submitBatch(acc.id, 'b1', 1150))?.submitted).toBe(0);
      expect((await s.getBatch(acc.id, 'b1'))?.run).toBe(1); // a run needs ≥ 1 submitted document
      expect(await s.submitBatch(acc.id, 'nope', 1150)).toBeNull();

      const claimed = await s.claimDocuments(2, LEASE, 1200);
      expect(claimed.map((c) => c.id)).toEqual([documents[0].id, documents[1].id]); // upload order
      expect(claimed.every((c) => c.attempt === 1 && c.batch_id === batch.id && c.account_id === acc.id)).toBe(true);
      // Queued by the process call at 1100: the claim at 1200 waited 100 ms (the queue-wait metric).
      expect(claimed.map((c) => c.queued_at)).toEqual([1100, 1100]);
      let row = await consistent(s, acc.id, batch.id);
      expect(row.counts).toMatchObject({ queued: 1, processing: 2 });
      expect(row.min_started_at).toBe(1200);
      expect(await s.documentStats()).toEqual({ documentsByStatus: { queued: 1, processing: 2, succeeded: 0, failed: 0, canceled: 0 }, queueDepth: 1 });
      const d0 = await s.getDocument(acc.id, documents[0].id);
      expect(d0).toMatchObject({ state: 'leased', attempts: 1, started_at: 1200, lease_until: 1200 + LEASE });

      expect(await s.completeDocument(claimed[0].id, 1, ok(2), 1300)).toBe(true);
      expect(await s.completeDocument(claimed[1].id, 1, bad, 1400)).toBe(true);
      // The same completion again (its first answer lost): true, and counted once.
      expect(await s.completeDocument(claimed[1].id, 1, bad, 1450)).toBe(true);
      expect(await s.completeDocument(claimed[0].id, 1, bad, 1450)).toBe(false);
      row = await consistent(s, acc.id, batch.id);
      expect(row.counts).toEqual({ queued: 1, processing: 0, succeeded: 1, failed: 1, canceled: 0 });
      expect(batchStatus(row.counts)).toBe('processing');
      expect(batchTimestamps(row.counts, row.created_at, row.min_started_at, row.max_completed_at).completed_at).toBeNull();

      const [last] = await s.claimDocuments(5, LEASE, 1500);
      expect(await s.completeDocument(last.id, 1, ok(), 1600)).toBe(true);
      row = await consistent(s, acc.id, batch.id);
      expect(isAllDone(row.counts)).toBe(true);
      expect(batchStatus(row.counts)).toBe('succeeded');
      expect(batchTimestamps(row.counts, row.created_at, row.min_started_at, row.max_completed_at)).toEqual({ created_at: 1000, started_at: 1200, completed_at: 1600 });
      expect(await s.documentStats()).toEqual({ documentsByStatus: { queued: 0, processing: 0, succeeded: 2, failed: 1, canceled: 0 }, queueDepth: 0 });

      const r0 = await s.getDocumentResult(acc.id, documents[0].id);
      expect(r0).toMatchObject({ state: 'succeeded', page_count: 2, started_at: 1200, completed_at: 1300, processing_error: null, lease_until: null });
      expect(JSON.parse(r0!.result_json!)).toEqual({ tables: [], line_items: [] });
      const r1 = await s.getDocumentResult(acc.id, documents[1].id);
      expect(r1).toMatchObject({ state: 'failed', result_json: null, processing_error: bad.error, page_count: null });
      for (const d of [r0!, r1!]) expect(d.created_at <= d.started_at! && d.started_at! <= d.completed_at!).toBe(true);
      expect(await s.claimDocuments(5, LEASE, 1700)).toEqual([]);
    });

    it('one batch_event per run; re-opening a finished batch and processing again gives a second', async () => {
      const s = await fresh();
      const { acc, batch } = await setup(s, 1);
      await s.submitBatch(acc.id, 'b1', 1100);
      const [c] = await s.claimDocuments(1, LEASE, 1200);
      await s.completeDocument(c.id, c.attempt, ok(), 1300);
      let ev = await s.listBatchEvents(batch.id);
      expect(ev).toHaveLength(1);
      expect(ev[0]).toMatchObject({ batch_id: batch.id, run: 1, type: 'batch.completed', created_at: 1300 });
      expect(ev[0].id).toMatch(/^evt_/);
      expect(ev[0].batch).toEqual(await s.getBatch(acc.id, 'b1'));

      // Adding a document re-opens the batch: not all done, completed_at null again.
      const more = await s.insertDocuments(acc.id, 'b1', [doc(7)], 2000);
      expect(more.batch.id).toBe(batch.id);
      expect(isAllDone(more.batch.counts)).toBe(false);
      expect(batchTimestamps(more.batch.counts, more.batch.created_at, more.batch.min_started_at, more.batch.max_completed_at).completed_at).toBeNull();
      await consistent(s, acc.id, batch.id);

      // Canceling that document makes it all done again within run 1: still one event.
      expect((await s.deleteDocument(acc.id, more.documents[0].id, 2100))?.outcome).toBe('canceled');
      expect(await s.listBatchEvents(batch.id)).toHaveLength(1);

      await s.insertDocuments(acc.id, 'b1', [doc(8)], 3000);
      expect((await s.submitBatch(acc.id, 'b1', 3100))?.batch.run).toBe(2);
      const [c2] = await s.claimDocuments(1, LEASE, 3200);
      await s.completeDocument(c2.id, c2.attempt, bad, 3300);
      ev = await s.listBatchEvents(batch.id);
      expect(ev.map((e) => e.run)).toEqual([1, 2]);
      expect(ev[1].batch.counts).toEqual({ queued: 0, processing: 0, succeeded: 1, failed: 1, canceled: 1 });
      expect(ev[1].batch.max_completed_at).toBe(3300);
      await consistent(s, acc.id, batch.id);
    });

    it('awaiting_process counts uploads since the last submit: upload adds, submit clears, cancel and delete remove', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 3);
      expect(batch.awaiting_process).toBe(3);
      expect((await s.deleteDocument(acc.id, documents[0].id, 1050))?.outcome).toBe('canceled');
      expect((await consistent(s, acc.id, batch.id)).awaiting_process).toBe(2);
      const sub = await s.submitBatch(acc.id, 'b1', 1100);
      expect(sub).toMatchObject({ submitted: 2, batch: { awaiting_process: 0 } });
      // A submitted document canceled before a worker claims it no longer awaited a process call.
      expect((await s.deleteDocument(acc.id, documents[1].id, 1150))?.outcome).toBe('canceled');
      expect((await consistent(s, acc.id, batch.id)).awaiting_process).toBe(0);
      const more = await s.insertDocuments(acc.id, 'b1', [doc(7), doc(8)], 1200);
      expect(more.batch.awaiting_process).toBe(2);
      expect((await s.submitBatch(acc.id, 'b1', 1250))?.batch.awaiting_process).toBe(0);
      await s.insertDocuments(acc.id, 'b1', [doc(9)], 1300);
      expect((await consistent(s, acc.id, batch.id)).awaiting_process).toBe(1);
      const final = await s.deleteBatch(acc.id, 'b1', 1400);
      expect(final?.awaiting_process).toBe(0);
      await consistent(s, acc.id, batch.id);
    });

    it('deleteBatch cancels what has not started, in-flight work finishes, the name is free at once', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 3);
      await s.submitBatch(acc.id, 'b1', 1100);
      const [inflight] = await s.claimDocuments(1, LEASE, 1200);
      await s.insertDocuments(acc.id, 'b1', [doc(9)], 1250); // uploaded, never submitted
      const final = await s.deleteBatch(acc.id, 'b1', 1300);
      expect(final).toMatchObject({ id: batch.id, deleted_at: 1300, document_count: 4 });
      expect(final!.counts).toEqual({ queued: 0, processing: 1, succeeded: 0, failed: 0, canceled: 3 });
      await consistent(s, acc.id, batch.id);
      const canceled = await s.getDocument(acc.id, documents[1].id);
      expect(canceled).toMatchObject({ state: 'canceled', started_at: null, completed_at: 1300 });
      expect(await s.getBatch(acc.id, 'b1')).toBeNull();
      expect(await s.deleteBatch(acc.id, 'b1', 1301)).toBeNull();
      expect((await s.listBatches(acc.id, { cursor: null, limit: 10 })).items).toEqual([]);
      expect(await s.claimDocuments(10, LEASE, 1400)).toHaveLength(0);

      // The name is reused by a new batch at once; the old batch's documents stay readable by id.
      const again = await s.insertDocuments(acc.id, 'b1', [doc(1)], 1500);
      expect(again.batch.id).not.toBe(batch.id);
      expect(again.batch.document_count).toBe(1);
      expect((await s.getBatch(acc.id, 'b1'))?.id).toBe(again.batch.id);
      expect((await s.getDocument(acc.id, documents[0].id))?.batch_id).toBe(batch.id);

      // The in-flight document finishes normally; a deleted batch writes no webhook event.
      expect(await s.completeDocument(inflight.id, inflight.attempt, ok(), 1600)).toBe(true);
      const old = await consistent(s, acc.id, batch.id);
      expect(old.counts).toEqual({ queued: 0, processing: 0, succeeded: 1, failed: 0, canceled: 3 });
      expect(await s.listBatchEvents(batch.id)).toEqual([]);
      // Processing the new batch does not touch the old one.
      expect((await s.submitBatch(acc.id, 'b1', 1700))?.submitted).toBe(1);
      await consistent(s, acc.id, again.batch.id);
    });

    it('deleteDocument: queued → canceled, processing → conflict, terminal → row and counters removed', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 4);
      await s.submitBatch(acc.id, 'b1', 1100);
      const claimed = await s.claimDocuments(3, LEASE, 1200);
      await s.completeDocument(claimed[0].id, 1, ok(), 1300);
      await s.completeDocument(claimed[1].id, 1, bad, 1900);

      expect(await s.deleteDocument(acc.id, claimed[2].id, 2000)).toEqual({ outcome: 'conflict', blob_key: documents[2].blob_key });
      expect(await s.deleteDocument(acc.id, documents[3].id, 2000)).toEqual({ outcome: 'canceled', blob_key: documents[3].blob_key });
      expect(await s.getDocument(acc.id, documents[3].id)).toMatchObject({ state: 'canceled', started_at: null, completed_at: 2000 });
      let row = await consistent(s, acc.id, batch.id);
      expect(row.counts).toEqual({ queued: 0, processing: 1, succeeded: 1, failed: 1, canceled: 1 });

      // Deleting the latest-completed terminal document recomputes max_completed_at from the rest.
      expect(await s.deleteDocument(acc.id, documents[3].id, 2100)).toEqual({ outcome: 'deleted', blob_key: documents[3].blob_key });
      expect(await s.deleteDocument(acc.id, claimed[1].id, 2100)).toEqual({ outcome: 'deleted', blob_key: documents[1].blob_key });
      expect(await s.getDocument(acc.id, claimed[1].id)).toBeNull();
      expect(await s.getDocumentResult(acc.id, claimed[1].id)).toBeNull();
      row = await consistent(s, acc.id, batch.id);
      expect(row).toMatchObject({ document_count: 2, max_completed_at: 1300, min_started_at: 1200 });
      expect(row.counts).toEqual({ queued: 0, processing: 1, succeeded: 1, failed: 0, canceled: 0 });
      expect(await s.deleteDocument(acc.id, claimed[1].id, 2200)).toBeNull();

      // The last in-flight document completes: the batch is all done, one event for run 1.
      await s.completeDocument(claimed[2].id, 1, ok(), 2300);
      expect((await s.listBatchEvents(batch.id)).map((e) => e.run)).toEqual([1]);
      await consistent(s, acc.id, batch.id);
    });

    it('canceling the last queued document of a batch writes its completion event', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 2);
      await s.submitBatch(acc.id, 'b1', 1100);
      const [c] = await s.claimDocuments(1, LEASE, 1200);
      await s.completeDocument(c.id, 1, ok(), 1300);
      expect(await s.listBatchEvents(batch.id)).toEqual([]);
      await s.deleteDocument(acc.id, documents[1].id, 1400);
      const ev = await s.listBatchEvents(batch.id);
      expect(ev).toHaveLength(1);
      expect(ev[0].batch.counts).toEqual({ queued: 0, processing: 0, succeeded: 1, failed: 0, canceled: 1 });
    });

    it("another account's ids and names are invisible", async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 1, 'shared-name');
      const other = await s.getOrCreateAccount('other', 1);
      expect(await s.getBatch(other.id, 'shared-name')).toBeNull();
      expect(await s.getBatchById(other.id, batch.id)).toBeNull();
      expect(await s.getDocument(other.id, documents[0].id)).toBeNull();
      expect(await s.getDocumentResult(other.id, documents[0].id)).toBeNull();
      expect(await s.deleteDocument(other.id, documents[0].id, 5)).toBeNull();
      expect(await s.submitBatch(other.id, 'shared-name', 5)).toBeNull();
      expect(await s.deleteBatch(other.id, 'shared-name', 5)).toBeNull();
      expect((await s.listBatches(other.id, { cursor: null, limit: 10 })).items).toEqual([]);
      expect((await s.listBatchResults(other.id, batch.id, { cursor: null, limit: 10 })).items).toEqual([]);
      // The same name in the other account is its own batch.
      const mine = await s.insertDocuments(other.id, 'shared-name', [doc(1)], 10);
      expect(mine.batch.id).not.toBe(batch.id);
      expect((await s.getBatch(acc.id, 'shared-name'))?.document_count).toBe(1);
      expect((await s.getDocument(acc.id, documents[0].id))?.state).toBe('uploaded');
    });

    it('two claimers never get the same document', async () => {
      const s1 = await fresh();
      const s2 = await another();
      const { acc } = await setup(s1, 60);
      await s1.submitBatch(acc.id, 'b1', 1100);
      const seen: string[] = [];
      const drain = async (s: Store) => {
        for (;;) {
          const got = await s.claimDocuments(4, LEASE, 1200);
          if (!got.length) return;
          seen.push(...got.map((g) => g.id));
        }
      };
      await Promise.all([drain(s1), drain(s2), drain(s1), drain(s2)]);
      expect(seen).toHaveLength(60);
      expect(new Set(seen).size).toBe(60);
      const row = (await s2.getBatch(acc.id, 'b1'))!;
      expect(row.counts).toMatchObject({ queued: 0, processing: 60 });
      await consistent(s2, acc.id, row.id);
    });

    it("getBatch answers the last commit: this connection's writes at once, another connection's by the next event-loop turn", async () => {
      const s1 = await fresh();
      const s2 = await another();
      const { acc, batch } = await setup(s1, 3);
      const nextTurn = () => new Promise((r) => setImmediate(r));
      const read = async () => (await s1.getBatch(acc.id, 'b1'))!;
      expect(await read()).toEqual(await read());
      await s1.submitBatch(acc.id, 'b1', 1100);
      expect(await read()).toMatchObject({ awaiting_process: 0, run: 1, counts: { queued: 3 } });
      await s1.webhooks.putWebhook(acc.id, batch.id, 'https://example.com/hook', 'secret', 1150);
      expect((await read()).webhook_url).toBe('https://example.com/hook');
      await nextTurn();
      expect((await s2.claimDocuments(2, LEASE, 1200)).length).toBe(2);
      await nextTurn();
      expect((await read()).counts).toMatchObject({ queued: 1, processing: 2 });
      await s2.webhooks.deleteWebhook(batch.id, 1250);
      await nextTurn();
      expect((await read()).webhook_url).toBeNull();
      await s2.deleteBatch(acc.id, 'b1', 1300);
      await nextTurn();
      expect(await s1.getBatch(acc.id, 'b1')).toBeNull();
      await s1.insertDocuments(acc.id, 'b1', docs(1), 1400);
      expect((await read()).document_count).toBe(1);
    });

    it('deleteBatch racing two claimers: every document is either canceled unstarted or claimed, counters exact', async () => {
      const s1 = await fresh();
      const s2 = await another();
      const { acc, batch } = await setup(s1, 120);
      await s1.submitBatch(acc.id, 'b1', 1100);
      const claimed: string[] = [];
      const drain = async (s: Store) => {
        for (;;) {
          const got = await s.claimDocuments(3, LEASE, 1200);
          if (!got.length) return;
          claimed.push(...got.map((g) => g.id));
        }
      };
      const [, , final] = await Promise.all([drain(s1), drain(s2), (async () => {
        await new Promise((r) => setTimeout(r, 5));
        return s2.deleteBatch(acc.id, 'b1', 1300);
      })()]);
      expect(final).not.toBeNull();
      const row = await consistent(s1, acc.id, batch.id);
      expect(row.counts.processing).toBe(claimed.length);
      expect(row.counts.canceled).toBe(120 - claimed.length);
      expect(row.counts.queued).toBe(0);
      const all = (await s1.listBatchResults(acc.id, batch.id, { cursor: null, limit: 200 })).items;
      for (const d of all) expect(d.state === 'leased' || (d.state === 'canceled' && d.started_at === null)).toBe(true);
      expect(new Set(claimed).size).toBe(claimed.length);
    });

    it('attempts are counted at claim; the reaper requeues, then fails with worker_lost', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 1);
      await s.submitBatch(acc.id, 'b1', 1000);
      let t = 2000;
      for (let attempt = 1; attempt <= 3; attempt++) {
        const [c] = await s.claimDocuments(1, 100, t);
        expect(c.attempt).toBe(attempt);
        // Back in the queue when the reaper gave the lease back (the previous round's t + 101).
        expect(c.queued_at).toBe(attempt === 1 ? 1000 : t - 1000 + 101);
        expect(await s.reapExpiredLeases(3, t + 100)).toEqual({ requeued: 0, failed: 0 }); // not yet expired
        const reaped = await s.reapExpiredLeases(3, t + 101);
        expect(reaped).toEqual(attempt < 3 ? { requeued: 1, failed: 0 } : { requeued: 0, failed: 1 });
        const d = await s.getDocument(acc.id, documents[0].id);
        expect(d?.started_at).toBe(2000); // the first claim's time, kept
        if (attempt < 3) {
          expect(d).toMatchObject({ state: 'pending', lease_until: null, completed_at: null });
          expect(publicStatus(d!.state, d!.started_at !== null)).toBe('processing');
          expect((await consistent(s, acc.id, batch.id)).counts).toMatchObject({ queued: 0, processing: 1 });
        }
        t += 1000;
      }
      const d = await s.getDocument(acc.id, documents[0].id);
      expect(d).toMatchObject({ state: 'failed', attempts: 3, completed_at: 4101 });
      expect(d?.processing_error?.code).toBe('worker_lost');
      const row = await consistent(s, acc.id, batch.id);
      expect(row.counts).toEqual({ queued: 0, processing: 0, succeeded: 0, failed: 1, canceled: 0 });
      expect((await s.listBatchEvents(batch.id)).map((e) => e.batch.counts.failed)).toEqual([1]);
      expect(await s.claimDocuments(1, 100, 9000)).toEqual([]);
    });

    it('a lease given back does not count: three releases, then the reaper still requeues; a stale attempt cannot release', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 1);
      await s.submitBatch(acc.id, 'b1', 1000);
      let t = 2000;
      for (let attempt = 1; attempt <= 3; attempt++) {
        const [c] = await s.claimDocuments(1, 100, t);
        expect(c.attempt).toBe(attempt);
        expect(await s.releaseLease(c.id, c.attempt - 1, t + 10)).toBe(false); // not the holder
        expect(await s.releaseLease(c.id, c.attempt, t + 10)).toBe(true);
        expect(await s.releaseLease(c.id, c.attempt, t + 11)).toBe(false); // once only
        const d = await s.getDocument(acc.id, documents[0].id);
        expect(d).toMatchObject({ state: 'pending', lease_until: null, completed_at: null, started_at: 2000 });
        expect((await consistent(s, acc.id, batch.id)).counts).toMatchObject({ queued: 0, processing: 1 });
        t += 1000;
      }
      // Three claims given back, then two lost workers: the third lost one (the limit) fails it.
      for (let lost = 1; lost <= 3; lost++) {
        const [c] = await s.claimDocuments(1, 100, t);
        expect(c.attempt).toBe(3 + lost);
        expect(c.queued_at).toBe(lost === 1 ? t - 1000 + 10 : t - 1000 + 101);
        expect(await s.reapExpiredLeases(3, t + 101)).toEqual(lost < 3 ? { requeued: 1, failed: 0 } : { requeued: 0, failed: 1 });
        t += 1000;
      }
      const d = await s.getDocument(acc.id, documents[0].id);
      expect(d).toMatchObject({ state: 'failed', attempts: 6, processing_error: { code: 'worker_lost' } });
      expect((await consistent(s, acc.id, batch.id)).counts).toEqual({ queued: 0, processing: 0, succeeded: 0, failed: 1, canceled: 0 });
    });

    it('lease renewal extends the lease; a stale attempt can neither renew nor complete', async () => {
      const s = await fresh();
      const { acc, batch, documents } = await setup(s, 1);
      await s.submitBatch(acc.id, 'b1', 1000);
      const [first] = await s.claimDocuments(1, 100, 2000);
      expect(await s.renewLease(first.id, 1, 1000, 2050)).toBe(true);
      expect((await s.getDocument(acc.id, first.id))?.lease_until).toBe(3050);
      expect(await s.reapExpiredLeases(3, 2500)).toEqual({ requeued: 0, failed: 0 });
      expect(await s.reapExpiredLeases(3, 3051)).toEqual({ requeued: 1, failed: 0 });
      const [second] = await s.claimDocuments(1, 1000, 3100);
      expect(second.attempt).toBe(2);
      // The first worker comes back: it lost its lease and writes nothing.
      expect(await s.renewLease(first.id, 1, 1000, 3200)).toBe(false);
      expect(await s.completeDocument(first.id, 1, ok(9), 3200)).toBe(false);
      const d = await s.getDocumentResult(acc.id, documents[0].id);
      expect(d).toMatchObject({ state: 'leased', attempts: 2, page_count: null, result_json: null, lease_until: 4100 });
      expect(await s.listBatchEvents(batch.id)).toEqual([]);
      expect(await s.completeDocument(second.id, 2, ok(3), 3300)).toBe(true);
      expect(await s.completeDocument(second.id, 2, ok(4), 3400)).toBe(false); // once only
      expect((await s.getDocument(acc.id, first.id))?.page_count).toBe(3);
      expect((await consistent(s, acc.id, batch.id)).counts.succeeded).toBe(1);
    });

    it('pagination: batches newest first, results in upload order, opaque cursors', async () => {
      const s = await fresh();
      const acc = await s.getOrCreateAccount('pager', 1);
      for (let i = 0; i < 5; i++) await s.insertDocuments(acc.id, `b${i}`, [], 1000 + (i < 4 ? i : 3)); // b3, b4 share a time
      const names: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<Store['listBatches']>> = await s.listBatches(acc.id, { cursor, limit: 2 });
        expect(page.items.length).toBeLessThanOrEqual(2);
        names.push(...page.items.map((b) => b.name));
        cursor = page.next_cursor;
      } while (cursor);
      expect(names).toHaveLength(5);
      expect(names.slice(2)).toEqual(['b2', 'b1', 'b0']);
      expect(new Set(names.slice(0, 2))).toEqual(new Set(['b3', 'b4']));

      const ins = await s.insertDocuments(acc.id, 'big', docs(7), 2000);
      await s.insertDocuments(acc.id, 'big', docs(2), 2100);
      const ids: string[] = [];
      cursor = null;
      do {
        const page: Awaited<ReturnType<Store['listBatchResults']>> = await s.listBatchResults(acc.id, ins.batch.id, { cursor, limit: 4 });
        ids.push(...page.items.map((d) => d.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(ids.slice(0, 7)).toEqual(ins.documents.map((d) => d.id));
      expect(ids).toHaveLength(9);
      const exact = await s.listBatchResults(acc.id, ins.batch.id, { cursor: null, limit: 9 });
      expect(exact.next_cursor).toBeNull();
      await expect(s.listBatches(acc.id, { cursor: 'garbage', limit: 2 })).rejects.toBeInstanceOf(InvalidCursorError);
      const resultsCursor = (await s.listBatchResults(acc.id, ins.batch.id, { cursor: null, limit: 1 })).next_cursor!;
      await expect(s.listBatches(acc.id, { cursor: resultsCursor, limit: 2 })).rejects.toBeInstanceOf(InvalidCursorError);
    });

    it('waitForWork wakes on submit and on requeue, else times out', async () => {
      const s = await fresh();
      const { acc } = await setup(s, 1);
      let t0 = Date.now();
      await s.waitForWork(50);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
      t0 = Date.now();
      const woken = s.waitForWork(5000);
      await new Promise((r) => setTimeout(r, 50)); // let a LISTEN connection settle
      await s.submitBatch(acc.id, 'b1', 1000);
      await woken;
      expect(Date.now() - t0).toBeLessThan(3000);
      // A waiter on another connection (another pool: a worker process) is woken too.
      const s2 = await another();
      await s.insertDocuments(acc.id, 'b2', [doc(1)], 2000);
      const warm = s2.waitForWork(100); // the first wait opens the LISTEN connection
      await warm;
      t0 = Date.now();
      const remote = s2.waitForWork(5000);
      await new Promise((r) => setTimeout(r, 50));
      await s.submitBatch(acc.id, 'b2', 2100);
      await remote;
      expect(Date.now() - t0).toBeLessThan(3000);
      // A requeue by the reaper wakes waiters as well.
      const claimed = await s.claimDocuments(10, 10, 3000);
      expect(claimed.length).toBe(2);
      t0 = Date.now();
      const requeued = s2.waitForWork(5000);
      await new Promise((r) => setTimeout(r, 50));
      expect((await s.reapExpiredLeases(3, 4000)).requeued).toBe(2);
      await requeued;
      expect(Date.now() - t0).toBeLessThan(3000);
      const ctl = new AbortController();
      const aborted = s.waitForWork(5000, ctl.signal);
      ctl.abort();
      await aborted;
    });
  });
  partsContract(name, harness);
  retentionContract(name, harness);
  fairContract(name, harness);
  reviewContract(name, harness);
}

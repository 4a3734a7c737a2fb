/**
 * The Store contract of corrections, page words, run options and vendor memories, run by
 * `storeContract` against every adapter: everything is per account, a correction sits beside the
 * result (a new result keeps it), and deleting a document takes its correction and words along.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/names.js';
import type { NewDocument, Store } from '../../src/store/index.js';
import type { PartsHarness } from './contract-parts.js';

const doc = (): NewDocument => ({ id: newId('doc'), filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 1, sha256: 'ab'.repeat(32), blob_key: `k-${newId('req')}` });
const ok = (total: number) => ({ status: 'succeeded' as const, page_count: 1, result_json: JSON.stringify({ tables: [], line_items: [], fields: { total: { value: total } } }) });

export function reviewContract(name: string, harness: PartsHarness & { fresh(): Promise<Store> }): void {
  describe(`Store contract (review): ${name}`, () => {
    async function done(s: Store, account: string, options: string | null = null) {
      const acc = await s.getOrCreateAccount(account, 1);
      const d = doc();
      await s.insertDocuments(acc.id, 'b', [d], 1);
      await s.submitBatch(acc.id, 'b', 2, { options_json: options });
      const [c] = await s.claimDocuments(1, 30_000, 3);
      expect(await s.completeDocument(c!.id, c!.attempt, ok(10), 4)).toBe(true);
      return { acc, id: d.id, batchId: c!.batch_id };
    }

    it('a correction is kept beside the result, per account, survives a new result and goes with its document', async () => {
      const s = await harness.fresh();
      try {
        const a = await done(s, 'a', '{"custom_fields":[{"name":"po","labels":["PO"],"type":"text"}]}');
        const other = await s.getOrCreateAccount('other', 1);
        expect(await s.review.putCorrection(other.id, a.id, '{"fields":{}}', 5)).toBe(false);
        expect(await s.review.putCorrection(a.acc.id, a.id, '{"fields":{"total":{"value":12}}}', 5)).toBe(true);
        expect(await s.review.getCorrection(other.id, a.id)).toBeNull();
        expect(JSON.parse((await s.review.getCorrection(a.acc.id, a.id))!)).toEqual({ fields: { total: { value: 12 } } });
        const row = await s.getDocumentResult(a.acc.id, a.id);
        expect(JSON.parse(row!.result_json!).fields.total.value).toBe(10);
        expect(JSON.parse(row!.corrections_json!).fields.total.value).toBe(12);
        const page = await s.listBatchResults(a.acc.id, a.batchId, { cursor: null, limit: 10 });
        expect(JSON.parse(page.items[0]!.corrections_json!).fields.total.value).toBe(12);
        // Replaced, not duplicated.
        await s.review.putCorrection(a.acc.id, a.id, '{"fields":{"total":{"value":13}}}', 6);
        expect(JSON.parse((await s.review.getCorrection(a.acc.id, a.id))!).fields.total.value).toBe(13);
        // Stored only over the correction the writer read: one stored meanwhile is kept.
        const seen = (await s.review.getCorrection(a.acc.id, a.id))!;
        expect(await s.review.putCorrection(a.acc.id, a.id, '{"fields":{"total":{"value":14}}}', 6, seen)).toBe(true);
        expect(await s.review.putCorrection(a.acc.id, a.id, '{"fields":{"total":{"value":15}}}', 6, seen)).toBe(false);
        expect(JSON.parse((await s.review.getCorrection(a.acc.id, a.id))!).fields.total.value).toBe(14);
        expect(await s.review.putCorrection(a.acc.id, a.id, '{"fields":{"total":{"value":15}}}', 6, null)).toBe(false);
        expect(await s.review.putCorrection(other.id, a.id, '{"fields":{}}', 6, seen)).toBe(false);
        expect(await s.review.getOptions(a.acc.id, a.id)).toContain('"po"');
        expect(await s.review.getOptions(other.id, a.id)).toBeNull();

        // A result written while a correction stands (a document read again) leaves the correction.
        const acc2 = await s.getOrCreateAccount('again', 1);
        const d2 = doc();
        await s.insertDocuments(acc2.id, 'b', [d2], 1);
        await s.submitBatch(acc2.id, 'b', 2);
        const [c2] = await s.claimDocuments(1, 30_000, 3);
        expect(await s.review.putCorrection(acc2.id, d2.id, '{"fields":{"total":{"value":5}}}', 3, null)).toBe(true);
        expect(await s.completeDocument(c2!.id, c2!.attempt, ok(11), 4)).toBe(true);
        const r2 = await s.getDocumentResult(acc2.id, d2.id);
        expect([JSON.parse(r2!.result_json!).fields.total.value, JSON.parse(r2!.corrections_json!).fields.total.value]).toEqual([11, 5]);

        await s.review.putWords(a.id, '[{"page":1}]');
        expect(await s.review.getWords(a.acc.id, a.id)).toBe('[{"page":1}]');
        expect(await s.review.getWords(other.id, a.id)).toBeNull();

        expect(await s.review.deleteCorrection(other.id, a.id)).toBe(false);
        expect(await s.review.deleteCorrection(a.acc.id, a.id)).toBe(true);
        expect((await s.getDocumentResult(a.acc.id, a.id))!.corrections_json).toBeNull();
        await s.review.putCorrection(a.acc.id, a.id, '{"fields":{}}', 7);
        expect((await s.deleteDocument(a.acc.id, a.id, 8))?.outcome).toBe('deleted');
        expect(await s.review.getCorrection(a.acc.id, a.id)).toBeNull();
        expect(await s.review.getWords(a.acc.id, a.id)).toBeNull();
      } finally {
        await s.close();
      }
    });

    it('vendor memories are per account, newest first, replaced by id, forgotten by id', async () => {
      const s = await harness.fresh();
      try {
        const a = await s.getOrCreateAccount('va', 1);
        const b = await s.getOrCreateAccount('vb', 1);
        await s.review.putVendor({ id: 'ven_1', account_id: a.id, name: 'One', memory_json: '{"n":1}', created_at: 1, updated_at: 1 });
        await s.review.putVendor({ id: 'ven_2', account_id: a.id, name: 'Two', memory_json: '{"n":2}', created_at: 2, updated_at: 2 });
        await s.review.putVendor({ id: 'ven_1', account_id: a.id, name: 'One', memory_json: '{"n":3}', created_at: 1, updated_at: 3 });
        // Another account cannot overwrite a memory by guessing its id.
        await s.review.putVendor({ id: 'ven_1', account_id: b.id, name: 'Evil', memory_json: '{}', created_at: 4, updated_at: 4 });
        const list = await s.review.listVendors(a.id, 10);
        expect(list.map((v) => [v.id, v.memory_json, v.created_at, v.updated_at])).toEqual([
          ['ven_1', '{"n":3}', 1, 3],
          ['ven_2', '{"n":2}', 2, 2],
        ]);
        expect(await s.review.listVendors(b.id, 10)).toEqual([]);
        expect(await s.review.deleteVendor(b.id, 'ven_1')).toBe(false);
        expect(await s.review.deleteVendor(a.id, 'ven_1')).toBe(true);
        expect((await s.review.listVendors(a.id, 10)).map((v) => v.id)).toEqual(['ven_2']);
      } finally {
        await s.close();
      }
    });
  });
}

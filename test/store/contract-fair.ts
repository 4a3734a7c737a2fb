/**
 * The Store contract of claim order, run by `storeContract` against every adapter on real
 * databases: accounts take turns, then an account's batches, so a huge batch does not hold
 * back another account's single document for more than one claim round.
 */
import { describe, expect, it } from 'vitest';
import { fakeDocument } from '../../bench/seed.js';
import type { Store } from '../../src/store/index.js';
import type { PartsHarness } from './contract-parts.js';

const LEASE = 30_000;
const CLAIM = 4; // the worker claims as many as it has free slots
const ok = { status: 'succeeded' as const, page_count: 1, result_json: '{"tables":[],"line_items":[]}' };

/** Uploads and submits a batch of `n` documents; returns its id. */
async function batchOf(s: Store, accountId: string, name: string, n: number, t: number): Promise<string> {
  for (let at = 0; at < n; at += 5000) {
    await s.insertDocuments(accountId, name, Array.from({ length: Math.min(5000, n - at) }, (_, i) => fakeDocument(at + i)), t);
  }
  await s.submitBatch(accountId, name, t);
  return (await s.getBatch(accountId, name))!.id;
}

/** One worker round: claims `size` documents (default `CLAIM`) and completes them. */
async function round(s: Store, t: number, size = CLAIM) {
  const got = await s.claimDocuments(size, LEASE, t);
  for (const c of got) await s.completeDocument(c.id, c.attempt, ok, t);
  return got;
}

export function fairContract(name: string, harness: PartsHarness): void {
  describe(`Store contract (fair claims): ${name}`, () => {
    it("another account's 1-document batch is taken in the next round while a 10,000-document batch drains", async () => {
      const s = await harness.fresh();
      try {
        const a = await s.getOrCreateAccount('acc-a', 1);
        const b = await s.getOrCreateAccount('acc-b', 1);
        await batchOf(s, a.id, 'huge', 10_000, 10);
        for (let r = 0; r < 3; r++) expect((await round(s, 20 + r)).every((c) => c.account_id === a.id)).toBe(true);
        const small = await batchOf(s, b.id, 'one', 1, 30);
        let takenIn = 0;
        for (let r = 1; r <= 5 && !takenIn; r++) if ((await round(s, 40 + r)).some((c) => c.batch_id === small)) takenIn = r;
        console.log(`fair claims (${name}): B's document taken in round ${takenIn} after its upload (claim size ${CLAIM}, 10,000 of A's pending)`);
        expect(takenIn).toBe(1);
        expect((await s.getBatch(b.id, 'one'))?.counts.succeeded).toBe(1);
      } finally {
        await s.close();
      }
    }, 120_000);

    it("with one free slot per claim, another account's document is taken in the next claim, then the accounts alternate", async () => {
      // A worker whose slots free up one at a time claims one document at a time: the turn must
      // pass between claims, not only within one.
      const s = await harness.fresh();
      try {
        const a = await s.getOrCreateAccount('acc-a', 1);
        const b = await s.getOrCreateAccount('acc-b', 1);
        await batchOf(s, a.id, 'big', 20, 10);
        expect((await round(s, 20, 1))[0].account_id).toBe(a.id);
        await batchOf(s, b.id, 'few', 3, 30);
        const order: string[] = [];
        for (let r = 0; r < 6; r++) order.push((await round(s, 40 + r, 1))[0].account_id === a.id ? 'A' : 'B');
        expect(order.join('')).toBe('BABABA');
      } finally {
        await s.close();
      }
    });

    it('two batches of one account alternate, also one claim of one document at a time', async () => {
      const s = await harness.fresh();
      try {
        const a = await s.getOrCreateAccount('acc-a', 1);
        const first = await batchOf(s, a.id, 'first', 4, 10);
        const second = await batchOf(s, a.id, 'second', 4, 11);
        const order: string[] = [];
        for (let r = 0; r < 6; r++) {
          const id = (await round(s, 20 + r, 1))[0].batch_id;
          order.push(id === first ? '1' : id === second ? '2' : '?');
        }
        expect(order.join('')).toBe('121212');
      } finally {
        await s.close();
      }
    });

    it('two batches of one account alternate', async () => {
      const s = await harness.fresh();
      try {
        const a = await s.getOrCreateAccount('acc-a', 1);
        const first = await batchOf(s, a.id, 'first', 6, 10);
        const second = await batchOf(s, a.id, 'second', 6, 11);
        // Each round takes the batches' next documents in turn: two of each per claim of four.
        const perRound: string[] = [];
        for (let r = 0; r < 3; r++) {
          const got = await round(s, 20 + r);
          perRound.push(`${got.filter((c) => c.batch_id === first).length}+${got.filter((c) => c.batch_id === second).length}`);
        }
        expect(perRound).toEqual(['2+2', '2+2', '2+2']);
      } finally {
        await s.close();
      }
    });
  });
}

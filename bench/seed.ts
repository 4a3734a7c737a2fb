/**
 * Seeds a batch of many documents quickly through the Store interface (uploads in chunks of
 * 5,000 per transaction), for benchmarks: `bench/queue.ts` here, the status benchmark too.
 */
import { randomBytes } from 'node:crypto';
import { newId } from '../src/domain/names.js';
import type { BatchRow, NewDocument, Store } from '../src/store/types.js';

export interface SeedOptions {
  accountId: string;
  batchName: string;
  count: number;
  /** Submit the batch for processing (`uploaded` → `pending`). */
  submit?: boolean;
  /** Then claim this many (public `processing`)… */
  claim?: number;
  /** …and complete this many of the claimed as succeeded (public `succeeded`). */
  complete?: number;
  /** Documents per insert transaction; 5,000 keeps one statement batch well under a second. */
  chunk?: number;
  now?: number;
}

/** A fake upload row: the blob key points nowhere (benchmarks never read the blob). */
export function fakeDocument(i: number): NewDocument {
  return { id: newId('doc'), filename: `doc-${i}.pdf`, content_type: 'application/pdf', size_bytes: 1000 + (i % 1000), sha256: randomBytes(32).toString('hex'), blob_key: randomBytes(16).toString('hex') };
}

/** Seeds the batch and returns its row as it stands afterwards. */
export async function seedBatch(store: Store, o: SeedOptions): Promise<BatchRow> {
  const now = o.now ?? Date.now();
  const chunk = o.chunk ?? 5000;
  for (let at = 0; at < o.count; at += chunk) {
    const docs = Array.from({ length: Math.min(chunk, o.count - at) }, (_, i) => fakeDocument(at + i));
    await store.insertDocuments(o.accountId, o.batchName, docs, now);
  }
  if (o.submit || o.claim || o.complete) await store.submitBatch(o.accountId, o.batchName, now);
  let toClaim = o.claim ?? o.complete ?? 0;
  let toComplete = o.complete ?? 0;
  while (toClaim > 0) {
    const got = await store.claimDocuments(Math.min(500, toClaim), 3_600_000, now);
    if (!got.length) break;
    toClaim -= got.length;
    for (const d of got) {
      if (toComplete-- <= 0) break;
      await store.completeDocument(d.id, d.attempt, { status: 'succeeded', page_count: 1, result_json: '{"tables":[],"line_items":[]}' }, now);
    }
  }
  const batch = await store.getBatch(o.accountId, o.batchName);
  if (!batch) throw new Error(`seeded batch ${o.batchName} is missing`);
  return batch;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/names.js';
import { startLeaseRenewal } from '../../src/worker/lease.js';
import { startReaper } from '../../src/worker/reaper.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';

const root = mkdtempSync(join(tmpdir(), 'tablemill-queue-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

/** A real store with one submitted document. */
async function withPending() {
  const s = new SqliteStore(join(root, `${newId('req')}.db`));
  stores.push(s);
  await s.migrate();
  const acc = await s.getOrCreateAccount('q', Date.now());
  const d = { id: newId('doc'), filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 1, sha256: '0'.repeat(64), blob_key: 'k' };
  await s.insertDocuments(acc.id, 'b', [d], Date.now());
  await s.submitBatch(acc.id, 'b', Date.now());
  return { s, acc, id: d.id };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('lease renewal', () => {
  it('keeps the lease alive past its first expiry', async () => {
    const { s, acc, id } = await withPending();
    const [doc] = await s.claimDocuments(1, 150, Date.now());
    const r = startLeaseRenewal(s, doc, 150);
    await sleep(400);
    expect(await s.reapExpiredLeases(3, Date.now())).toEqual({ requeued: 0, failed: 0 });
    expect((await s.getDocument(acc.id, id))?.lease_until).toBeGreaterThan(Date.now());
    expect(r.lost).toBe(false);
    r.stop();
  });

  it('reports loss once another attempt holds the document', async () => {
    const { s, id } = await withPending();
    const [first] = await s.claimDocuments(1, 150, Date.now());
    let reason = '';
    const r = startLeaseRenewal(s, first, 150, { onLost: (why) => (reason = why) });
    // The worker stalls: its lease is reaped (a clock far ahead) and a second attempt claims it.
    await s.reapExpiredLeases(3, Date.now() + 10_000);
    const [second] = await s.claimDocuments(1, 60_000, Date.now());
    expect(second).toMatchObject({ id, attempt: 2 });
    await sleep(200);
    expect(r.lost).toBe(true);
    expect(r.signal.aborted).toBe(true);
    expect(reason).toMatch(/another attempt/);
    r.stop();
  });

  it('reports loss when renewals keep failing for a whole lease', async () => {
    const { s } = await withPending();
    const [doc] = await s.claimDocuments(1, 120, Date.now());
    await s.close(); // every renewal now throws
    const r = startLeaseRenewal(s, doc, 120);
    await sleep(300);
    expect(r.lost).toBe(true);
    r.stop();
  });
});

describe('reaper', () => {
  it('requeues an expired lease, then fails it with worker_lost after max attempts', async () => {
    const { s, acc, id } = await withPending();
    const reaped: number[] = [];
    const reaper = startReaper(s, { maxAttempts: 2, intervalMs: 30, onReaped: (r) => reaped.push(r.requeued * 10 + r.failed) });
    await s.claimDocuments(1, 50, Date.now());
    for (let i = 0; i < 50 && (await s.getDocument(acc.id, id))?.state !== 'pending'; i++) await sleep(20);
    expect((await s.getDocument(acc.id, id))?.state).toBe('pending');
    await s.claimDocuments(1, 50, Date.now());
    for (let i = 0; i < 50 && (await s.getDocument(acc.id, id))?.state !== 'failed'; i++) await sleep(20);
    const d = await s.getDocument(acc.id, id);
    expect(d).toMatchObject({ state: 'failed', attempts: 2 });
    expect(d?.processing_error?.code).toBe('worker_lost');
    expect(reaped).toEqual([10, 1]);
    await reaper.stop();
  });

  it('keeps going after a failed pass and stops cleanly', async () => {
    const { s } = await withPending();
    const { s: broken } = await withPending();
    await broken.close(); // a real store whose every call now fails
    const errors: unknown[] = [];
    const reaper = startReaper(broken, { maxAttempts: 3, intervalMs: 20, onError: (e) => errors.push(e) });
    await sleep(90);
    await reaper.stop();
    const seen = errors.length;
    expect(seen).toBeGreaterThanOrEqual(2);
    await sleep(60);
    expect(errors.length).toBe(seen);
    const ok = startReaper(s, { maxAttempts: 3, intervalMs: 20 });
    await ok.stop();
  });
});

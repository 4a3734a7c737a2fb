import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, completeAll, open, removeDir, upload, type Harness } from '../webhooks/harness.js';

let h: Harness;
let docId: string;

beforeAll(async () => {
  h = await open({ TABLEMILL_RATE_LIMITS: '0' });
  const res = await upload(h, 'lp', 1);
  docId = (await res.json()).documents[0].id;
});
afterAll(async () => {
  await h.close();
  removeDir(h.dir);
});

describe('ETag and If-None-Match on the status endpoints', () => {

  it('answers 304 with no body for the current version, 200 once it changed', async () => {
    for (const path of ['/v1/batches/lp', `/v1/documents/${docId}`]) {
      const a = await api(h, 'GET', path);
      const etag = a.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      const again = await api(h, 'GET', path);
      expect(again.headers.get('etag')).toBe(etag);
      const nm = await api(h, 'GET', path, undefined, { 'if-none-match': etag });
      expect(nm.status).toBe(304);
      expect(await nm.text()).toBe('');
      expect(nm.headers.get('etag')).toBe(etag);
      // Weak form and lists match too; another tag does not.
      expect((await api(h, 'GET', path, undefined, { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
      expect((await api(h, 'GET', path, undefined, { 'if-none-match': '"other"' })).status).toBe(200);
    }
    const uploaded = await api(h, 'GET', '/v1/batches/lp');
    const before = uploaded.headers.get('etag')!;
    expect(await uploaded.json()).toMatchObject({ status: 'queued', awaiting_process: 1 });
    // Submitting moves the document from awaiting a process call to awaiting a worker: a new tag,
    // and a long-poll that was waiting on the old one answers.
    const waiting = api(h, 'GET', '/v1/batches/lp?wait=10', undefined, { 'if-none-match': before });
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await api(h, 'POST', '/v1/batches/lp/process');
    const woken = await waiting;
    expect(woken.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await woken.json()).toMatchObject({ status: 'queued', awaiting_process: 0, counts: { queued: 1 } });
    const submitted = woken.headers.get('etag')!;
    expect(submitted).not.toBe(before);
    expect((await api(h, 'GET', '/v1/batches/lp', undefined, { 'if-none-match': submitted })).status).toBe(304);
    await upload(h, 'lp', 1);
    const after = await api(h, 'GET', '/v1/batches/lp', undefined, { 'if-none-match': submitted });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(submitted);
    expect(await after.json()).toMatchObject({ awaiting_process: 1 });
  });

  it('does not touch other routes', async () => {
    const res = await api(h, 'GET', '/v1/batches');
    expect(res.headers.get('etag')).toBeNull();
  });
});

describe('?wait=N long-poll', () => {
  it('refuses wait > 30 and non-numbers with 400', async () => {
    for (const w of ['31', '-1', 'abc', '1.5']) {
      const res = await api(h, 'GET', `/v1/batches/lp?wait=${w}`);
      expect(res.status, w).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
  });

  it('answers after N seconds when nothing changes (304 with If-None-Match)', async () => {
    const etag = (await api(h, 'GET', '/v1/batches/lp')).headers.get('etag')!;
    const t0 = Date.now();
    const res = await api(h, 'GET', '/v1/batches/lp?wait=1', undefined, { 'if-none-match': etag });
    const took = Date.now() - t0;
    expect(res.status).toBe(304);
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2000);
  });

  it('answers as soon as the resource changes', async () => {
    const first = await api(h, 'GET', `/v1/documents/${docId}`);
    const etag = first.headers.get('etag')!;
    expect((await first.json()).status).toBe('queued');
    const t0 = Date.now();
    const pending = api(h, 'GET', `/v1/documents/${docId}?wait=10`, undefined, { 'if-none-match': etag });
    await new Promise((r) => setTimeout(r, 400));
    await completeAll(h.store);
    const tChange = Date.now();
    const res = await pending;
    const latency = Date.now() - tChange;
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe('succeeded');
    expect(res.headers.get('etag')).not.toBe(etag);
    expect(Date.now() - t0).toBeLessThan(3000);
    // In-process change signal: far below the 250 ms polling fallback.
    expect(latency).toBeLessThan(200);
  });

  it('a stale If-None-Match answers at once; a missing resource is 404 at once', async () => {
    const t0 = Date.now();
    const res = await api(h, 'GET', '/v1/batches/lp?wait=5', undefined, { 'if-none-match': '"stale"' });
    expect(res.status).toBe(200);
    expect((await api(h, 'GET', '/v1/documents/doc_nope?wait=5')).status).toBe(404);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('sees a change made behind its back (another process) through polling', async () => {
    await upload(h, 'lp2', 1);
    await api(h, 'POST', '/v1/batches/lp2/process');
    const etag = (await api(h, 'GET', '/v1/batches/lp2')).headers.get('etag')!;
    // Write through a second, independent store on the same file: no in-process signal.
    const { openStore } = await import('../../src/store/index.js');
    const other = await openStore(h.config);
    try {
      const pending = api(h, 'GET', '/v1/batches/lp2?wait=10', undefined, { 'if-none-match': etag });
      await new Promise((r) => setTimeout(r, 300));
      const tChange = Date.now();
      expect(await other.claimDocuments(10, 30_000, Date.now())).toHaveLength(1);
      const res = await pending;
      expect(res.status).toBe(200);
      expect((await res.json()).status).toBe('processing');
      expect(Date.now() - tChange).toBeLessThan(600);
    } finally {
      await other.close();
    }
  });
});

describe('?wait=N without If-None-Match', () => {
  it('waits for the whole batch to finish, not for its first change, and a finished batch answers at once', async () => {
    await upload(h, 'lp3', 2);
    await api(h, 'POST', '/v1/batches/lp3/process');
    const t0 = Date.now();
    const pending = api(h, 'GET', '/v1/batches/lp3?wait=20');
    await new Promise((r) => setTimeout(r, 300));
    // One of the two documents finishes: a change, but not the end.
    const [first] = await h.store.claimDocuments(1, 30_000, Date.now());
    await h.store.completeDocument(first.id, first.attempt, { status: 'succeeded', page_count: 1, result_json: '{}' }, Date.now());
    await new Promise((r) => setTimeout(r, 600));
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    const tDone = Date.now();
    await completeAll(h.store);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ all_done: true, counts: { succeeded: 2 } });
    // At the completion, not at the end of the wait (generous bounds for a loaded machine).
    expect(Date.now() - tDone).toBeLessThan(2000);
    expect(Date.now() - t0).toBeLessThan(15_000);

    const t1 = Date.now();
    const done = await api(h, 'GET', '/v1/batches/lp3?wait=5');
    expect(done.status).toBe(200);
    expect(Date.now() - t1).toBeLessThan(1000);
    // The same with the finished state's ETag: nothing will change, so 304 after the wait.
    const t2 = Date.now();
    const still = await api(h, 'GET', '/v1/batches/lp3?wait=1', undefined, { 'if-none-match': done.headers.get('etag')! });
    expect(still.status).toBe(304);
    expect(Date.now() - t2).toBeGreaterThanOrEqual(950);
  });

  it('a document waits until it is terminal; a terminal one answers at once', async () => {
    const up = await upload(h, 'lp4', 1);
    const id = (await up.json()).documents[0].id;
    await api(h, 'POST', '/v1/batches/lp4/process');
    const pending = api(h, 'GET', `/v1/documents/${id}?wait=20`);
    await new Promise((r) => setTimeout(r, 300));
    // Claimed: queued → processing is a change, not the end.
    const [claimed] = await h.store.claimDocuments(1, 30_000, Date.now());
    await new Promise((r) => setTimeout(r, 600));
    await h.store.completeDocument(claimed.id, claimed.attempt, { status: 'succeeded', page_count: 1, result_json: '{}' }, Date.now());
    const res = await pending;
    expect((await res.json()).status).toBe('succeeded');
    const t0 = Date.now();
    expect((await api(h, 'GET', `/v1/documents/${id}?wait=5`)).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('an unfinished batch answers after N seconds with its state then', async () => {
    await upload(h, 'lp5', 1);
    const t0 = Date.now();
    const res = await api(h, 'GET', '/v1/batches/lp5?wait=1');
    expect(res.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(await res.json()).toMatchObject({ all_done: false, awaiting_process: 1 });
  });
});

describe('shutdown', () => {
  it('a waiting request answers at once when the app closes', async () => {
    const own = await open({ TABLEMILL_RATE_LIMITS: '0' });
    await upload(own, 'bye', 1);
    const etag = (await api(own, 'GET', '/v1/batches/bye')).headers.get('etag')!;
    const pending = api(own, 'GET', '/v1/batches/bye?wait=30', undefined, { 'if-none-match': etag });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    await own.close();
    const res = await pending;
    expect(res.status).toBe(304);
    expect(Date.now() - t0).toBeLessThan(3000);
    removeDir(own.dir);
  });
});

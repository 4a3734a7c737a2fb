// kill -9 loses nothing: a 201 upload survives with its bytes, and a document whose worker died
// mid-extraction is handed to the next process once its lease runs out.
import { afterAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/api/auth.js';
import { TablemillClient } from '@tablemill/client';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { icdarPdf, scannedPdf } from './fixtures.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from './server.js';

const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_LEASE_MS: '2000', TABLEMILL_POLL_MS: '200' };
const running: ServeProcess[] = [];
afterAll(async () => {
  for (const s of running) await s.kill9();
});

describe('durability', () => {
  it('survives kill -9: uploads and their bytes are kept, an interrupted document runs again', async () => {
    const key = createKeyCli(env, 'acme');
    const first = await serve(env);
    running.push(first);
    let client = new TablemillClient(first.url, key);
    const kept = (await client.upload('kept', [{ filename: 'eu-005.pdf', data: icdarPdf('eu-005') }])).documents[0];
    const slow = (await client.upload('slow', [{ filename: 'scanned.pdf', data: await scannedPdf() }])).documents[0];
    await client.process('slow');
    const deadline = Date.now() + 30_000;
    while ((await client.getDocument(slow.id)).status !== 'processing') {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    await first.kill9();

    // The restarted server gives up on the scanned file after 10 s: enough to show it ran again,
    // and 20× what eu-005 needs on a warm thread (a 3 s limit failed it once at load 10).
    const second = await serve({ ...env, TABLEMILL_DOCUMENT_TIMEOUT_MS: '10000' });
    running.push(second);
    client = new TablemillClient(second.url, key);
    expect(await client.getDocument(kept.id)).toMatchObject({ status: 'queued', sha256: kept.sha256, size_bytes: kept.size_bytes });
    expect(Buffer.compare((await client.documentFile(kept.id)).bytes, icdarPdf('eu-005'))).toBe(0);
    await client.process('kept');
    await client.waitUntilDone('kept', { timeoutMs: 90_000 });
    const keptDoc = await client.getDocument(kept.id);
    expect(keptDoc.status, JSON.stringify(keptDoc.processing_error)).toBe('succeeded');

    expect((await client.waitUntilDone('slow', { timeoutMs: 90_000 })).counts.failed).toBe(1);
    const doc = await client.getDocument(slow.id);
    expect(doc).toMatchObject({ status: 'failed', processing_error: { code: 'timeout' } });
    expect(await second.stop()).toBe(0);
    const store = await openStore(loadConfig(env));
    try {
      const account = await store.findAccountByKeyHash(hashApiKey(key));
      // Attempt 1 died with the first server; attempt 2 ran (and timed out) on the second.
      expect((await store.getDocument(account!.id, slow.id))!.attempts).toBe(2);
    } finally {
      await store.close();
    }
  }, 180_000);

  it('SIGTERM lets the document in flight finish and write its outcome before exiting', async () => {
    const own = { ...env, TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_DOCUMENT_TIMEOUT_MS: '3000', TABLEMILL_LEASE_MS: '30000' };
    const key = createKeyCli(own, 'acme');
    const server = await serve(own);
    running.push(server);
    const client = new TablemillClient(server.url, key);
    const doc = (await client.upload('term', [{ filename: 'scanned.pdf', data: await scannedPdf(2) }])).documents[0];
    await client.process('term');
    while ((await client.getDocument(doc.id)).status !== 'processing') await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    expect(await server.stop()).toBe(0);
    // The 3 s limit ends the document; the rest of the shutdown is bounded (pool close ≤ 2 s).
    expect(Date.now() - t0).toBeLessThan(20_000);
    // Written by the stopping server itself (a 30 s lease: the reaper cannot have done it).
    const store = await openStore(loadConfig(own));
    try {
      const account = await store.findAccountByKeyHash(hashApiKey(key));
      const row = await store.getDocument(account!.id, doc.id);
      expect(row).toMatchObject({ state: 'failed', attempts: 1, processing_error: { code: 'timeout' } });
    } finally {
      await store.close();
    }
  }, 120_000);

  it('restarts cut a long document short without using up its attempts: three SIGTERMs, then it succeeds', async () => {
    // A 500 ms grace: each stop cuts the document short and gives its lease back. A 60 s lease keeps
    // the reaper out of it, so only a release can return the document to the queue.
    const own = { ...env, TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_SHUTDOWN_GRACE_MS: '500', TABLEMILL_LOG_LEVEL: 'info', TABLEMILL_LEASE_MS: '60000', TABLEMILL_MAX_ATTEMPTS: '3', TABLEMILL_DOCUMENT_TIMEOUT_MS: '120000' };
    const key = createKeyCli(own, 'acme');
    let doc: { id: string } | undefined;
    for (let restart = 0; restart < 3; restart++) {
      const server = await serve(own);
      running.push(server);
      const client = new TablemillClient(server.url, key);
      if (!doc) {
        doc = (await client.upload('long', [{ filename: 'scanned.pdf', data: await scannedPdf(3) }])).documents[0];
        await client.process('long');
      }
      const deadline = Date.now() + 60_000;
      while ((await client.getDocument(doc.id)).status !== 'processing') {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
      // Let the worker start on it, then deploy.
      await new Promise((r) => setTimeout(r, 1000));
      expect(await server.stop()).toBe(0);
      expect(server.output()).toContain('lease given back at shutdown');
      // Back in the queue, publicly still `processing` (a status never moves backwards).
      const store = await openStore(loadConfig(own));
      try {
        const account = await store.findAccountByKeyHash(hashApiKey(key));
        const row = await store.getDocument(account!.id, doc.id);
        expect(row).toMatchObject({ state: 'pending', attempts: restart + 1 });
      } finally {
        await store.close();
      }
    }
    const last = await serve(own);
    running.push(last);
    const client = new TablemillClient(last.url, key);
    await client.waitUntilDone('long', { timeoutMs: 150_000 });
    const finished = await client.getDocument(doc!.id);
    expect(finished.status, JSON.stringify(finished.processing_error)).toBe('succeeded');
    expect(await last.stop()).toBe(0);
    const store = await openStore(loadConfig(own));
    try {
      const account = await store.findAccountByKeyHash(hashApiKey(key));
      // Four claims, three of them given back: more than TABLEMILL_MAX_ATTEMPTS, and not worker_lost.
      expect(await store.getDocument(account!.id, doc!.id)).toMatchObject({ state: 'succeeded', attempts: 4 });
    } finally {
      await store.close();
    }
  }, 300_000);
});

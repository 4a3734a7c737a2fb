/** An HTTP server on SQLite with real extraction workers, and the calls the review tests make. */
import { expect } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { startWorkers, type Workers } from '../../src/worker/loop.js';
import { open, type Harness } from '../webhooks/harness.js';

export interface ReviewHarness extends Harness {
  workers: Workers;
  /** A key of another account. */
  keyOf(account: string): Promise<string>;
}

export async function openReview(): Promise<ReviewHarness> {
  const h = await open({ TABLEMILL_RATE_LIMITS: '0' });
  const workers = await startWorkers({ config: { ...h.config, worker: { ...h.config.worker, concurrency: 1 } }, store: h.store, blobs: h.store.blobs });
  return {
    ...h,
    workers,
    keyOf: async (account) => (await createKey(h.store, account, Date.now())).key,
    async close() {
      await workers.stop(1000);
      await h.close();
    },
  };
}

export async function call(h: Harness, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(h.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** Uploads the files into `batch`, processes it (with `body`) and waits until it is all done; the documents' ids by filename. */
export async function processFiles(h: Harness, key: string, batch: string, files: { name: string; bytes: Uint8Array }[], body?: unknown): Promise<Map<string, string>> {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([f.bytes]), f.name);
  const up = await fetch(`${h.url}/v1/batches/${batch}/documents`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  expect(up.status).toBe(201);
  const ids = new Map<string, string>(((await up.json()) as any).documents.map((d: any) => [d.filename, d.id]));
  expect((await call(h, key, 'POST', `/v1/batches/${batch}/process`, body)).status).toBe(202);
  for (let i = 0; i < 240; i++) {
    const b = await call(h, key, 'GET', `/v1/batches/${batch}?wait=5`);
    if (b.json.all_done) return ids;
  }
  throw new Error(`batch ${batch} did not finish`);
}

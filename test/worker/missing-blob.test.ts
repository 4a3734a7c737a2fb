/**
 * A document whose original file is gone while its row stays (a power loss that took the file, a
 * database restored without its blobs) ends `failed` with a processing error that names the
 * cause, and its batch finishes: the worker neither retries it forever nor stops.
 */
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, openReview, type ReviewHarness } from '../review/harness.js';
import { PDF, removeDir } from '../webhooks/harness.js';

let h: ReviewHarness;
beforeAll(async () => {
  h = await openReview();
}, 60_000);
afterAll(async () => {
  await h?.close();
  if (h) removeDir(h.dir);
});

it('a row without its blob file ends failed, saying the original file is missing', async () => {
  const form = new FormData();
  form.append('file', new Blob([PDF]), 'report.pdf');
  const up = await fetch(`${h.url}/v1/batches/lost/documents`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: form });
  expect(up.status).toBe(201);
  const id: string = ((await up.json()) as { documents: { id: string }[] }).documents[0].id;
  const account = await h.store.getOrCreateAccount('acme', Date.now());
  const key = (await h.store.getDocument(account.id, id))!.blob_key;
  unlinkSync(join(h.dir, 'blobs', key.slice(0, 2), key));

  expect((await call(h, h.key, 'POST', '/v1/batches/lost/process')).status).toBe(202);
  let batch: any;
  for (let i = 0; i < 60 && !batch?.all_done; i++) batch = (await call(h, h.key, 'GET', '/v1/batches/lost?wait=5')).json;
  expect(batch).toMatchObject({ all_done: true, counts: { failed: 1 } });
  const doc = (await call(h, h.key, 'GET', `/v1/documents/${id}`)).json;
  expect(doc.status).toBe('failed');
  expect(doc.processing_error).toEqual({ code: 'extraction_failed', message: `original file unreadable: blob ${key} not found` });
}, 120_000);

/**
 * The v1 flow of API.md §1–§5 against a real `tablemill serve` over real HTTP, registered for a
 * given database environment (SQLite by default, PostgreSQL by flow-postgres.test.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TablemillApiError, TablemillClient, type BatchView, type DocumentView } from '@tablemill/client';
import { ICDAR_DIR, icdarPdf, notADocument } from './fixtures.js';
import { createKeyCli, extractCli, serve, tempDataDir, type ServeProcess } from './server.js';

const t = (s: string | null) => (s === null ? null : Date.parse(s));

/** created_at ≤ started_at ≤ completed_at where set. */
function expectChain(x: { created_at: string; started_at: string | null; completed_at: string | null }) {
  const c = t(x.created_at)!;
  const s = t(x.started_at);
  const e = t(x.completed_at);
  if (s !== null) expect(c).toBeLessThanOrEqual(s);
  if (e !== null) expect(s ?? c).toBeLessThanOrEqual(e);
}

async function expectApiError(p: Promise<unknown>, status: number, code: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TablemillApiError);
  expect((err as TablemillApiError).status).toBe(status);
  expect((err as TablemillApiError).code).toBe(code);
  expect((err as TablemillApiError).requestId).toMatch(/^req_/);
}

/** Registers the flow; `dbEnv()` gives the database settings (called in beforeAll). */
export function registerFlow(label: string, dbEnv: () => Promise<Record<string, string>> | Record<string, string>, cleanup?: () => Promise<void>) {
  describe(`v1 flow over HTTP (${label})`, () => {
    let server: ServeProcess;
    let client: TablemillClient;
    let other: TablemillClient;
    let env: Record<string, string>;

    beforeAll(async () => {
      // One thread: two cores are shared by the whole suite. 2 MiB files keep the 413 case small.
      env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_MAX_FILE_MB: '2', TABLEMILL_POLL_MS: '200', ...(await dbEnv()) };
      const key = createKeyCli(env, 'acme');
      const otherKey = createKeyCli(env, 'globex');
      expect(key).toMatch(/^tm_[A-Za-z0-9_-]{43}$/);
      server = await serve(env);
      client = new TablemillClient(server.url, key);
      other = new TablemillClient(server.url, otherKey);
    });
    afterAll(async () => {
      const code = await server?.stop();
      expect(code).toBe(0);
      await cleanup?.();
    });

    let firstDone: BatchView;
    let uploaded: DocumentView[];

    it('upload stores queued documents and does not process them', async () => {
      const res = await client.upload('q1', [
        { filename: 'eu-005.pdf', data: icdarPdf('eu-005') },
        { filename: 'eu-006.pdf', data: icdarPdf('eu-006'), contentType: 'image/png' },
      ]);
      uploaded = res.documents;
      expect(uploaded.map((d) => d.content_type)).toEqual(['application/pdf', 'application/pdf']);
      await new Promise((r) => setTimeout(r, 1000));
      const batch = await client.getBatch('q1');
      expect(batch).toMatchObject({ status: 'queued', all_done: false, document_count: 2, started_at: null, completed_at: null });
      for (const d of uploaded) expect(await client.getDocument(d.id)).toMatchObject({ status: 'queued', started_at: null });
    });

    it('process → all_done, with the timestamp chain and the aggregation rules', async () => {
      const p = await client.process('q1');
      expect(p.submitted).toBe(2);
      firstDone = await client.waitUntilDone('q1', { timeoutMs: 90_000 });
      expect(firstDone).toMatchObject({ status: 'succeeded', all_done: true, counts: { queued: 0, processing: 0, succeeded: 2, failed: 0, canceled: 0 } });
      expectChain(firstDone);
      const docs = await client.results('q1', 1);
      expect(docs.map((d) => d.id)).toEqual(uploaded.map((d) => d.id));
      for (const d of docs) {
        expect(d.status).toBe('succeeded');
        expect(d.page_count).toBeGreaterThan(0);
        expectChain(d);
        expect(d.started_at).not.toBeNull();
      }
      expect(firstDone.created_at).toBe(docs.map((d) => d.created_at).sort()[0]);
      expect(firstDone.started_at).toBe(docs.map((d) => d.started_at!).sort()[0]);
      expect(firstDone.completed_at).toBe(docs.map((d) => d.completed_at!).sort().at(-1));
    });

    it('results through the API equal what `tablemill extract FILE` prints', async () => {
      const viaApi = await client.documentResults(uploaded[0].id);
      const direct = extractCli(join(ICDAR_DIR, 'eu-005.pdf'));
      expect(viaApi.tables).toEqual(direct.tables);
      expect(viaApi.line_items).toEqual(direct.line_items);
      expect(viaApi.totals).toEqual(direct.totals);
      expect(viaApi.page_count).toBe(direct.page_count);
      const file = await client.documentFile(uploaded[0].id);
      expect(Buffer.compare(file.bytes, icdarPdf('eu-005'))).toBe(0);
      expect(file.contentType).toBe('application/pdf');
    });

    it('adding a document re-opens a finished batch until it is processed again', async () => {
      await client.upload('q1', [{ filename: 'eu-007.pdf', data: icdarPdf('eu-007') }]);
      const reopened = await client.getBatch('q1');
      expect(reopened).toMatchObject({ all_done: false, completed_at: null, status: 'processing', document_count: 3 });
      expect(reopened.counts).toMatchObject({ queued: 1, succeeded: 2 });
      expect((await client.process('q1')).submitted).toBe(1);
      const again = await client.waitUntilDone('q1', { timeoutMs: 90_000 });
      expect(again.counts.succeeded).toBe(3);
      expect(t(again.completed_at)!).toBeGreaterThanOrEqual(t(firstDone.completed_at)!);
      expect(again.created_at).toBe(firstDone.created_at);
      expect(again.started_at).toBe(firstDone.started_at);
    });

    it('deleting a batch cancels its queued documents and frees the name', async () => {
      const up = await client.upload('d1', [
        { filename: 'a.pdf', data: icdarPdf('eu-005') },
        { filename: 'b.pdf', data: icdarPdf('eu-006') },
      ]);
      const final = await client.deleteBatch('d1');
      expect(final).toMatchObject({ status: 'canceled', all_done: true, counts: { canceled: 2 } });
      expectChain(final);
      for (const d of up.documents) {
        const doc = await client.getDocument(d.id);
        expect(doc.status).toBe('canceled');
        expect(doc.started_at).toBeNull();
        expect(doc.completed_at).not.toBeNull();
      }
      await expectApiError(client.getBatch('d1'), 404, 'batch_not_found');
      expect((await client.upload('d1', [{ filename: 'c.pdf', data: icdarPdf('eu-005') }])).documents).toHaveLength(1);
      expect((await client.getBatch('d1')).document_count).toBe(1);
    });

    it('accounts are isolated: foreign names and ids answer 404 like missing ones', async () => {
      await expectApiError(other.getBatch('q1'), 404, 'batch_not_found');
      await expectApiError(other.getBatch('never-was'), 404, 'batch_not_found');
      await expectApiError(other.getDocument(uploaded[0].id), 404, 'document_not_found');
      await expectApiError(other.documentResults(uploaded[0].id), 404, 'document_not_found');
      await expectApiError(other.getDocument('doc_00000000000000000000000000000000'), 404, 'document_not_found');
      expect((await other.listBatches()).batches).toEqual([]);
    });

    it('answers 400, 401, 404, 413 and 415 with the error envelope', async () => {
      await expectApiError(client.getBatch('bad name!'), 400, 'invalid_request');
      await expectApiError(new TablemillClient(server.url, 'tm_wrong').getBatch('q1'), 401, 'unauthorized');
      await expectApiError(client.request('GET', '/v1/nothing'), 404, 'not_found');
      const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024, 0x41)]);
      await expectApiError(client.upload('errs', [{ filename: 'big.pdf', data: big }]), 413, 'file_too_large');
      await expectApiError(client.upload('errs', [{ filename: 'x.zip', data: notADocument() }]), 415, 'unsupported_media_type');
      await expectApiError(client.getBatch('errs'), 404, 'batch_not_found');
      const raw = await fetch(`${server.url}/v1/batches`, { headers: { authorization: 'Basic x' } });
      expect(raw.status).toBe(401);
      const body = (await raw.json()) as { error: { request_id: string } };
      expect(body.error.request_id).toBe(raw.headers.get('x-request-id'));
    });
  });
}

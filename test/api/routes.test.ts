import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { icdarPdf, notADocument } from '../e2e/fixtures.js';
import { multipart, openApi, type ApiHarness } from './harness.js';

let h: ApiHarness;
let alice: string;
let bob: string;
const pdf = icdarPdf('eu-005');

beforeAll(async () => {
  // 1 MiB files and 3 files a request keep the limit tests small.
  h = await openApi({ TABLEMILL_MAX_FILE_MB: '1', TABLEMILL_MAX_FILES: '3' });
  alice = await h.key('alice');
  bob = await h.key('bob');
});
afterAll(async () => h?.close());

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function upload(key: string, batch: string, files: { name: string; bytes: Uint8Array; field?: string }[]) {
  const body = await multipart(files);
  return h.app.inject({ method: 'POST', url: `/v1/batches/${batch}/documents`, payload: body.payload, headers: { ...body.headers, ...auth(key) } });
}

function expectEnvelope(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  expect(res.headers['x-request-id']).toBe(body.error.request_id);
}

function blobCount(): number {
  const walk = (d: string): number =>
    readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? walk(join(d, e.name)) : 1), 0);
  try {
    return walk(join(h.dir, 'blobs'));
  } catch {
    return 0;
  }
}

describe('auth and the error envelope', () => {
  it('401 without or with an unknown key; 404 envelope for unknown routes', async () => {
    expectEnvelope(await h.app.inject({ url: '/v1/batches' }), 401, 'unauthorized');
    expectEnvelope(await h.app.inject({ url: '/v1/batches', headers: auth('tm_nope') }), 401, 'unauthorized');
    expectEnvelope(await h.app.inject({ url: '/v2/nothing' }), 404, 'not_found');
  });

  it('400 invalid_request for bad names, queries and cursors, with details', async () => {
    const bad = await h.app.inject({ url: '/v1/batches/-bad', headers: auth(alice) });
    expectEnvelope(bad, 400, 'invalid_request');
    expect(bad.json().error.details.errors.length).toBeGreaterThan(0);
    expectEnvelope(await h.app.inject({ url: '/v1/batches?limit=0', headers: auth(alice) }), 400, 'invalid_request');
    expectEnvelope(await h.app.inject({ url: '/v1/batches?cursor=garbage', headers: auth(alice) }), 400, 'invalid_request');
  });
});

describe('long names and URLs', () => {
  it('a batch name of 128 characters works; longer ones and overlong or malformed paths get a 400 envelope', async () => {
    const name = 'n' + 'x'.repeat(127);
    expect((await upload(alice, name, [{ name: 'a.pdf', bytes: pdf }])).statusCode).toBe(201);
    const got = await h.app.inject({ url: `/v1/batches/${name}`, headers: auth(alice) });
    expect(got.statusCode).toBe(200);
    expect(got.json().batch_name).toBe(name);
    expect((await h.app.inject({ method: 'POST', url: `/v1/batches/${name}/process`, headers: auth(alice) })).statusCode).toBe(202);
    expectEnvelope(await h.app.inject({ url: `/v1/batches/${name}x`, headers: auth(alice) }), 400, 'invalid_request');
    const huge = await h.app.inject({ url: `/v1/batches/${'y'.repeat(300)}`, headers: auth(alice) });
    expectEnvelope(huge, 400, 'invalid_request');
    expect(huge.headers['x-content-type-options']).toBe('nosniff');
    expectEnvelope(await h.app.inject({ url: '/v1/batches/%E0%A4%A', headers: auth(alice) }), 400, 'invalid_request');
  });
});

describe('upload', () => {
  it('stores files as queued documents with the sniffed type, and does not process them', async () => {
    const res = await upload(alice, 'inv-1', [
      { name: 'a.pdf', bytes: pdf },
      { name: 'dir/b.bin', bytes: pdf },
    ]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.batch_name).toBe('inv-1');
    expect(body.documents).toHaveLength(2);
    for (const d of body.documents) {
      expect(d).toMatchObject({ status: 'queued', content_type: 'application/pdf', size_bytes: pdf.length, page_count: null, started_at: null, completed_at: null });
      expect(d.id).toMatch(/^doc_/);
      expect(d.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(body.documents[1].filename).toBe('b.bin');
    const batch = (await h.app.inject({ url: '/v1/batches/inv-1', headers: auth(alice) })).json();
    expect(batch).toMatchObject({ status: 'queued', all_done: false, document_count: 2, counts: { queued: 2 }, awaiting_process: 2 });
  });

  it('is atomic: one refused file (415, 413, too many) stores nothing and leaves no blob', async () => {
    const before = blobCount();
    const r415 = await upload(alice, 'atomic', [{ name: 'ok.pdf', bytes: pdf }, { name: 'x.zip', bytes: notADocument() }]);
    expectEnvelope(r415, 415, 'unsupported_media_type');
    expect(r415.json().error.details.filename).toBe('x.zip');
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 * 1024 + 10, 0x20)]);
    expectEnvelope(await upload(alice, 'atomic', [{ name: 'ok.pdf', bytes: pdf }, { name: 'big.pdf', bytes: big }]), 413, 'file_too_large');
    const four = Array.from({ length: 4 }, (_, i) => ({ name: `${i}.pdf`, bytes: pdf }));
    expectEnvelope(await upload(alice, 'atomic', four), 413, 'too_many_files');
    expect(blobCount()).toBe(before);
    expectEnvelope(await h.app.inject({ url: '/v1/batches/atomic', headers: auth(alice) }), 404, 'batch_not_found');
  });

  it('400 for malformed multipart (no boundary, cut off mid-part), leaving no blob or temp file', async () => {
    const before = blobCount();
    const post = (ct: string, payload: string) =>
      h.app.inject({ method: 'POST', url: '/v1/batches/cut/documents', headers: { ...auth(alice), 'content-type': ct }, payload });
    expectEnvelope(await post('multipart/form-data', 'x'), 400, 'invalid_request');
    const cut = '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 and then nothing';
    const res = await post('multipart/form-data; boundary=zz', cut);
    expectEnvelope(res, 400, 'invalid_request');
    expect(res.json().error.message).toContain('malformed multipart');
    expect(blobCount()).toBe(before);
  });

  it('400 with no file part, 415 when the body is not multipart', async () => {
    expectEnvelope(await upload(alice, 'empty', [{ name: 'a.pdf', bytes: pdf, field: 'other' }]), 400, 'invalid_request');
    const json = await h.app.inject({ method: 'POST', url: '/v1/batches/x/documents', payload: { a: 1 }, headers: auth(alice) });
    expectEnvelope(json, 415, 'unsupported_media_type');
  });
});

describe('batches and documents', () => {
  it('keeps accounts apart: a foreign name or id answers 404 like a missing one', async () => {
    const doc = (await upload(alice, 'private', [{ name: 'a.pdf', bytes: pdf }])).json().documents[0];
    expectEnvelope(await h.app.inject({ url: '/v1/batches/private', headers: auth(bob) }), 404, 'batch_not_found');
    expectEnvelope(await h.app.inject({ url: `/v1/documents/${doc.id}`, headers: auth(bob) }), 404, 'document_not_found');
    const foreign = await h.app.inject({ url: `/v1/documents/${doc.id}/file`, headers: auth(bob) });
    expectEnvelope(foreign, 404, 'document_not_found');
    expect(foreign.headers['x-content-type-options']).toBe('nosniff');
    expectEnvelope(await h.app.inject({ method: 'DELETE', url: `/v1/documents/${doc.id}`, headers: auth(bob) }), 404, 'document_not_found');
    expectEnvelope(await h.app.inject({ method: 'POST', url: '/v1/batches/private/process', headers: auth(bob) }), 404, 'batch_not_found');
    expect((await h.app.inject({ url: '/v1/batches', headers: auth(bob) })).json().batches).toEqual([]);
    // Bob may use the same name for a batch of his own.
    expect((await upload(bob, 'private', [{ name: 'b.pdf', bytes: pdf }])).statusCode).toBe(201);
  });

  it('serves the original bytes unchanged with the sniffed type and the filename', async () => {
    const doc = (await upload(alice, 'files', [{ name: 'Rechnung März.pdf', bytes: pdf }])).json().documents[0];
    const res = await h.app.inject({ url: `/v1/documents/${doc.id}/file`, headers: auth(alice) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    // A browser must not take an uploaded file for HTML or script, whatever its bytes look like.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Rechnung März.pdf')}`);
    expect(Buffer.compare(res.rawPayload, pdf)).toBe(0);
    const result = (await h.app.inject({ url: `/v1/documents/${doc.id}/results`, headers: auth(alice) })).json();
    expect(result).toMatchObject({ id: doc.id, status: 'queued', document_type: null, fields: null, line_items: null, tables: null, totals: null });
  });

  it('lists batches newest first with a cursor', async () => {
    for (const n of ['p1', 'p2', 'p3']) await upload(alice, n, [{ name: 'a.pdf', bytes: pdf }]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = (await h.app.inject({ url: `/v1/batches?limit=2${q}`, headers: auth(alice) })).json();
      expect(page.batches.length).toBeLessThanOrEqual(2);
      seen.push(...page.batches.map((b: { batch_name: string }) => b.batch_name));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.slice(0, 3)).toEqual(['p3', 'p2', 'p1']);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain('inv-1');
  });

  it('process submits once; delete cancels queued documents and frees the name', async () => {
    await upload(alice, 'del', [{ name: 'a.pdf', bytes: pdf }, { name: 'b.pdf', bytes: pdf }]);
    const p1 = await h.app.inject({ method: 'POST', url: '/v1/batches/del/process', headers: auth(alice) });
    expect(p1.statusCode).toBe(202);
    expect(p1.json()).toMatchObject({ batch_name: 'del', submitted: 2, batch: { status: 'queued', awaiting_process: 0 } });
    expect((await h.app.inject({ method: 'POST', url: '/v1/batches/del/process', headers: auth(alice) })).json().submitted).toBe(0);
    const docs = (await h.app.inject({ url: '/v1/batches/del/results', headers: auth(alice) })).json().documents;
    const del = await h.app.inject({ method: 'DELETE', url: '/v1/batches/del', headers: auth(alice) });
    expect(del.statusCode).toBe(202);
    expect(del.json()).toMatchObject({ status: 'canceled', all_done: true, counts: { canceled: 2 }, awaiting_process: 0 });
    expectEnvelope(await h.app.inject({ url: '/v1/batches/del', headers: auth(alice) }), 404, 'batch_not_found');
    const doc = (await h.app.inject({ url: `/v1/documents/${docs[0].id}`, headers: auth(alice) })).json();
    expect(doc).toMatchObject({ status: 'canceled', started_at: null });
    expect(doc.completed_at).not.toBeNull();
    // A terminal document can be deleted (204) and is gone with its bytes.
    const before = blobCount();
    expect((await h.app.inject({ method: 'DELETE', url: `/v1/documents/${docs[0].id}`, headers: auth(alice) })).statusCode).toBe(204);
    expect(blobCount()).toBe(before - 1);
    expectEnvelope(await h.app.inject({ url: `/v1/documents/${docs[0].id}`, headers: auth(alice) }), 404, 'document_not_found');
    // The name is free again at once.
    expect((await upload(alice, 'del', [{ name: 'c.pdf', bytes: pdf }])).json().documents).toHaveLength(1);
  });

  it('DELETE of a queued document cancels it (202)', async () => {
    const doc = (await upload(alice, 'one', [{ name: 'a.pdf', bytes: pdf }])).json().documents[0];
    const res = await h.app.inject({ method: 'DELETE', url: `/v1/documents/${doc.id}`, headers: auth(alice) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id: doc.id, status: 'canceled', started_at: null });
  });
});

describe('operations routes', () => {
  it('healthz, readyz, metrics', async () => {
    expect((await h.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await h.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
    const m = await h.app.inject({ url: '/metrics' });
    expect(m.headers['content-type']).toContain('text/plain');
    expect(m.body).toMatch(/tablemill_http_requests_total\{method="GET",route="\/v1\/batches\/:batch_name",status="200"\} \d+/);
    expect(m.body).toMatch(/^tablemill_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz"\} \d+$/m);
    // prom-client's process metrics, and the histograms the workers and webhooks fill.
    expect(m.body).toMatch(/^process_resident_memory_bytes \d+$/m);
    for (const h of ['tablemill_extraction_duration_seconds', 'tablemill_queue_wait_seconds', 'tablemill_ocr_duration_seconds', 'tablemill_webhook_attempt_duration_seconds']) {
      expect(m.body).toContain(`# TYPE ${h} histogram`);
    }
    // Store-wide gauges, read at scrape time from the batch counters (earlier tests left documents).
    expect(m.body).toMatch(/^tablemill_documents\{status="queued"\} \d+$/m);
    expect(m.body).toMatch(/^tablemill_queue_depth \d+$/m);
  });

  it('/openapi.json is OpenAPI 3.1 generated from the routes', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/v1/batches/{batch_name}/documents', '/v1/batches/{batch_name}', '/v1/documents/{id}/results', '/healthz']) expect(doc.paths[p]).toBeDefined();
    expect(doc.paths['/v1/batches/{batch_name}/documents'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(doc.paths['/v1/batches/{batch_name}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Batch' });
    expect(doc.components.schemas.Batch.properties.counts).toEqual({ $ref: '#/components/schemas/Counts' });
    expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
    // Parameters with a default are optional; the status endpoints document 304, every /v1 route 429.
    const results = doc.paths['/v1/batches/{batch_name}/results'].get;
    for (const name of ['limit', 'format']) expect(results.parameters.find((p: any) => p.name === name)).toMatchObject({ in: 'query', required: false });
    for (const [path, ops] of Object.entries<any>(doc.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        for (const p of op.parameters ?? []) if (p.schema?.default !== undefined) expect(p.required, `${method} ${path} ${p.name}`).toBe(false);
        if (path.startsWith('/v1/')) expect(op.responses['429'].headers['Retry-After'], `${method} ${path}`).toBeDefined();
      }
    for (const path of ['/v1/batches/{batch_name}', '/v1/documents/{id}']) {
      expect(doc.paths[path].get.responses['304']).toBeDefined();
      expect(doc.paths[path].get.responses['200'].headers.ETag).toBeDefined();
    }
    expect(doc.paths['/v1/batches'].get.responses['304']).toBeUndefined();
    expect(Object.keys(results.responses['200'].content)).toEqual(['application/json', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/x-ndjson', 'application/zip']);
    // The contract's shapes are named components, referenced from the operations.
    for (const name of ['Batch', 'Document', 'DocumentResult', 'Table', 'Cell', 'LineItem', 'Field', 'KeyValuePair', 'Error', 'UploadResponse', 'BatchResults'])
      expect(doc.components.schemas[name], name).toMatchObject({ type: 'object' });
    expect(doc.paths['/v1/documents/{id}/results'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DocumentResult' });
    expect(JSON.stringify(doc.components.schemas.DocumentResult.properties.tables)).toContain('{"$ref":"#/components/schemas/Table"}');
    expect(doc.components.schemas.Fields.properties.total.anyOf).toContainEqual({ $ref: '#/components/schemas/Field' });
    expect(JSON.stringify(doc.paths)).not.toContain('"request_id"');
    // Every status API.md §5 lists where it can happen, and one version: the package's.
    const upload = doc.paths['/v1/batches/{batch_name}/documents'].post;
    for (const status of ['201', '400', '401', '408', '413', '415', '429', '500', '503', '507']) expect(upload.responses[status], status).toBeDefined();
    const process = doc.paths['/v1/batches/{batch_name}/process'].post;
    for (const status of ['409', '422', '507']) expect(process.responses[status], status).toBeDefined();
    expect(doc.paths['/v1/batches/{batch_name}'].get.responses['507']).toBeUndefined();
    expect(doc.info.version).toBe(JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).version);
    const page = await h.app.inject({ url: '/docs' });
    expect(page.headers['content-type']).toContain('text/html');
    // Rendered on the server: the operations are in the HTML itself.
    expect(page.body).toContain('data-path="/v1/batches/{batch_name}"');
    expect(page.body).not.toContain('Loading');
  });
});

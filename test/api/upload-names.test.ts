// Issue 25 §10: file names keep no control or direction characters, and each oversized body
// answers the 413 code API.md §5 gives it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanFilename } from '../../src/api/routes/upload.js';
import { multipart, openApi, type ApiHarness } from './harness.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b550000000a4944415478da63000100000500010d0a2db40000000049454e44ae426082', 'hex');

describe('file names and 413 codes', () => {
  let h: ApiHarness;
  let auth: Record<string, string>;
  beforeAll(async () => {
    h = await openApi();
    auth = { authorization: `Bearer ${await h.key('acme')}` };
  });
  afterAll(async () => {
    await h?.close();
  });

  it('removes direction overrides, isolates, marks and controls from a stored name', async () => {
    const names = ['a\u202Egnp.pdf', 'in\u2066voice\u2069\u200F.png', 'tab\there\u0085\u009b.png', 'line\u2028sep.png', 'ok-\u00e9\u4e2d.png'];
    const body = await multipart(names.map((name) => ({ name, bytes: PNG })));
    const res = await h.app.inject({ method: 'POST', url: '/v1/batches/names/documents', payload: body.payload, headers: { ...auth, ...body.headers } });
    expect(res.statusCode).toBe(201);
    const stored = (res.json().documents as { filename: string }[]).map((d) => d.filename);
    expect(stored).toEqual(['agnp.pdf', 'invoice.png', 'tabhere.png', 'linesep.png', 'ok-\u00e9\u4e2d.png']);
    for (const d of res.json().documents as { id: string; filename: string }[]) {
      const file = await h.app.inject({ method: 'GET', url: `/v1/documents/${d.id}/file`, headers: auth });
      expect(file.headers['content-disposition']).toContain(encodeURIComponent(d.filename));
    }
  });

  it('cuts a long name by code points, never inside a surrogate pair', () => {
    const name = `${'x'.repeat(254)}\u{1F600}\u{1F600}.png`;
    const clean = cleanFilename(name);
    expect(Array.from(clean)).toHaveLength(255);
    expect(clean.endsWith('\u{1F600}')).toBe(true);
    expect(cleanFilename('\u202E\u0000')).toBe('upload');
  });

  it('5,000 text fields: 413 payload_too_large, nothing stored', async () => {
    const form = new FormData();
    for (let i = 0; i < 5000; i++) form.append(`f${i}`, 'x');
    form.append('file', new Blob([PNG]), 'a.png');
    const req = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await h.app.inject({ method: 'POST', url: '/v1/batches/fields/documents', payload: Buffer.from(await req.arrayBuffer()), headers: { ...auth, 'content-type': req.headers.get('content-type')! } });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
    expect((await h.app.inject({ method: 'GET', url: '/v1/batches/fields', headers: auth })).statusCode).toBe(404);
  });

  it('a JSON body over 1 MiB: 413 payload_too_large; 101 files: 413 too_many_files', async () => {
    const big = await h.app.inject({ method: 'PUT', url: '/v1/batches/json/webhook', payload: JSON.stringify({ url: `https://example.com/${'a'.repeat(1024 * 1024)}` }), headers: { ...auth, 'content-type': 'application/json' } });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('payload_too_large');
    const many = await multipart(Array.from({ length: 101 }, (_, i) => ({ name: `${i}.png`, bytes: PNG })));
    const res = await h.app.inject({ method: 'POST', url: '/v1/batches/many/documents', payload: many.payload, headers: { ...auth, ...many.headers } });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('too_many_files');
  });
});

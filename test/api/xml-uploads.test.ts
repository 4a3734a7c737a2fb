// Invoice XML uploaded alone (API.md §4c): taken by its root, refused otherwise, and shown as a page.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/extract/index.js';
import { billionLaughsXml } from '../bombs.js';
import { INVOICE_A, ciiXml, ublXml } from '../extract/carried/einvoice.js';
import { multipart, openApi, type ApiHarness } from './harness.js';

describe('XML uploads', () => {
  let h: ApiHarness;
  let key: string;
  const auth = () => ({ authorization: `Bearer ${key}` });
  const upload = async (batch: string, files: Record<string, string | Buffer>) => {
    const body = await multipart(Object.entries(files).map(([name, content]) => ({ name, bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content })));
    return h.app.inject({ method: 'POST', url: `/v1/batches/${batch}/documents`, headers: { ...auth(), ...body.headers }, payload: body.payload });
  };

  beforeAll(async () => {
    h = await openApi();
    key = await h.key('alice');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('takes CII and UBL invoices as application/xml, whatever their names', async () => {
    const res = await upload('xml', { 'factur-x.xml': ciiXml(INVOICE_A), 'peppol.txt': ublXml(INVOICE_A, 'CreditNote') });
    expect(res.statusCode).toBe(201);
    expect(res.json().documents.map((d: { content_type: string }) => d.content_type)).toEqual(['application/xml', 'application/xml']);
  });

  it('refuses any other XML with 415, a billion laughs included, and stores nothing', async () => {
    for (const content of ['<?xml version="1.0"?><note><to>x</to></note>', '<Invoice xmlns="urn:example:not-ubl"/>', billionLaughsXml('lolz')]) {
      const res = await upload('other-xml', { 'invoice.xml': content });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
    }
    const batch = await h.app.inject({ method: 'GET', url: '/v1/batches/other-xml', headers: auth() });
    expect(batch.statusCode).toBe(404);
  });

  it('shows the invoice as one readable page', async () => {
    const res = await upload('xml-page', { 'invoice.xml': ciiXml(INVOICE_A) });
    const id = res.json().documents[0].id;
    const page = await h.app.inject({ method: 'GET', url: `/v1/documents/${id}/pages/1.png?width=1200`, headers: auth() });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('image/png');
    expect(Number(page.headers['x-page-count'])).toBe(1);
    expect(Number(page.headers['x-page-width'])).toBe(595);
    const meta = await sharp(page.rawPayload).metadata();
    expect(meta.width).toBe(1200);
    // Readable: OCR of the drawn page finds the invoice's number, seller and total.
    const read = await extractDocument(page.rawPayload, { embedded: 'ignore' });
    const text = read.key_value_pairs.map((p) => `${p.key.text} ${p.value.text}`).join('\n') + read.tables.flatMap((t) => t.cells.map((c) => c.text)).join(' ');
    expect(text).toContain('INV-1001');
    expect(text).toMatch(/Nordlicht Werkzeuge/);
    expect(text).toContain('119.00');
    const past = await h.app.inject({ method: 'GET', url: `/v1/documents/${id}/pages/2.png`, headers: auth() });
    expect(past.statusCode).toBe(404);
  });
});

/**
 * Vendor memory and custom fields over HTTP with real workers (API.md §4b), on invoices of one
 * vendor generated here with pdf-lib: its labels are ones the engine does not know, and the
 * amounts, dates and the number of item lines move from one invoice to the next. One correction
 * of the first invoice teaches the account; another account sharing the vendor learns nothing.
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openReview, processFiles, type ReviewHarness } from './harness.js';

const FIX = new URL('../fixtures/invoices/', import.meta.url).pathname;

interface Truth {
  docket: string;
  posted: string;
  iso: string;
  total: number;
  items: number;
  /** The vendor's name as printed (an OCR-like misspelling on a later invoice). */
  name?: string;
  /** Labelled as invoices usually are (`INVOICE`, `Description`, `Amount`, `Total`), so the engine reads its line items. */
  plain?: boolean;
}

/** One invoice of "Quillfeather Paper Co.": its docket number, posting date and balance move, and so does the item table's length. */
async function invoice(t: Truth): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const text = (s: string, x: number, y: number, size = 10, f = font) => page.drawText(s, { x, y: 842 - y, size, font: f });
  text(t.name ?? 'Quillfeather Paper Co.', 50, 60, 18, bold);
  text('14 Mill Lane, Oxford OX1 2AB', 50, 80, 9);
  text('VAT Reg GB 123 4567 89', 50, 94, 9);
  const [title, item, price, line, payable] = t.plain ? ['INVOICE', 'Description', 'Unit price', 'Amount', 'Total'] : ['STATEMENT OF ACCOUNT', 'Item', 'Price', 'Line total', 'Balance payable'];
  text(title, 360, 60, 12, bold);
  text('Docket', 360, 110);
  text(t.docket, 450, 110);
  text('Posted', 360, 126);
  text(t.posted, 450, 126);
  text('Customer: Bodleian Stores', 50, 150);
  text(item, 50, 190, 10, bold);
  text('Qty', 330, 190, 10, bold);
  text(price, 400, 190, 10, bold);
  text(line, 480, 190, 10, bold);
  let y = 210;
  let sum = 0;
  for (let i = 0; i < t.items; i++) {
    const price = i === t.items - 1 ? Math.round((t.total - sum) * 100) / 100 : 10 + i * 3;
    sum += price;
    text(`Paper ream grade ${String.fromCharCode(65 + i)}`, 50, y);
    text('1', 335, y);
    text(price.toFixed(2), 400, y);
    text(price.toFixed(2), 490, y);
    y += 18;
  }
  text(payable, 360, y + 24, 10, bold);
  text(t.total.toFixed(2), 490, y + 24, 10, bold);
  text('Thank you for your custom.', 50, y + 70, 9);
  return pdf.save();
}

const TRUTHS: Truth[] = [
  { docket: 'QF-10021', posted: '03/02/2026', iso: '2026-02-03', total: 118.4, items: 3 },
  { docket: 'QF-10057', posted: '17/03/2026', iso: '2026-03-17', total: 64.15, items: 2 },
  { docket: 'QF-10112', posted: '28/04/2026', iso: '2026-04-28', total: 932.7, items: 6 },
  { docket: 'QF-10190', posted: '09/06/2026', iso: '2026-06-09', total: 45.0, items: 1 },
  { docket: 'QF-10244', posted: '21/07/2026', iso: '2026-07-21', total: 250.99, items: 4 },
];

let h: ReviewHarness;
let other: string;
let files: { name: string; bytes: Uint8Array }[];

beforeAll(async () => {
  h = await openReview();
  other = await h.keyOf('other-account');
  files = await Promise.all(TRUTHS.map(async (t, i) => ({ name: `qf-${i}.pdf`, bytes: await invoice(t) })));
}, 240_000);
afterAll(() => h?.close());

const fieldsOf = async (key: string, id: string) => (await call(h, key, 'GET', `/v1/documents/${id}/results`)).json.fields;

describe('vendor memory', () => {
  it('one correction teaches the vendor: later invoices read the corrected fields, another account learns nothing', async () => {
    const first = await processFiles(h, h.key, 'qf-first', files.slice(0, 1));
    const id = first.get('qf-0.pdf')!;
    const put = await call(h, h.key, 'PUT', `/v1/documents/${id}/corrections`, { fields: { invoice_number: TRUTHS[0]!.docket, issue_date: TRUTHS[0]!.iso, total: TRUTHS[0]!.total } });
    expect(put.status).toBe(200);
    // The corrected value was found on the page: its box is where it is printed.
    expect(put.json.fields.invoice_number.bbox[0]).toBeGreaterThan(440);
    const vendors = (await call(h, h.key, 'GET', '/v1/vendors')).json.vendors;
    expect(vendors).toHaveLength(1);
    expect(vendors[0].fields).toEqual(expect.arrayContaining(['invoice_number', 'issue_date', 'total']));
    expect(vendors[0].size_bytes).toBeLessThan(8192);
    // The head's registration number (`VAT Reg GB 123 4567 89`), digits only.
    expect(vendors[0].identifiers).toContain('123456789');
    expect((await call(h, other, 'GET', '/v1/vendors')).json.vendors).toEqual([]);

    const later = await processFiles(h, h.key, 'qf-later', files.slice(1));
    const theirs = await processFiles(h, other, 'qf-other', files.slice(1));
    for (let i = 1; i < TRUTHS.length; i++) {
      const t = TRUTHS[i]!;
      const f = await fieldsOf(h.key, later.get(`qf-${i}.pdf`)!);
      expect([f.invoice_number?.value, f.issue_date?.value, f.total?.value], `invoice ${i}`).toEqual([t.docket, t.iso, t.total]);
      expect([f.invoice_number.source, f.issue_date.source, f.total.source]).toEqual(['vendor_memory', 'vendor_memory', 'vendor_memory']);
      expect(f.total.corrected).toBe(false);
      const g = await fieldsOf(other, theirs.get(`qf-${i}.pdf`)!);
      for (const n of Object.keys(g)) if (g[n]) expect(g[n].source, n).toBe('engine');
    }

    // Forgotten: the next invoice is the engine's reading again.
    expect((await call(h, other, 'DELETE', `/v1/vendors/${vendors[0].id}`)).status).toBe(404);
    expect((await call(h, h.key, 'DELETE', `/v1/vendors/${vendors[0].id}`)).status).toBe(204);
    const again = await processFiles(h, h.key, 'qf-forgotten', files.slice(1, 2));
    const f = await fieldsOf(h.key, again.get('qf-1.pdf')!);
    for (const n of Object.keys(f)) if (f[n]) expect(f[n].source, n).toBe('engine');
  }, 600_000);

  it('a corrected currency re-types the items and totals, is learned (with the payment terms) and applied to the next invoice with them; the learned name replaces a misreading', async () => {
    const key = await h.keyOf('currency-account');
    const first = (await processFiles(h, key, 'qf-cur', [{ name: 'qf-0.pdf', bytes: await invoice({ ...TRUTHS[0]!, plain: true }) }])).get('qf-0.pdf')!;
    const before = (await call(h, key, 'GET', `/v1/documents/${first}/results`)).json;
    expect(before.fields.currency?.value ?? null).not.toBe('MYR');
    expect(before.line_items.length).toBe(TRUTHS[0]!.items);

    const put = await call(h, key, 'PUT', `/v1/documents/${first}/corrections`, { fields: { currency: 'myr', payment_terms: 'Net 30 days' } });
    expect(put.status).toBe(200);
    expect(put.json.fields.currency).toMatchObject({ value: 'MYR', corrected: true });
    expect(put.json.line_items.map((i: any) => i.currency)).toEqual(Array(TRUTHS[0]!.items).fill('MYR'));
    expect(put.json.totals.currency).toBe('MYR');
    // The engine's own reading is kept as it was.
    expect((await call(h, key, 'GET', `/v1/documents/${first}/results?view=extracted`)).json.totals.currency).toBe(before.totals.currency);

    const [vendor] = (await call(h, key, 'GET', '/v1/vendors')).json.vendors;
    expect(vendor.name).toBe('Quillfeather Paper Co.');
    expect(vendor.fields.sort()).toEqual(['currency', 'payment_terms', 'vendor_name']);

    // The next invoice: its name misread in the head, recognised by its VAT number and head.
    const next = await invoice({ ...TRUTHS[1]!, plain: true, name: 'Quil1feather Papor Co.' });
    const id = (await processFiles(h, key, 'qf-cur-next', [{ name: 'qf-next.pdf', bytes: next }])).get('qf-next.pdf')!;
    const r = (await call(h, key, 'GET', `/v1/documents/${id}/results`)).json;
    expect(r.fields.currency).toMatchObject({ value: 'MYR', source: 'vendor_memory', corrected: false });
    expect(r.fields.payment_terms).toMatchObject({ value: 'Net 30 days', source: 'vendor_memory' });
    expect(r.fields.vendor_name).toMatchObject({ value: 'Quillfeather Paper Co.', source: 'vendor_memory' });
    expect(r.line_items.length).toBe(TRUTHS[1]!.items);
    expect(r.line_items.every((i: any) => i.currency === 'MYR')).toBe(true);
    expect(r.totals.currency).toBe('MYR');
    // Another account's run of the same invoice reads it as printed.
    const theirs = (await processFiles(h, other, 'qf-cur-other', [{ name: 'qf-next.pdf', bytes: next }])).get('qf-next.pdf')!;
    expect((await fieldsOf(other, theirs)).vendor_name.value).toBe('Quil1feather Papor Co.');
  }, 600_000);
});

describe('custom fields', () => {
  it('finds po_number where a golden invoice prints one, null elsewhere, typed and boxed', async () => {
    const names = ['en-ruled-invoice.pdf', 'de-unruled-invoice.pdf', 'fr-ruled-invoice.pdf'];
    const ids = await processFiles(
      h,
      h.key,
      'custom',
      names.map((n) => ({ name: n, bytes: readFileSync(FIX + n) })),
      { custom_fields: [{ name: 'po_number', labels: ['PO Number', 'Bestellnummer', 'N° de commande'] }] },
    );
    const en = await fieldsOf(h.key, ids.get('en-ruled-invoice.pdf')!);
    expect(en.custom.po_number).toMatchObject({ value: 'PO-7781', source: 'engine', corrected: false, page: 1 });
    expect(en.custom.po_number.bbox[2]).toBeGreaterThan(en.custom.po_number.bbox[0]);
    expect((await fieldsOf(h.key, ids.get('de-unruled-invoice.pdf')!)).custom).toEqual({ po_number: null });
    expect((await fieldsOf(h.key, ids.get('fr-ruled-invoice.pdf')!)).custom).toEqual({ po_number: null });
    const zip = unzipSync(new Uint8Array(await (await fetch(`${h.url}/v1/batches/custom/results?format=zip`, { headers: { authorization: `Bearer ${h.key}` } })).arrayBuffer()));
    const csv = new TextDecoder().decode(zip['fields.csv']!);
    expect(csv.split('\r\n')[0]).toMatch(/,custom_fields$/);
    expect(csv).toContain('"{""po_number"":""PO-7781""}"');
    expect(csv).toContain('"{""po_number"":null}"');
    // Correctable like the others.
    const put = await call(h, h.key, 'PUT', `/v1/documents/${ids.get('de-unruled-invoice.pdf')}/corrections`, { fields: { custom: { po_number: 'B-1' } } });
    expect(put.json.fields.custom.po_number).toMatchObject({ value: 'B-1', corrected: true });
  }, 300_000);

  it('refuses bad custom fields with the error envelope', async () => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(FIX + 'en-ruled-invoice.pdf')]), 'x.pdf');
    await fetch(`${h.url}/v1/batches/bad-custom/documents`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: form });
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, labels: ['x'] }));
    for (const custom_fields of [[{ name: 'PO', labels: ['PO'] }], [{ name: 'po', labels: [] }], many, [{ name: 'po', labels: ['a'] }, { name: 'po', labels: ['b'] }], [{ name: 'po', labels: ['a'], type: 'money' }]]) {
      const r = await call(h, h.key, 'POST', '/v1/batches/bad-custom/process', { custom_fields });
      expect(r.status, JSON.stringify(custom_fields).slice(0, 80)).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    }
    expect((await call(h, h.key, 'GET', '/v1/batches/bad-custom')).json.awaiting_process).toBe(1);
  });
});

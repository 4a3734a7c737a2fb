/**
 * E-invoices read from what they carry (API.md §4c): the XML attached to a PDF (Factur-X /
 * ZUGFeRD 2 and 1, UBL), checked against the printed page; XML files uploaded alone.
 */
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../src/extract/index.js';
import { readInvoice } from '../../../src/extract/carried/invoice.js';
import { parseXml } from '../../../src/extract/carried/xml.js';
import { INVOICE_A, INVOICE_B, ciiXml, invoicePdf, sums, ublXml } from './einvoice.js';

const a = sums(INVOICE_A);

describe('invoice XML', () => {
  for (const [name, xml] of [
    ['Factur-X / ZUGFeRD 2 CII', ciiXml(INVOICE_A, 2)],
    ['ZUGFeRD 1 CII', ciiXml(INVOICE_A, 1)],
    ['UBL 2.1 Invoice', ublXml(INVOICE_A, 'Invoice')],
    ['UBL 2.1 CreditNote', ublXml(INVOICE_A, 'CreditNote')],
  ] as const) {
    it(`reads every field and line of ${name}`, () => {
      const inv = readInvoice(parseXml(xml))!;
      const values = Object.fromEntries(Object.entries(inv.fields).map(([k, v]) => [k, v.value]));
      expect(values).toEqual({
        invoice_number: 'INV-1001',
        issue_date: '2024-03-15',
        due_date: '2024-04-14',
        currency: 'EUR',
        total: a.gross,
        subtotal: a.net,
        tax: a.tax,
        amount_due: a.gross,
        vendor_name: 'Nordlicht Werkzeuge GmbH',
        vendor_tax_id: 'DE123456789',
        vendor_address: 'Kaistrasse 5, 20095 Hamburg, DE',
        customer_name: 'Hafenbau AG',
        iban: 'DE89370400440532013000',
        order_number: 'PO-7788',
        payment_terms: '30 days net',
      });
      expect(inv.lines).toEqual([
        { description: 'Cordless drill', quantity: 2, unit_price: 40, amount: 80 },
        { description: 'Drill bit set', quantity: 1, unit_price: 20, amount: 20 },
      ]);
      // A credit note's amounts stay as written (positive under its heading).
      expect(inv.credit_note).toBe(name.includes('CreditNote'));
    });
  }

  it('keeps a CII credit note (type 381) as written', () => {
    const inv = readInvoice(parseXml(ciiXml(INVOICE_A, 2, '381')))!;
    expect(inv.credit_note).toBe(true);
    expect(inv.fields.total?.value).toBe(a.gross);
  });

  it('reads no invoice from other XML', () => {
    expect(readInvoice(parseXml('<Invoice xmlns="urn:example:other"><ID>1</ID></Invoice>'))).toBeNull();
  });
});

describe('a PDF with its invoice XML attached', () => {
  it('fills fields and line items from the XML with confidence 1, placed where the page prints them', async () => {
    const pdf = await invoicePdf(INVOICE_A, { name: 'factur-x.xml', content: ciiXml(INVOICE_A) });
    const r = await extractDocument(pdf);
    expect(r.warnings).toEqual([]);
    expect(r.fields.invoice_number).toMatchObject({ value: 'INV-1001', source: 'embedded', confidence: 1, page: 1 });
    expect(r.fields.invoice_number!.bbox[0]).toBeGreaterThan(150);
    expect(r.fields.total).toMatchObject({ value: a.gross, source: 'embedded' });
    expect(r.fields.iban).toMatchObject({ value: 'DE89370400440532013000', source: 'embedded' });
    expect(r.line_items.map((li) => [li.description, li.quantity, li.unit_price, li.amount, li.source])).toEqual([
      ['Cordless drill', 2, 40, 80, 'embedded'],
      ['Drill bit set', 1, 20, 20, 'embedded'],
    ]);
    // The rows the page's table shows: each embedded line keeps its place there.
    expect(r.line_items.every((li) => li.table_index >= 0 && li.bbox[2] > li.bbox[0])).toBe(true);
    expect(r.totals).toEqual({ subtotal: a.net, tax: a.tax, total: a.gross, currency: 'EUR', flags: [] });
  });

  it("warns when the page prints another invoice's number and total, and keeps the XML's", async () => {
    const pdf = await invoicePdf(INVOICE_B, { name: 'factur-x.xml', content: ciiXml(INVOICE_A) });
    const r = await extractDocument(pdf);
    const b = sums(INVOICE_B);
    const byField = Object.fromEntries(r.warnings!.map((w) => [w.field, w]));
    expect(byField.invoice_number).toMatchObject({ code: 'embedded_mismatch', printed: { text: 'INV-2002', page: 1 } });
    expect(byField.total).toMatchObject({ code: 'embedded_mismatch', printed: { page: 1 } });
    expect(byField.total!.printed!.text).toContain(b.gross.toFixed(2));
    expect(byField.total!.printed!.bbox[2]).toBeGreaterThan(byField.total!.printed!.bbox[0]);
    expect(byField.tax).toMatchObject({ code: 'embedded_mismatch' });
    // What the page and the XML agree on gives no warning.
    expect(byField.iban).toBeUndefined();
    expect(byField.due_date).toBeUndefined();
    expect(r.fields.invoice_number).toMatchObject({ value: 'INV-1001', source: 'embedded' });
    expect(r.fields.total).toMatchObject({ value: a.gross, source: 'embedded' });
  });

  it('finds a UBL attachment by its root under any .xml name', async () => {
    const pdf = await invoicePdf(INVOICE_A, { name: 'invoice-peppol.xml', content: ublXml(INVOICE_A) });
    const r = await extractDocument(pdf);
    expect(r.fields.invoice_number).toMatchObject({ value: 'INV-1001', source: 'embedded' });
  });

  it('reads the page and warns embedded_invalid when the attached XML does not parse', async () => {
    const pdf = await invoicePdf(INVOICE_A, { name: 'factur-x.xml', content: ciiXml(INVOICE_A).slice(0, 400) });
    const r = await extractDocument(pdf);
    expect(r.warnings).toEqual([expect.objectContaining({ code: 'embedded_invalid', field: null, printed: null })]);
    expect(r.warnings![0]!.message).toMatch(/factur-x\.xml/);
    expect(r.fields.invoice_number).toMatchObject({ value: 'INV-1001' });
    expect(r.fields.invoice_number!.source ?? 'engine').toBe('engine');
  });

  it('reads only the page with embedded: "ignore"', async () => {
    const pdf = await invoicePdf(INVOICE_B, { name: 'factur-x.xml', content: ciiXml(INVOICE_A) });
    const r = await extractDocument(pdf, { embedded: 'ignore' });
    expect(r.warnings).toEqual([]);
    expect(r.fields.invoice_number?.value).toBe('INV-2002');
    expect(r.line_items.some((li) => li.source === 'embedded')).toBe(false);
  });
});

describe('an XML invoice uploaded alone', () => {
  it('is one page laid out from its values, read exactly', async () => {
    const r = await extractDocument(new TextEncoder().encode(ublXml(INVOICE_B)));
    expect(r.page_count).toBe(1);
    expect(r.document_type).toBe('invoice');
    expect(r.warnings).toEqual([]);
    expect(r.fields.invoice_number).toMatchObject({ value: 'INV-2002', source: 'embedded', confidence: 1, page: 1 });
    expect(r.fields.invoice_number!.bbox[2]).toBeGreaterThan(r.fields.invoice_number!.bbox[0]);
    expect(r.line_items.map((li) => [li.description, li.amount])).toEqual([
      ['Cordless drill', 160],
      ['Safety goggles', 40],
    ]);
  });
});

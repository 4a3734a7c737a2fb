/**
 * One result never states two figures for one total: the item table's summary rows and the
 * fields (read from every labelled line of the page) are made to agree, the reading that adds
 * up winning in both.
 */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import type { LineItem, Totals } from '../../../src/extract/types.js';
import { textPage } from './pages.js';
import { table } from '../lineitems/build.js';

const item = (description: string, amount: number): LineItem => ({ table_index: 0, row: 1, description, quantity: 1, unit_price: amount, amount, currency: null, cells: { description, amount: String(amount) }, page: 1, bbox: [0, 0, 0, 0], flags: [] });

const items = [table([['Beschreibung', 'Menge', 'Preis', 'Betrag'], ['Beratung', '1', '200,00', '200,00'], ['Reisekosten', '1', '62,90', '62,90']], { top: 300 })];

const invoice = ['Acme GmbH', 'Rechnung Nr. R-2026-14', 'Datum: 02.03.2026', 'Beratung   1   200,00   200,00', 'Reisekosten   1   62,90   62,90', 'Zwischensumme   262,90', 'MwSt. 19 %   49,95', 'Gesamtbetrag   312,85'];

describe('totals and fields agree', () => {
  it('a table reading that does not add up takes the fields figures', () => {
    const misread: Totals = { subtotal: 262.9, tax: 49.95, total: 31285, currency: 'EUR', flags: ['total_mismatch'] };
    const r = understandDocument([textPage(invoice)], items, { line_items: [item('Beratung', 200), item('Reisekosten', 62.9)], totals: misread });
    expect(r.fields.total?.value).toBe(312.85);
    expect(r.totals).toMatchObject({ subtotal: 262.9, tax: 49.95, total: 312.85 });
    expect(r.totals!.flags).not.toContain('total_mismatch');
  });
  it('a field that does not add up takes the table figure that does, below 0.7', () => {
    // The subtotal misread in the page's words (`112,90`): the items, the tax and the total agree with the table's 262,90.
    const lines = invoice.map((l) => (l.startsWith('Zwischensumme') ? 'Zwischensumme   112,90' : l));
    const r = understandDocument([textPage(lines)], items, { line_items: [item('Beratung', 200), item('Reisekosten', 62.9)], totals: { subtotal: 262.9, tax: 49.95, total: 312.85, currency: 'EUR', flags: [] } });
    expect(r.fields.subtotal?.value).toBe(262.9);
    expect(r.fields.subtotal!.confidence).toBeLessThan(0.7);
    expect(r.totals).toMatchObject({ subtotal: 262.9, total: 312.85 });
  });
});

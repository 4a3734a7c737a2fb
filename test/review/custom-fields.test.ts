/**
 * Custom fields on every golden invoice (test/fixtures/invoices): a run's
 * `custom_fields: [{name: "po_number", labels: ["PO Number", "Bestellnummer", "N° de commande"]}]`
 * is read where one of those labels is printed and null on every other document; the labels, not
 * the field's name, say what is read (`Ihre Bestellung`, `Commande :`, `Pedido:` once named).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/extract/index.js';
import { REPO_ROOT } from '../paths.js';

const DIR = join(REPO_ROOT, 'test/fixtures/invoices');
const files = readdirSync(DIR).filter((f) => f.endsWith('.pdf')).sort();

async function poNumbers(labels: string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const f of files) {
    const r = await extractDocument(new Uint8Array(readFileSync(join(DIR, f))), { customFields: [{ name: 'po_number', labels, type: 'text' }] });
    out[f] = r.custom_fields?.po_number?.value ?? null;
  }
  return out;
}

describe('custom fields on the golden invoices', () => {
  it('po_number where a golden invoice prints one of its labels, null on every other', async () => {
    const found = await poNumbers(['PO Number', 'Bestellnummer', 'N° de commande']);
    expect(Object.keys(found).length).toBeGreaterThanOrEqual(20);
    expect(Object.fromEntries(Object.entries(found).filter(([, v]) => v !== null))).toEqual({ 'en-ruled-invoice.pdf': 'PO-7781' });
  }, 300_000);

  it('reads what other labels name', async () => {
    const found = await poNumbers(['PO Number', 'Ihre Bestellung', 'Commande', 'Pedido', 'Order No.']);
    expect(Object.fromEntries(Object.entries(found).filter(([, v]) => v !== null))).toEqual({
      'de-unruled-invoice.pdf': 'B-55120',
      'en-ruled-invoice.pdf': 'PO-7781',
      'en-ruled-totals-in-grid.pdf': '4471-A',
      'es-ruled-invoice.pdf': 'PED-2026-88',
      'fr-ruled-invoice.pdf': 'BC-4410',
    });
  }, 300_000);
});

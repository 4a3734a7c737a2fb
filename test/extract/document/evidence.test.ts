/**
 * Confidence follows evidence: on a scan, OCR's doubt about a value is answered where check
 * digits or arithmetic prove its reading (and, for amounts that add up, its role), and a value
 * that fails its check is held below 0.7. Every page here is read "by OCR" at 0.8 a word.
 */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import { vatIdChecks } from '../../../src/extract/document/vat-id.js';
import { checkFields } from '../../../src/extract/document/checks.js';
import type { PageLayout } from '../../../src/extract/types.js';
import { textPage } from './pages.js';

const none = { line_items: [], totals: null };
/** `lines` as a scan: every word read at `ink`. */
const scan = (lines: string[], ink = 0.8): PageLayout => {
  const p = textPage(lines);
  return { ...p, words: p.words.map((w) => ({ ...w, confidence: ink })) };
};
const read = (lines: string[], ink = 0.8) => understandDocument([scan(lines, ink)], [], none).fields;

const invoice = (sub: string, tax: string, total: string) => [
  'Müller Werkzeuge GmbH',
  'Rechnung Nr. R-2026-0815',
  'Rechnungsdatum: 02.03.2026',
  'Fällig am: 01.04.2026',
  'Zahlbar innerhalb 30 Tagen ohne Abzug',
  `Nettobetrag   ${sub}`,
  `MwSt. 19 %   ${tax}`,
  `Gesamtbetrag   ${total}`,
  'IBAN DE89 3704 0044 0532 0130 00',
];

describe('evidence weighs confidence', () => {
  it('amounts that add up are sure on a scan; amounts that do not stay unsure', () => {
    const f = read(invoice('262,90', '49,95', '312,85'));
    for (const n of ['subtotal', 'tax', 'total'] as const) expect(f[n]!.confidence).toBeGreaterThanOrEqual(0.9);
    // `812,85` is read as 312,85 to fit: a figure made to fit proves nothing, and is itself unsure.
    const misread = read(invoice('262,90', '49,95', '812,85'));
    for (const n of ['subtotal', 'tax', 'total'] as const) expect(misread[n]!.confidence).toBeLessThan(0.9);
    expect(misread.total).toMatchObject({ value: 312.85, text: '812,85' });
    expect(misread.total!.confidence).toBeLessThan(0.7);
  });

  it('a tax that is its printed rate of the total (tax included) proves both', () => {
    const receipt = ['KEDAI RUNCIT MAJU', '12 Jan 2018 10:32', 'Total Amount:  $6.90', 'GST @6%:  $0.39', 'CASH  $10.00', 'Change  $3.10'];
    const f = read(receipt);
    expect(f.total?.value).toBe(6.9);
    expect(f.total!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(f.tax!.confidence).toBeGreaterThanOrEqual(0.9);
    const off = read(receipt.map((l) => l.replace('$0.39', '$0.59')));
    expect(off.tax!.confidence).toBeLessThan(0.9);
  });

  it('an IBAN read by OCR is sure by its check digits', () => {
    expect(read(invoice('262,90', '49,95', '312,85')).iban).toMatchObject({ value: 'DE89370400440532013000', confidence: 0.95 });
  });

  it('a due date that is the issue date plus the printed term is sure; another is not lifted', () => {
    const f = read(invoice('262,90', '49,95', '312,85'), 0.9);
    expect(f.due_date?.value).toBe('2026-04-01');
    expect(f.due_date!.confidence).toBe(0.9);
    expect(f.issue_date!.confidence).toBe(0.9);
    const other = read(invoice('262,90', '49,95', '312,85').map((l) => l.replace('01.04.2026', '11.04.2026')), 0.9);
    expect(other.due_date!.confidence).toBeLessThan(0.9);
  });

  it("a vendor VAT id whose check digits fail is held below 0.7", () => {
    const page = (id: string) => ['LE FOURNISSEUR SAS', 'Facture N° F2026-0031', `N° TVA intracommunautaire : ${id}`];
    expect(read(page('FR11123456782'), 1).vendor_tax_id!.confidence).toBeGreaterThanOrEqual(0.9);
    const misread = read(page('FR12123456782'), 1).vendor_tax_id!;
    expect(misread.value).toBe('FR12123456782');
    expect(misread.confidence).toBeLessThan(0.7);
  });

  it('a currency named by its label and again beside the amounts is sure', () => {
    const f = read(['LE FOURNISSEUR SAS', 'Facture N° F2026-0031', 'Devise : EUR', 'Total TTC  120,00 €']);
    expect(f.currency).toMatchObject({ value: 'EUR', confidence: 0.95 });
    expect(read(['LE FOURNISSEUR SAS', 'Facture N° F2026-0031', 'Devise : EUR', 'Total TTC  120,00']).currency!.confidence).toBeLessThan(0.9);
  });

  it('a vendor attested by its registration number, and its address with a postcode, are sure when cleanly read', () => {
    const receipt = ['SYARIKAT MAJU JAYA SDN BHD', '(123456-X)', 'NO. 12, JALAN BESAR 3/4,', '50000 KUALA LUMPUR', 'TAX INVOICE', '12/01/2018', 'TOTAL  6.90'];
    const f = read(receipt, 0.92);
    expect(f.vendor_name).toMatchObject({ value: 'SYARIKAT MAJU JAYA SDN BHD', confidence: 0.95 });
    expect(f.vendor_address!.confidence).toBe(0.95);
    // Without the registration number the name is a guess from its place.
    expect(read(receipt.filter((l) => l !== '(123456-X)'), 0.92).vendor_name!.confidence).toBeLessThan(0.9);
    // A name that may begin on the line close above it is not attested.
    expect(read(['AIK HUAT HARDWARE ENTERPRISE (SETIA', ...receipt.map((l) => (l.startsWith('SYARIKAT') ? 'ALAM SDN BHD' : l))], 0.92).vendor_name!.confidence).toBeLessThan(0.9);
  });
});

describe('VAT id check digits', () => {
  it('are checked where the country has them', () => {
    for (const ok of ['FR11123456782', 'DE136695976', 'IT00743110157', 'BE0428759497', 'NL004495445B01', 'ATU13585627', 'DK13585628', 'FI20774740', 'PL8567346215', 'PT501964843', 'LU20260743', 'SE556188840401', 'GB980780684', 'FR 40 303 265 045'])
      expect(vatIdChecks(ok), ok).toBe(true);
    for (const bad of ['FR12123456782', 'DE136695978', 'IT00743110158', 'BE0428759498', 'ATU13585628', 'PL8567346216']) expect(vatIdChecks(bad), bad).toBe(false);
  });
  it('are not judged for forms without a known check', () => {
    for (const x of ['ESB12345678', 'FRIZ123456789', 'GST 001234567890', '12345']) expect(vatIdChecks(x), x).toBeNull();
  });
});

describe('a date its label names, in clean ink and uncontested', () => {
  it('stands at the label\'s 0.9; contested by another reading of the field, it keeps OCR\'s doubt', () => {
    const page = ['Müller Werkzeuge GmbH', 'Rechnung Nr. R-2026-0815', 'Rechnungsdatum: 02.03.2026', 'Gesamtbetrag   312,85'];
    expect(read(page, 0.97).issue_date).toMatchObject({ value: '2026-03-02', confidence: 0.9 });
    // Murky ink stays below.
    expect(read(page, 0.9).issue_date!.confidence).toBeLessThan(0.9);
    // A second labelled date that says another day.
    const contested = read([...page.slice(0, 3), 'Datum: 05.03.2026', page[3]!], 0.97).issue_date!;
    expect(contested.confidence).toBeLessThan(0.9);
  });
  it('a date another label names (delivery, an associated invoice) contests nothing', () => {
    const page = ['LE FOURNISSEUR   FACTURE N° : F20260031', 'Date : 31/01/2026', 'N° DE FACTURE ASSOCIEE : F20260003   DATE DE LIVRAISON : 28/01/2026', 'DATE DE FACTURE ASSOCIEE : 01/01/2026', 'NET A PAYER 107,82 EUR'];
    expect(read(page, 0.97).issue_date).toMatchObject({ value: '2026-01-31', confidence: 0.9 });
  });
});

describe('items that do not add up', () => {
  const item = (amount: number) => ({ table_index: 0, row: 1, description: 'x', quantity: 1, unit_price: amount, amount, currency: 'EUR', cells: {}, page: 1, bbox: [0, 0, 1, 1] as [number, number, number, number], flags: [] });
  it('cast no doubt on a subtotal that the tax and the total prove; without that proof they do', () => {
    // An item misread (`120,00` as 128,00): the items no longer add up to the subtotal.
    const f = read(invoice('262,90', '49,95', '312,85'));
    const before = f.subtotal!.confidence;
    expect(checkFields(f, [item(142.9), item(128)]).flags).toEqual(['items_sum_mismatch']);
    expect(f.subtotal!.confidence).toBe(before);
    const alone = read(invoice('262,90', '49,95', '312,85').filter((l) => !l.startsWith('MwSt')));
    const was = alone.subtotal!.confidence;
    checkFields(alone, [item(142.9), item(128)]);
    expect(alone.subtotal!.confidence).toBeLessThan(was);
  });
});

describe('an invoice number its label names, in clean ink and uncontested', () => {
  it('stands at 0.9; after a title alone (`INVOICE 4471`) it does not', () => {
    expect(read(['ACME Ltd', 'Invoice No.: INV-2026-33', 'Total 10.00'], 0.97).invoice_number).toMatchObject({ value: 'INV-2026-33', confidence: 0.9 });
    expect(read(['ACME Ltd', 'INVOICE 4471', 'Total 10.00'], 0.97).invoice_number!.confidence).toBeLessThan(0.9);
  });
  it('in murkier ink, stands at 0.9 where the page prints it a second time (a payment reference)', () => {
    const page = ['LE FOURNISSEUR   FACTURE N° : F20260025', 'Date : 31/01/2026', 'NET A PAYER 100,00 EUR', 'REFERENCE AVIS DE PAIEMENT : F20260025BUYER'];
    expect(read(page, 0.9).invoice_number).toMatchObject({ value: 'F20260025', confidence: 0.9 });
    expect(read(page.slice(0, 3), 0.9).invoice_number!.confidence).toBeLessThan(0.9);
  });
});

describe('a till receipt total', () => {
  it('is sure where the cash tendered less the change, or the card charged, is what its label reads', () => {
    const receipt = (paid: string[]) => ['KEDAI RUNCIT MAJU', 'GST ID 000468594688', 'TOTAL 3.70', ...paid];
    expect(read(receipt(['CASH 10.00', 'CHANGE 6.30']), 0.9).total).toMatchObject({ value: 3.7, confidence: 0.95 });
    expect(read(receipt(['VISA 3.70']), 0.9).total).toMatchObject({ value: 3.7, confidence: 0.95 });
    expect(read(receipt(['CASH 10.00', 'CHANGE 6.00']), 0.9).total!.confidence).toBeLessThan(0.9);
  });
});

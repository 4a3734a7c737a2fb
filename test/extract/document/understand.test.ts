/** Document type and fields from pages of words laid out as text lines (5 pt a character, 14 pt a line). */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import { textPage } from './pages.js';

const understand = (lines: string[]) => understandDocument([textPage(lines)], [], { line_items: [], totals: null });
const values = (r: ReturnType<typeof understand>) => Object.fromEntries(Object.entries(r.fields).filter(([, f]) => f).map(([k, f]) => [k, f!.value]));

describe('document type', () => {
  it('a report with totals and a statement word is other: it keeps the fields it prints, but no items and no totals', () => {
    const r = understand(['Household finance and consumption survey', 'Table 3: statements of the respondents', 'Total 1,234.50', 'VAT 20%']);
    expect(r.document_type).toBe('other');
    expect(r.fields.total?.value).toBe(1234.5);
    expect(r.line_items).toEqual([]);
    expect(r.totals).toBeNull();
  });
  it('an invoice, a receipt and a statement by their titles and cues', () => {
    expect(understand(['ACME GmbH', 'Rechnung Nr. 2026-1', 'Datum: 01.12.2026', 'Gesamtbetrag 100,00']).document_type).toBe('invoice');
    expect(understand(['Corner Shop', 'Receipt #99', '12/01/2026 10:15', 'Total 9.99', 'Cash 10.00   Change 0.01']).document_type).toBe('receipt');
    expect(understand(['Big Bank', 'Bank statement 1 - 31 December 2026', 'Opening balance 10.00', 'Closing balance 20.00']).document_type).toBe('bank_statement');
  });
});

describe('document type under a long head', () => {
  it('finds the title under ten lines of addresses', () => {
    const head = ['Acme Ltd', '5 High Street', 'Leeds LS1 1AA', 'United Kingdom', 'Phone 0113 496 0000', '', 'Globex plc', 'Accounts Payable', '9 Low Road', 'York YO1 7HH'];
    const body = Array.from({ length: 30 }, (_, i) => `Item ${i + 1}   1   2.00   2.00`);
    expect(understand([...head, 'INVOICE', 'Invoice No.: 2026-9', ...body, 'Total 60.00']).document_type).toBe('invoice');
  });
});

describe('fields by label in each language', () => {
  const cases: [string, string[], Record<string, string | number>][] = [
    ['en', ['Acme Ltd', 'Invoice number: A-17', 'Invoice date: 20 March 2023   Due date: 19 April 2023', 'Bill to: Globex, 1 Road', 'Total 12.00'], { invoice_number: 'A-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'Globex', total: 12 }],
    ['de', ['Acme GmbH', 'Rechnungsnummer: R-17', 'Rechnungsdatum: 20.03.2023   Fällig bis: 19.04.2023', 'Kunde: Globex AG, Weg 1', 'Gesamtbetrag 1.200,00'], { invoice_number: 'R-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'Globex AG', total: 1200 }],
    ['fr', ['Acme SARL', 'Facture N° F-17', 'Date de facture : 20/03/2023   Échéance : 19/04/2023', 'Client : Globex SA', 'Total TTC 1 200,00'], { invoice_number: 'F-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'Globex SA', total: 1200 }],
    ['es', ['Acme S.L.', 'Número de factura: E-17', 'Fecha de emisión: 20/03/2023   Vencimiento: 19/04/2023', 'Cliente: Globex S.A.', 'Total 1.200,00'], { invoice_number: 'E-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'Globex S.A.', total: 1200 }],
    ['nl', ['Acme B.V.', 'Factuurnummer: N-17', 'Factuurdatum: 20-03-2023   Vervaldatum: 19-04-2023', 'Klant: Globex', 'Totaal 1.200,00'], { invoice_number: 'N-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'Globex', total: 1200 }],
    ['it', ['Acme S.r.l.', 'Fattura n. I-17', 'Data fattura: 20/03/2023   Scadenza: 19/04/2023', 'Cliente: Globex S.p.A.', 'Totale 1.200,00'], { invoice_number: 'I-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'Globex S.p.A.', total: 1200 }],
    ['pt', ['Acme Lda', 'Fatura n.º P-17', 'Data de emissão: 20/03/2023   Vencimento: 19/04/2023', 'Cliente: Globex SA', 'Total 1.200,00'], { invoice_number: 'P-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'Globex SA', total: 1200 }],
    ['ja', ['請求書', 'アクメ株式会社', 'グローベックス株式会社 御中', '請求番号 J-17', '請求日 2023年3月20日', 'お支払期限 2023年4月19日', '合計 ¥1,200'], { invoice_number: 'J-17', issue_date: '2023-03-20', due_date: '2023-04-19', customer_name: 'グローベックス株式会社', total: 1200 }],
  ];
  for (const [lang, lines, want] of cases) {
    it(lang, () => {
      const r = understand(lines);
      expect(r.document_type).toBe('invoice');
      expect(values(r)).toMatchObject(want);
    });
  }

  it('a French deadline of payment is the due date, its terms of payment stay the terms', () => {
    const r = understand(['Acme SARL', 'FACTURE', 'nº 2023-60', 'Date : 20/09/2023', 'Total TTC 1 368,84 €', 'Conditions de règlement : 30 jours net', 'Date limite de règlement : 19/10/2023']);
    expect(values(r)).toMatchObject({ issue_date: '2023-09-20', due_date: '2023-10-19', payment_terms: '30 jours net' });
  });

  it('a delivery or service date is not the issue date', () => {
    const r = understand(['Acme GmbH', 'Rechnung Nr. 7', 'Lieferdatum: 01.03.2023   Rechnungsdatum: 05.03.2023', 'Delivery date: 02.03.2023', 'Gesamtbetrag 10,00']);
    expect(r.fields.issue_date?.value).toBe('2023-03-05');
  });

  it('a value printed under its label, with a lower confidence than one beside it', () => {
    const r = understand(['Acme Ltd', 'INVOICE', 'Invoice number', 'A-17', 'Order no.: PO-1', 'Total 12.00']);
    expect(r.fields.invoice_number).toMatchObject({ value: 'A-17', confidence: 0.8 });
    expect(r.fields.order_number).toMatchObject({ value: 'PO-1', confidence: 0.9 });
  });

  it('an IBAN only when its check digits hold; the currency from symbols', () => {
    const ok = understand(['Acme Ltd', 'Invoice A-1', 'Total €12.00', 'IBAN DE89 3704 0044 0532 0130 00']);
    expect(ok.fields.iban?.value).toBe('DE89370400440532013000');
    expect(ok.fields.currency?.value).toBe('EUR');
    expect(understand(['Acme Ltd', 'Invoice A-1', 'Total 12.00', 'IBAN DE12 3456 7890 1234 5678 90']).fields.iban).toBeNull();
  });

  it('an ambiguous numeric date follows the locale: month first in US dollars, day first in pounds', () => {
    expect(understand(['Acme Inc', 'Invoice A-1', 'Date: 03/04/2026', 'Total $12.00']).fields.issue_date?.value).toBe('2026-03-04');
    expect(understand(['Acme Ltd', 'Invoice A-1', 'Date: 03/04/2026', 'Total £12.00']).fields.issue_date?.value).toBe('2026-04-03');
  });
});

describe('fields by position', () => {
  it('a two-column head: the vendor block on the left, the invoice block on the right', () => {
    const r = understand([
      'Acme Ltd                                  INVOICE',
      '5 High Street, Leeds LS1 1AA              Invoice No.: 2026-114',
      '                                          Date: 14 January 2026',
      'Bill to:                                  Due date: 13 February 2026',
      'Globex plc, 9 Low Road, York',
      'Total £48.00',
    ]);
    expect(values(r)).toMatchObject({
      vendor_name: 'Acme Ltd',
      vendor_address: '5 High Street, Leeds LS1 1AA',
      invoice_number: '2026-114',
      issue_date: '2026-01-14',
      due_date: '2026-02-13',
      customer_name: 'Globex plc',
      currency: 'GBP',
      total: 48,
    });
  });
  it('a statement: account, period from its label, balances; no invoice fields', () => {
    const r = understand(['Big Bank', 'Account statement', 'Account holder: Jane Doe', 'Account number: 0012 3456 78', 'Period: 01.12.2026 - 31.12.2026', 'Opening balance 1.000,00', 'Closing balance 1.250,50', 'Total 250,50']);
    expect(r.document_type).toBe('bank_statement');
    expect(values(r)).toMatchObject({ customer_name: 'Jane Doe', account_number: '0012 3456 78', period_start: '2026-12-01', period_end: '2026-12-31', opening_balance: 1000, closing_balance: 1250.5 });
    expect(r.fields.total).toBeNull();
  });
});

describe('payment terms', () => {
  it('a Terms and conditions heading is not terms; a sentence that states them is', () => {
    const r = understand(['Acme Ltd', 'Invoice A-1', 'Total 12.00', 'Terms and conditions', 'Payment is due within 30 days of the invoice date.']);
    expect(r.fields.payment_terms?.value).toBe('Payment is due within 30 days of the invoice date.');
    expect(understand(['Acme Ltd', 'Invoice A-1', 'Total 12.00', 'Terms: 14 days net']).fields.payment_terms?.value).toBe('14 days net');
  });
});

describe('cross-checks', () => {
  it('subtotal + tax ≠ total: total_mismatch on the totals and lower confidence on the three', () => {
    const r = understand(['Acme Ltd', 'Invoice A-1', 'Subtotal 100.00', 'VAT 20% 20.00', 'Total 130.00']);
    expect(r.totals?.flags).toContain('total_mismatch');
    expect(r.fields.total!.confidence).toBeLessThan(0.9);
    const ok = understand(['Acme Ltd', 'Invoice A-1', 'Subtotal 100.00', 'VAT 20% 20.00', 'Total 120.00']);
    expect(ok.totals).toMatchObject({ subtotal: 100, tax: 20, total: 120, flags: [] });
    // A total that subtotal and tax agree with is surer than its label alone makes it.
    expect(ok.fields.total!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

describe('a totals box beside a tax table', () => {
  it('reads the label after the wide gap when the tax table\'s figures share its line', () => {
    const r = understand([
      'Acme SARL',
      'FACTURE',
      'nº 2023-60',
      'Taux TVA    Prix HT    TVA    Montant total',
      '10,00 %   1.235,40 €   123,54 €   1.358,80 €    Remise HT    0,00 €',
      '0,00 %   9,90 €   0,00 €   9,90 €    Total Net HT    1.245,30 €',
      'Total TVA    123,54 €',
      'Montant Total TTC    1.368,84 €',
    ]);
    expect(values(r)).toMatchObject({ subtotal: 1245.3, tax: 123.54, total: 1368.84 });
    // `NET A PAYER` (capitals without the accent) is the total left to pay, never a net before tax.
    const due = understand(['Acme SARL', 'FACTURE N° F-1', "Date d'échéance : 02/03/2026    NET A PAYER    104,90 EUR"]);
    expect(values(due)).toMatchObject({ total: 104.9, amount_due: 104.9 });
    expect(due.fields.subtotal).toBeNull();
    expect(understand(['Acme SARL', 'FACTURE N° F-2', 'Net à payer 104,90 €']).fields.subtotal).toBeNull();
    // A tax table's row alone is no summary line.
    expect(understand(['Acme SARL', 'FACTURE', 'nº 2023-61', '10,00 %   100,00 €   10,00 €   110,00 €']).fields.subtotal).toBeNull();
  });
});

describe('OCR confidence', () => {
  it("a field read from OCR'd words is no surer than the words", () => {
    const p = textPage(['Acme Ltd', 'Invoice number: A-17', 'Total 12.00']);
    for (const w of p.words) w.confidence = w.text === 'A-17' ? 0.5 : 0.95;
    const r = understandDocument([p], [], { line_items: [], totals: null });
    expect(r.fields.invoice_number).toMatchObject({ value: 'A-17', confidence: 0.45 });
  });
});

describe('fields on every document, from key-value pairs and typed candidates', () => {
  it('reads the fields of a document no title types (`Beitragsrechnung`), each with source engine, uncorrected', () => {
    const r = understand(['Verband Muster e.V.', 'Beitragsrechnung', 'Datum: 15.01.2026', 'Summe netto 100,00', 'MwSt 19 % 19,00', 'Gesamtbetrag 119,00']);
    expect(values(r)).toMatchObject({ issue_date: '2026-01-15', subtotal: 100, tax: 19, total: 119 });
    for (const f of Object.values(r.fields)) if (f) expect([f.source, f.corrected]).toEqual(['engine', false]);
  });
  it('pairs a label with its value on its line, under it, and a row of labels over a row of values', () => {
    const r = understand([
      'LE FOURNISSEUR SARL',
      'Facture N° : F2026-7',
      'Date',
      '31/01/2026',
      'TOTAL HT  TOTAL TVA  TOTAL TTC',
      '100,00     20,00     120,00',
    ]);
    const kv = r.key_value_pairs.map((p) => [p.key.text, p.value.text]);
    expect(kv).toEqual(expect.arrayContaining([['Date', '31/01/2026'], ['TOTAL HT', '100,00'], ['TOTAL TVA', '20,00'], ['TOTAL TTC', '120,00']]));
    expect(values(r)).toMatchObject({ invoice_number: 'F2026-7', issue_date: '2026-01-31', subtotal: 100, tax: 20, total: 120 });
  });
  it('a row of labels after a left column\'s text on its line, over its values: a rate table\'s first row is not the tax', () => {
    const r = understand([
      'LE FOURNISSEUR SARL',
      'Facture N° : F2026-8',
      'Détail TVA                 Taux     Base TVA     Montant TVA',
      '                           20,00%     11,00      2,20',
      '                           10,00%     27,00      2,70',
      "taux d'intérêt légal.     TOTAL HT     TOTAL TVA     TOTAL TTC",
      "taux d'escompte nul.      100,00       4,90          104,90",
    ]);
    const kv = r.key_value_pairs.map((p) => [p.key.text, p.value.text]);
    expect(kv).toEqual(expect.arrayContaining([['TOTAL HT', '100,00'], ['TOTAL TVA', '4,90'], ['TOTAL TTC', '104,90']]));
    expect(values(r)).toMatchObject({ subtotal: 100, tax: 4.9, total: 104.9 });
  });
  it('a till receipt titled tax invoice is a receipt; ringgit, day-first dates; the total read as cash minus change when its digits are unreadable', () => {
    const r = understand(['KEDAI MAJU SDN BHD', '(12345-X)', 'NO 12, JALAN BESAR,', '81100 JOHOR BAHRU', 'GST ID: 000123456789', 'TAX INVOICE', 'Date: 09/10/2017 12:31', 'Rice 1 5.00', 'TOTAL RM O1C.€0', 'CASH RM 20.00', 'CHANGE RM 9.40']);
    expect(r.document_type).toBe('receipt');
    expect(values(r)).toMatchObject({ vendor_name: 'KEDAI MAJU SDN BHD', issue_date: '2017-10-09', total: 10.6, currency: 'MYR' });
    expect(r.fields.vendor_address?.value).toBe('NO 12, JALAN BESAR, 81100 JOHOR BAHRU');
  });
  it('a VAT number is the tax id, not the SIRET; an amount still open is due, not the total', () => {
    const r = understand(['ACME SAS', 'Facture n° 2026-1', 'SIRET : 123 456 789 00012', 'N° TVA : FR 11 123456789', 'Total TTC 120,00', 'Offener Betrag 50,00']);
    expect(values(r)).toMatchObject({ vendor_tax_id: 'FR 11 123456789', total: 120, amount_due: 50 });
  });
});

describe('findValue (custom fields)', () => {
  it('finds the value of any label, typed', async () => {
    const { findValue } = await import('../../../src/extract/document/index.js');
    const { documentLocale } = await import('../../../src/extract/locale/index.js');
    const { documentLines } = await import('../../../src/extract/locale/lines.js');
    const page = textPage(['ACME GmbH', 'Kostenstelle: KS-4711', 'Projektbudget: 1.234,50 EUR', 'Lieferdatum', '03.02.2026']);
    const lines = documentLines([page]);
    const locale = documentLocale([page], lines);
    expect(findValue(lines, ['Kostenstelle', 'Cost centre'], 'text', locale)?.value).toBe('KS-4711');
    expect(findValue(lines, ['Projektbudget'], 'amount', locale)?.value).toBe(1234.5);
    expect(findValue(lines, ['Lieferdatum'], 'date', locale)?.value).toBe('2026-02-03');
    expect(findValue(lines, ['Bestellnummer'], 'text', locale)).toBeNull();
  });
});

describe('whose tax id, and whose number', () => {
  it("reads `N° TVA intra` as one label, so the vendor's id printed first is not passed over for a tax representative's", () => {
    const r = understand(['LE FOURNISSEUR', 'FACTURE N° : F20260023', 'N° TVA intra : FR 11 123 456 782', 'Représentant Fiscal', 'N° TVA Intra : FR 05 987 654 321', 'TOTAL TTC 104,90']);
    expect(r.fields.vendor_tax_id?.value).toBe('FR 11 123 456 782');
    expect(r.fields.vendor_tax_id!.confidence).toBeGreaterThanOrEqual(0.9);
  });
  it("takes the id among the issuer's legal mentions over one in another party's block, and is less sure of an id that others contradict", () => {
    const r = understand(['FACTURE', 'Hôtel du Pacano', '2, rue de la Paix                    Securibox SARL', '                                     TVA : FR38500003710', 'Total 1.368,84 €', 'SASU au capital de 200000€ - SIRET 12345682400016 – TVA FR40123456824']);
    expect(r.fields.vendor_tax_id?.value).toBe('FR40123456824');
    const alone = understand(['ACME SARL', '12 rue Haute, Paris', 'FACTURE N° 7', '                                     Client: Beta SA', '                                     TVA : FR38500003710', '                                     TVA : FR40123456824', 'Total 10,00']);
    expect(alone.fields.vendor_tax_id!.confidence).toBeLessThan(0.9);
  });
  it("takes no number of another key printed after a heading that names the invoice (`Références sur la facture   GLN : …`)", () => {
    const r = understand(['LE FOURNISSEUR', 'Date : 01/01/2023', 'Références sur la facture    GLN : 1234567890128', 'Total 216,00']);
    expect(r.fields.invoice_number).toBeNull();
  });
});

describe("the items' sum with the document's allowances and charges", () => {
  it('reads allowance and charge lines after their reason code, and drops the item table’s items_sum_mismatch where they make the items add up', async () => {
    const { checkFields, documentAdjustments, mergeTotals } = await import('../../../src/extract/document/checks.js');
    const { documentLines } = await import('../../../src/extract/locale/lines.js');
    const lines = documentLines([textPage(['95   REMISE : REMISE COMMERCIALE   5,00% sur 100,00 EUR   -5,00   20,00%', 'FC   CHARGE : FRAIS DEPLACEMENT   10,00% sur 100,00 EUR   10,00   20,00%', 'Escompte : 0,00'])]);
    const adj = documentAdjustments(lines, 'comma');
    expect(adj).toEqual([-5, 10, 0]);
    const r = understand(['LE FOURNISSEUR', 'FACTURE N° F1', 'TOTAL HT 100,00', 'TOTAL TVA 4,90', 'TOTAL TTC 104,90']);
    const item = (amount: number) => ({ table_index: 0, row: 1, description: 'x', quantity: 1, unit_price: amount, amount, currency: 'EUR', cells: {}, page: 1, bbox: [0, 0, 1, 1] as [number, number, number, number], flags: [] });
    const checked = checkFields(r.fields, [item(60), item(35)], adj);
    expect(checked).toEqual({ flags: [], itemsAdd: true });
    const tableTotals = { subtotal: 100, tax: 4.9, total: 104.9, currency: 'EUR', flags: ['items_sum_mismatch'] };
    expect(mergeTotals(tableTotals, r.fields, checked.flags, checked.itemsAdd)?.flags).toEqual([]);
    expect(checkFields(r.fields, [item(60), item(35)]).flags).toEqual(['items_sum_mismatch']);
  });
});

describe('the vendor named in the legal footer', () => {
  it('is the issuer, though the customer above it prints a legal form and its tax ids', () => {
    const head = ['FACTURE', '20/09/2023', 'nº 2023-6013', 'Société Hôtelière du Pacano', '2, rue de la Paix', '75000 Paris', 'Securibox SARL', '27, Rue de Bassano', '75008 Paris', 'TVA : FR38500003710'];
    const body = ['Description   Quantité   Total HT', 'Chambre   6   1.235,40', 'Montant Total TTC 1.368,84'];
    const filler = Array.from({ length: 45 - head.length - body.length }, () => '');
    const footer = ['Société Hôtelière du Pacano', '2, rue de la Paix – 75000 Paris', 'SASU au capital de 200000€ - SIRET 12345682400016 – R.C.S Paris 123 456 789'];
    expect(understand([...head, ...body, ...filler, ...footer]).fields.vendor_name?.value).toBe('Société Hôtelière du Pacano');
    // Without the footer, the party with the legal form stays the vendor: the footer decides.
    expect(understand([...head, ...body]).fields.vendor_name?.value).toBe('Securibox SARL');
  });
});

/**
 * The invoice fields that cost trust when read wrong, each on a page made here: the number its
 * label names, the parties by their role, due dates from their labels and terms, totals that add
 * up (a prepayment, a totals box of labels over amounts), a tax id that is no tax amount, and a
 * currency sign that OCR made of a letter.
 */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import { textPage } from './pages.js';

const understand = (lines: string[]) => understandDocument([textPage(lines)], [], { line_items: [], totals: null });
const value = (lines: string[], name: string) => (understand(lines).fields as Record<string, { value: unknown } | null>)[name]?.value ?? null;

describe('an invoice number is what its label names', () => {
  it('not the house number of the street beside the title (Dutch)', () => {
    const page = ['Factuur Keizersgracht 123', 'Bakkerij de Vries B.V.', '1015 CJ Amsterdam', 'Factuurnummer: 2024-0871', 'Factuurdatum: 12-03-2024', 'Totaal 121,00'];
    expect(value(page, 'invoice_number')).toBe('2024-0871');
  });
  it('not a postcode, nor the number of a key printed after the label', () => {
    expect(value(['Facture 75018 Paris', 'Facture N° : F-2024-17', 'Total TTC 12,00'], 'invoice_number')).toBe('F-2024-17');
    expect(value(['Références sur la facture   ID : 4471', 'Numéro de facture : FA-889', 'Total TTC 12,00'], 'invoice_number')).toBe('FA-889');
  });
  it('a label that names the number wins over a number after the title', () => {
    expect(value(['INVOICE 4471', 'Invoice No.: INV-2024-33', 'Total 10.00'], 'invoice_number')).toBe('INV-2024-33');
  });
  it('OCR that glued the number sign to the label (`FACTUREN:`)', () => {
    expect(value(['LE FOURNISSEUR   FACTUREN: F20220023', 'Date: 31/01/2022', 'NET A PAYER 104,90 EUR'], 'invoice_number')).toBe('F20220023');
  });
  it('past a smudge OCR read between the label and the number, far across its box', () => {
    const page = textPage(['LOGO LE FOURNISSEUR   FACTURE N° io . :                    F20260025', 'Date :                    31/01/2026', 'NET A PAYER 100,00 EUR']);
    for (const w of page.words) w.confidence = w.text === 'io' ? 0.38 : 0.93;
    expect(understandDocument([page], [], { line_items: [], totals: null }).fields.invoice_number?.value).toBe('F20260025');
    const marks = textPage(['FACTURE N°: *.                    F20260029', 'NET A PAYER 100,00 EUR']);
    for (const w of marks.words) w.confidence = 0.9;
    expect(understandDocument([marks], [], { line_items: [], totals: null }).fields.invoice_number?.value).toBe('F20260029');
  });
  it('a key read unsure after the label is still a key: the number is its own', () => {
    const page = textPage(['Références sur la facture   GLN : 3654789851', 'Facture N° : F-2026-8', 'Total TTC 12,00']);
    for (const w of page.words) w.confidence = w.text === 'GLN' ? 0.45 : 0.93;
    expect(understandDocument([page], [], { line_items: [], totals: null }).fields.invoice_number?.value).toBe('F-2026-8');
  });
  it('an invoice named in a phrase labels nothing, and a key before a colon read `;` is still a key', () => {
    expect(value(['Acme SARL', 'Références sur la facture   GLN ; 3654789851', 'Total TTC 12,00'], 'invoice_number')).toBeNull();
    expect(value(['Acme Ltd', 'Please quote the invoice 55102 when paying', 'Total 12.00'], 'invoice_number')).toBeNull();
    expect(value(['Acme SARL', 'FACTURE N° : F-2026-8', 'Références sur la facture   GLN ; 3654789851', 'Total TTC 12,00'], 'invoice_number')).toBe('F-2026-8');
  });
  it('the number sign as OCR reads it (`Ne:`, `n?`), and a factored invoice (`Affacturée N°`)', () => {
    expect(value(['LOGO LE FOURNISSEUR   FACTURE Ne: F20220031', 'Date: 31/01/2022', 'NET A PAYER 104,90 EUR'], 'invoice_number')).toBe('F20220031');
    expect(value(['PACANO HOTEL   FACTURE', '20/09/2023', 'n? 2023-6013', 'Total TTC 1 368,84'], 'invoice_number')).toBe('2023-6013');
    expect(value(['LOGO LE FOURNISSEUR   FACTURE', 'AFFACTUREE N° UC1_2023020_AFF', 'Date : 01/01/2023', 'NET A PAYER 216,00 EUR'], 'invoice_number')).toBe('UC1_2023020_AFF');
  });
});

describe('parties by their role', () => {
  it('a label, a phone line or a VAT id after a customer label is no name', () => {
    expect(value(['Acme Ltd', 'Invoice No.: 7', 'Bill to: Address:', 'Total 1.00'], 'customer_name')).toBeNull();
    expect(value(['Acme Ltd', 'Invoice No.: 7', 'Customer: +44 20 7946 0958', 'Total 1.00'], 'customer_name')).toBeNull();
    expect(value(['Acme SARL', 'Facture N° 7', 'Client : TVA FR11123456782', 'Total 1,00'], 'customer_name')).toBeNull();
    expect(value(['Acme B.V.', 'Factuur 2024-7', 'Afleveradres: Jansen Bouw B.V.', 'Totaal 1,00'], 'customer_name')).toBe('Jansen Bouw B.V.');
  });
  it('the block under `Facturé à` is the customer, however large, not the vendor', () => {
    const page = textPage(['Facturé à', 'GRANDE SOCIETE CLIENTE SA', '12 rue du Port', '13002 Marseille', '', 'Petit Atelier', '4 place Verte, 69001 Lyon', 'Facture N° F-77', 'Total TTC 120,00']);
    for (const w of page.words.filter((w) => w.y0 > 50 && w.y0 < 60)) w.size = 16;
    const r = understandDocument([page], [], { line_items: [], totals: null });
    expect(r.fields.vendor_name?.value).not.toMatch(/CLIENTE/);
  });
  it('the vendor tax id is the one printed with the vendor, however unsure OCR was of it', () => {
    const page = textPage(['LE FOURNISSEUR', '35 rue Verte, 75018 Paris', 'TVA : FR 11 123 456 782', 'Représentant fiscal', 'TVA : FR 05 987 654 321', 'Facture N° F-1', 'Total TTC 10,00']);
    for (const w of page.words.filter((w) => w.y0 > 60 && w.y0 < 70)) w.confidence = 0.6;
    for (const w of page.words) w.confidence ??= 0.95;
    expect(understandDocument([page], [], { line_items: [], totals: null }).fields.vendor_tax_id?.value).toBe('FR 11 123 456 782');
  });
});

describe('due dates from their labels and from payment terms', () => {
  it('reads `payable by`, `à régler avant`, `zahlbar bis`', () => {
    expect(value(['Acme Ltd', 'Invoice No.: 7', 'Date: 01/03/2024', 'Payable by: 31/03/2024', 'Total 1.00'], 'due_date')).toBe('2024-03-31');
    expect(value(['Acme SARL', 'Facture N° 7', 'Date : 01/03/2024', 'À régler avant : 31/03/2024', 'Total TTC 1,00'], 'due_date')).toBe('2024-03-31');
    expect(value(['Acme GmbH', 'Rechnung Nr. 7', 'Datum: 01.05.2014', 'Zahlbar bis 21.05.2014', 'Gesamtbetrag 1,00'], 'due_date')).toBe('2014-05-21');
  });
  it('counts a term of days from the issue date, less surely than a printed date', () => {
    const r = understand(['Acme SARL', 'Facture N° 7', 'Date : 31/01/2022', 'Conditions de paiement : paiement 30 jours net', 'Total TTC 1,00']);
    expect(r.fields.due_date?.value).toBe('2022-03-02');
    expect(r.fields.due_date!.confidence).toBeLessThan(0.9);
    expect(value(['Acme Ltd', 'Invoice No.: 7', 'Date: March 1, 2024', 'Terms: Net 30', 'Total 1.00'], 'due_date')).toBe('2024-03-31');
  });
  it('a delivery term or a net amount is no payment term', () => {
    expect(value(['Acme Ltd', 'Invoice No.: 7', 'Date: 01/03/2024', 'Delivery within 10 days', 'Total net 100', 'Total 1.00'], 'due_date')).toBeNull();
  });
});

describe('totals that add up', () => {
  it('an amount to pay after a prepayment is not the total', () => {
    const r = understand(['Acme SARL', 'Facture N° 7', 'Total HT 100,00', 'TVA 0,00', 'Montant déjà payé : 10,00', 'NET A PAYER 90,00 EUR']);
    expect(r.fields.total?.value).toBe(100);
  });
  it('a totals box of labels over amounts, with a paragraph beside it on the same lines', () => {
    const r = understand(['Acme SARL', 'Facture N° 7', 'Tout retard de paiement engendre une pénalité      TOTAL HT      TOTAL TVA      TOTAL TTC', 'exigible à compter de la date d échéance.      100,00      4,90      104,90']);
    expect([r.fields.subtotal?.value, r.fields.tax?.value, r.fields.total?.value]).toEqual([100, 4.9, 104.9]);
  });
  it('several tax rates add up to the tax', () => {
    const r = understand(['Acme GmbH', 'Rechnung Nr. 7', 'Nettobetrag 200,00', 'MwSt. 7 % 7,00', 'MwSt. 19 % 19,00', 'Gesamtbetrag 226,00']);
    expect(r.fields.tax?.value).toBe(26);
    expect(r.fields.total?.value).toBe(226);
  });
  it('a tax read larger than the total (a mark read as a digit) gives way to the total less the subtotal printed in the breakdown', () => {
    const page = textPage(['Lieferant GmbH', 'Rechnung Nr. 6063636771001', 'Total amount (net): 20.549,00 €', 'Total tax amount: 3,904,317 €', 'Total amount (gross): 24.453,31 €', 'VAT 19,00 %      20.549,00      3.904,31']);
    for (const w of page.words) w.confidence = w.text === '3,904,317' ? 0.74 : 0.9;
    const r = understandDocument([page], [], { line_items: [], totals: null });
    expect(r.fields.tax?.value).toBe(3904.31);
    expect(r.fields.tax!.confidence).toBeLessThan(0.7);
    expect(r.totals?.tax).toBe(3904.31);
  });
  it('a tax id printed after a tax label is no tax amount', () => {
    const r = understand(['Acme SARL', 'TVA : FR 05 987 654 321', 'Facture N° 7', 'Total HT 10,00', 'Total TTC 12,00']);
    expect(r.fields.tax?.value ?? null).not.toBe(5987654321);
    expect(r.fields.tax?.value ?? null).not.toBe(987654321);
  });
});

describe('currency', () => {
  it('a `$` inside a code (OCR of an S) does not make a ringgit receipt dollars', () => {
    const r = understand(['KEDAI RUNCIT SDN BHD', 'GST REG NO: 000123456789', 'Invoice No: C$00012514', 'Total (RM) 12.50', 'Cash RM 20.00', 'Change 7.50']);
    expect(r.fields.currency?.value).toBe('MYR');
  });
});

describe('the issue date is the date of this invoice', () => {
  it('not the date of an invoice it refers to, nor of a service period (fr, en, de)', () => {
    const fr = ['FACTURE N° : F2026-31', 'N° de facture associée : F2026-03', 'Date de facture associée : 01/01/2026', 'Date de début de prestation : 02/01/2026', 'Date : 31/01/2026', 'Total TTC 12,00'];
    expect(value(fr, 'issue_date')).toBe('2026-01-31');
    expect(value(['Credit note CN-77', 'Original invoice date: 03/02/2026', 'Start date: 01/02/2026', 'Date: 28/02/2026', 'Total 10.00'], 'issue_date')).toBe('2026-02-28');
    expect(value(['Gutschrift G-12', 'Datum der Ursprungsrechnung: 03.02.2026', 'Leistungsbeginn: 01.02.2026', 'Datum: 10.02.2026', 'Summe 10,00'], 'issue_date')).toBe('2026-02-10');
  });
});

describe('labels read with their accents as OCR and capitals leave them', () => {
  it('`réglement` for `règlement`, `ECHEANCE`, `Fallig` for `Fällig`', () => {
    const page = (due: string) => ['Hôtel du Lac', 'Facture N° : F2026-9', 'Date : 20/09/2023', due, 'Total TTC 12,00'];
    expect(value(page('Date limite de réglement : 19/10/2023'), 'due_date')).toBe('2023-10-19');
    expect(value(page("DATE D'ECHEANCE : 19/10/2023"), 'due_date')).toBe('2023-10-19');
    expect(value(page('Date limite de réglement : 19/10/2023'), 'issue_date')).toBe('2023-09-20');
    expect(value(['Müller GmbH', 'Rechnung Nr. 4711', 'Rechnungsdatum: 02.03.2026', 'Fallig am: 01.04.2026', 'Gesamtbetrag 10,00'], 'due_date')).toBe('2026-04-01');
  });
});

/**
 * What a document is, told by its title, a till's marks and what it prints — and what a
 * document of no known type (a report, a letter) is given: only the fields a label names.
 */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import { textPage } from './pages.js';

const understand = (lines: string[]) => understandDocument([textPage(lines)], [], { line_items: [], totals: null });

describe('a till receipt is a receipt', () => {
  it('though its web address names terms (`www.…/terms` is no payment terms, which only an invoice prints)', () => {
    const r = understand([
      'PIZZA CORNER',
      'Order Time : 13:14:55  Date : 28/04/18',
      '1 Large Hawaiian  15.60',
      'Total Items 1',
      'Grand Total : 15.60',
      'Payment : 20.00',
      'Change Due : 4.40',
      'Thank you for visiting!',
      'Visit www.pizzacorner.com/terms',
      'to view our Personal Data Policy',
    ]);
    expect(r.document_type).toBe('receipt');
    expect(r.fields.payment_terms).toBeNull();
  });

  it('where a line says its total was paid in cash (`REGLE PAR ESPECE`, no accent)', () => {
    const r = understand(['RELAIS DU LAC', 'Le 30/03/2018', 'CAFE CREME  12.00  2  24.00', 'CHOCOLAT CHAUD  12.00  1  12.00', 'Total Facture : 36.00 DH', 'REGLE PAR ESPECE 36.00 DH']);
    expect(r.document_type).toBe('receipt');
    expect(r.fields.total?.value).toBe(36);
  });
});

describe('an invoice is an invoice', () => {
  it('with its title run together by the ink (`TAXINVOICE`)', () => {
    const r = understand(['KEDAI MAJU SDN BHD', 'GST REG NO: 000743903232', 'TAXINVOICE (KEDAI)', 'INV NO/DATE: K074-001096 (06/12/2016)', 'TOTAL 105.57']);
    expect(r.document_type).toBe('invoice');
  });
});

describe('a document of no known type', () => {
  const report = [
    'Intricacies of the federal market',
    'Annual review 2025, published 12.03.2026',
    'Report No.: AR-2025-7',
    'Prices rose in every region; payment terms of net 30 days were the rule.',
    'Region  North  South',
  ];
  it('keeps the fields a label names and none read by where they stand', () => {
    const r = understand(report);
    expect(r.document_type).toBe('other');
    expect(r.fields.vendor_name).toBeNull();
    expect(r.fields.vendor_address).toBeNull();
    expect(r.fields.payment_terms).toBeNull();
    expect(r.fields.issue_date).toBeNull();
    expect(r.line_items).toEqual([]);
  });
});

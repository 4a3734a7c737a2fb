/**
 * The total of a till receipt where OCR split its amount, a rounding adjustment or a payment
 * decides it, or another line's zero or a tax rate's share would pass for it: synthetic pages in
 * a monospaced till type, shaped like the scanned shop receipts of Malaysia (SROIE).
 */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';

/**
 * A till receipt in 10 pt monospaced type (5 pt a character, a space between words), OCR
 * confidence 0.9. `_` joins the pieces of one word OCR split: they stand a point apart.
 */
function till(lines: string[]): PageLayout {
  const words: Word[] = [];
  let y = 40;
  for (const line of lines) {
    let x = 100;
    for (const token of line.split(' ').filter(Boolean)) {
      for (const piece of token.split('_')) {
        words.push({ text: piece, x0: x, y0: y, x1: x + piece.length * 5, y1: y + 10, size: 10, confidence: 0.9 });
        x += piece.length * 5 + 1;
      }
      x += 5;
    }
    y += 14;
  }
  return { page: 1, width: 600, height: Math.max(842, y + 40), words, rulings: [] };
}

const fields = (lines: string[]) => understandDocument([till(['KEDAI MAJU SDN BHD', 'NO 12, JALAN BESAR,', 'TAX INVOICE', 'Date: 09/10/2017 12:31', ...lines])], [], { line_items: [], totals: null }).fields;
const total = (lines: string[]) => fields(lines).total?.value;

describe('an amount OCR split', () => {
  it('joins the digits of a total split by the ink, a mark read as a word of its own among them', () => {
    expect(total(['SUB-TOTAL (GST) 16.00', 'TOTAL 1_6_._00', 'CASH 20_._00', 'CHANGE 4_._00'])).toBe(16);
    expect(total(['Total Incl GST RM 1_19.70', 'CHANGE RM 0.30'])).toBe(119.7);
  });
  it('keeps a count a space before the amount apart from it', () => {
    expect(total(['Total 2 19.70'])).toBe(19.7);
  });
  it('reads the amount before a tag the till prints after it (a tax code, a currency)', () => {
    expect(total(['CAFE CREME 12.00 2 24.00', 'Total Facture : 24.00 DH'])).toBe(24);
    expect(total(['Total Amt Payable 159.00 SR', 'Paid Amount : 200.00', 'Change : 41.00'])).toBe(159);
  });
});

describe('the rounding adjustment', () => {
  it('takes the total with its adjustment, in the direction that lands on a 5-sen step when the sign is not printed', () => {
    expect(total(['Total Sales (Inclusive GST) RM 181.98', 'Rounding Adjustment RM .02'])).toBe(182);
    expect(total(['Total 7.42', 'Rounding Adj 0.02'])).toBe(7.4);
    expect(total(['Total 7.42', 'Rounding Adj -0.02'])).toBe(7.4);
  });
  it('is not surer of the rounded total than of the printed one it is made of', () => {
    const f = fields(['Total 7.42', 'Rounding Adj 0.02']).total!;
    expect(f.confidence).toBeLessThan(0.9);
  });
  it('takes the printed rounded total, which the unrounded one plus the adjustment and cash minus change agree on', () => {
    expect(total(['Total RM Incl. of GST 14.64', 'Rounding Adj 0.01', 'Total RM 14._65', 'Cash -50.00', 'CHANGE 35._35'])).toBe(14.65);
  });
});

describe('a zero, a payment and a tax rate share beside the total', () => {
  it("takes no till total of nothing when amounts were charged", () => {
    expect(total(['Total Saved 0.00', 'Total 5.30'])).toBe(5.3);
  });
  it('reads a total run into the next word by the ink as that word: TotalGST is the tax', () => {
    const f = fields(['Total Sales (Excluding GST) 180.00', 'TotalGST : 10.80', 'CASH : 190.80', 'Change : 0.00']);
    expect([f.tax?.value, f.total?.value]).toEqual([10.8, 190.8]);
  });
  it("takes no tax rate's total (`Total 6% supplies (Inc. GST)`) for the document's", () => {
    expect(total(['Total 0% supplies: 18.54', 'Total 6% supplies (excl. GST): 14.40', 'GST: 0.86', 'Total 6% supplies (Inc. GST): 15.26', 'Total Payable: 33.80'])).toBe(33.8);
  });
  it('takes an amount alone on its line that subtotal and tax add up to, less surely than a labelled total, over a misread cash minus change', () => {
    const f = fields(['TOTAL EXCL.GST 28.11', 'ADD : GST @ 6% On 1.69', '29.80', 'CASH 80.00', 'CHANGE 20.20']).total!;
    expect(f.value).toBe(29.8);
    expect(f.confidence).toBeLessThan(0.7);
  });
  it('takes a Net Total under the tax line for the total, and one above it for the subtotal', () => {
    expect(total(['1 FISHBALL NOODLE 7.00', 'GST 6% 0.42', 'ROUNDING ADJ -0.02', 'NETT TOTAL 7.40', 'CHANGE 0.00'])).toBe(7.4);
    const f = fields(['Net Total 100.00', 'VAT 20% 20.00', 'Total 120.00']);
    expect([f.subtotal?.value, f.total?.value]).toEqual([100, 120]);
  });
  it('reads what was paid from a line that says only that (`Pay`), not from one that names what is paid for', () => {
    expect(total(['Due 19.20', 'Pay 20.00', 'Change 0.80'])).toBe(19.2);
    expect(total(['Pay parking ticket 1.50', 'Total amount 1.50', 'Accepted total 2.00', 'Change 0.50'])).toBe(1.5);
  });
});

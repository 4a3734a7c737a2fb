/**
 * A totals row (the amount before tax, the tax and the total side by side under their labels) read
 * by its arithmetic where OCR garbled its labels or ran them and the amounts into the paragraph
 * beside the box, as on a 150 dpi scan of an invoice with payment terms printed left of its totals.
 */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';

const none = { line_items: [], totals: null };
/** A page of lines given as [x, text] runs, 14 pt apart, each word read by OCR at 0.85. */
function page(lines: [number, string][][]): PageLayout {
  const words: Word[] = [];
  lines.forEach((runs, i) => {
    for (const [start, text] of runs) {
      let x = start;
      for (const t of text.split(' ').filter(Boolean)) {
        words.push({ text: t, x0: x, y0: 40 + i * 14, x1: x + t.length * 5, y1: 50 + i * 14, size: 10, confidence: 0.85 });
        x += t.length * 5 + 3;
      }
    }
  });
  return { page: 1, width: 595, height: 842, words, rulings: [] };
}
const read = (lines: [number, string][][]) => understandDocument([page(lines)], [], none).fields;

/** A French invoice's foot: payment terms on the left, the totals box on the right. */
const foot = (header: string, row: [string, string, string], due: string): [number, string][][] => [
  [[40, 'FACTURE N° F-2026-118']],
  [[40, 'Date : 12/03/2026']],
  [[40, 'Tout retard de paiement engendre une pénalité'], [380, header]],
  [[40, 'Indemnité forfaitaire pour frais de recouvrement : 40 €.']],
  [[40, 'Les règlements reçus avant la date ne donnent pas lieu à escompte.'], [390, row[0]], [450, row[1]], [505, row[2]]],
  [[40, 'Date d\'échéance : 11/04/2026'], [380, `NET A PAYER ${due} EUR`]],
];

describe('a totals row read by its arithmetic', () => {
  it('reads the amount before tax, the tax and the total of a box whose header OCR garbled', () => {
    const f = read(foot('TOTAL HT TWA TOTAL TTC', ['262,90', '52,58', '315,48'], '315,48'));
    expect(f.subtotal?.value).toBe(262.9);
    expect(f.tax?.value).toBe(52.58);
    expect(f.total?.value).toBe(315.48);
  });

  it('reads a German row of net, VAT and gross under their labels', () => {
    const f = read([
      [[40, 'Rechnung Nr. 2026-0042']],
      [[40, 'Bitte überweisen Sie den Betrag'], [380, 'Netto MwSt Brutto']],
      [[40, 'innerhalb von 14 Tagen ohne Abzug.'], [385, '1.250,00'], [440, '237,50'], [495, '1.487,50']],
      [[380, 'Zu zahlen 1.487,50 EUR']],
    ]);
    expect(f.subtotal?.value).toBe(1250);
    expect(f.tax?.value).toBe(237.5);
  });

  it('repairs a digit misread in the amount before tax, and leaves it unsure', () => {
    const f = read(foot('TOTAL HT TOTAL TVA TOTAL TTC', ['100,50', '7,02', '107,82'], '107,82'));
    expect(f.subtotal).toMatchObject({ value: 100.8, text: '100,50' });
    expect(f.subtotal!.confidence).toBeLessThan(0.7);
  });

  it('takes no item row for the totals, even one whose figures add up', () => {
    const f = read([
      [[40, 'INVOICE 7781']],
      [[40, 'Description'], [300, 'Unit price VAT Amount']],
      [[40, 'Support contract, January'], [305, '60.00'], [360, '0.00'], [410, '60.00']],
      [[300, 'Total due 60.00']],
    ]);
    expect(f.subtotal).toBeNull();
  });

  it('takes no row of a tax breakdown (a rate on the line) for the totals', () => {
    const f = read([
      [[40, 'INVOICE 7782']],
      [[300, 'Rate Net VAT Gross']],
      [[300, '20 %'], [340, '100.00'], [400, '20.00'], [450, '120.00']],
      [[300, 'Total due 120.00']],
    ]);
    expect(f.subtotal).toBeNull();
  });
});

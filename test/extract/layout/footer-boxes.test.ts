/**
 * An invoice's footer as its text layer gives it (test/fixtures/layouts/invoice-footer.txt: the
 * words and rulings, in points, of the footer of a Factur-X 1.0.07 EXTENDED sample invoice of
 * the FNFE-MPE, as published with LandrixSoftware/ZUGFeRD-for-Delphi under Apache-2.0, every
 * digit changed): terms
 * in small type on the left, a ruled box of totals beside them, the due date and the amount due
 * in boxes under it, and a ruled payment box below. The totals box is a table of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Ruling, Word } from '../../../src/extract/types.js';
import { REPO_ROOT } from '../../paths.js';
import { grid } from './helpers.js';

function footer(): PageLayout {
  const [wordPart, rulePart] = readFileSync(`${REPO_ROOT}/test/fixtures/layouts/invoice-footer.txt`, 'utf8').split('RULINGS\n');
  const words = wordPart.trim().split('\n').map((l): Word => {
    const [x0, y0, x1, y1, size, ...text] = l.split(' ');
    return { text: text.join(' '), x0: +x0, y0: +y0, x1: +x1, y1: +y1, size: +size, confidence: null };
  });
  const rulings = rulePart.trim().split('\n').map((l): Ruling => {
    const [x0, y0, x1, y1] = l.split(' ').map(Number);
    return { x0, y0, x1, y1 };
  });
  return { page: 1, width: 595, height: 842, words, rulings };
}

describe('ruled boxes in an invoice footer', () => {
  it('the totals box beside the terms is a table of its own, and no table runs into another box', () => {
    const tables = detectTables(footer());
    const totals = tables.find((t) => grid(t).some((r) => r.includes('TOTAL TVA')));
    expect(totals && grid(totals)).toEqual([
      ['TOTAL HT', 'TOTAL TVA', 'TOTAL TTC'],
      ['033,93', '2,37', '032,97'],
    ]);
    for (const a of tables) {
      for (const b of tables) {
        const w = Math.min(a.bbox[2], b.bbox[2]) - Math.max(a.bbox[0], b.bbox[0]);
        const h = Math.min(a.bbox[3], b.bbox[3]) - Math.max(a.bbox[1], b.bbox[1]);
        if (a !== b) expect(w > 1 && h > 1, `${a.n_rows}×${a.n_cols} over ${b.n_rows}×${b.n_cols}`).toBe(false);
      }
    }
  });
});

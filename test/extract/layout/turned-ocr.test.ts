/** A table printed sideways on an upright page image: OCR reads its words with tall boxes and no rotation. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

const ROWS = [
  ['Code', 'Class', 'State', 'Population'],
  ['648765', 'AAA', 'Aguascalientes', '1,184,996'],
  ['001342', 'B', 'Baja California', '3,155,070'],
  ['220871', 'C', 'Campeche', '822,441'],
  ['330014', 'BBB', 'Coahuila de Zaragoza', '2,748,391'],
  ['417760', 'AA', 'Colima', '650,555'],
];
const COLUMN_AT = [100, 260, 360, 740];

/**
 * The table turned a quarter: each row is a column of the page and its text reads down the
 * page (`down`) or up it. Boxes as OCR draws them at 200 dpi: 24 px across a line, 14 px down
 * a letter, words 8 px apart; `size` from the line's box, which for a turned line runs down the
 * whole phrase (so it says nothing of the text's size). Words come in reading order.
 */
function sideways(down: boolean): Word[] {
  const words: Word[] = [];
  ROWS.forEach((row, r) => {
    // Read down the page, the header row is the rightmost line; read up it, the leftmost.
    const x0 = down ? 900 - 40 * r : 500 + 40 * r;
    row.forEach((cell, c) => {
      let at = down ? COLUMN_AT[c] : 1000 - COLUMN_AT[c];
      for (const text of cell.split(' ')) {
        const len = 14 * text.length;
        const [y0, y1] = down ? [at, at + len] : [at - len, at];
        words.push({ text, x0, y0, x1: x0 + 24, y1, size: 1.15 * len, confidence: 0.9 });
        at = down ? y1 + 8 : y0 - 8;
      }
    });
  });
  return words;
}

const page = (words: Word[]): PageLayout => ({ page: 1, width: 1240, height: 1754, words, rulings: [] });

describe('turned text on page images', () => {
  it('a table printed sideways, read down the page, is found as it reads, single letters and all', () => {
    const tables = detectTables(page(sideways(true)));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual(ROWS);
  });

  it('read up the page too', () => {
    const tables = detectTables(page(sideways(false)));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual(ROWS);
  });

  it("tall words read unsure (a scan's marks and hatching) are no table", () => {
    const words = sideways(true).map((w) => ({ ...w, confidence: 0.3 }));
    expect(detectTables(page(words))).toHaveLength(0);
  });

  it("two lines of them (a chart's bar labels with their values) are no table", () => {
    const words = sideways(true).filter((w) => w.x0 >= 860);
    expect(detectTables(page(words))).toHaveLength(0);
  });

  it('a few tall words (an axis title, vertical labels) are no table', () => {
    const words = sideways(true).filter((w) => w.x0 === 900);
    expect(detectTables(page(words))).toHaveLength(0);
  });
});

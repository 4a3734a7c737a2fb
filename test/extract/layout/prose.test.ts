import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

/** Words of a line: each piece [text, x] set from x with word spaces of 4 (about 0.3 em). */
function line(y: number, pieces: [string, number][]): Word[] {
  return pieces.flatMap(([text, x0]) => {
    let x = x0;
    return text.split(' ').map((t) => {
      const w = { text: t, x0: x, y0: y, x1: x + 7 * t.length, y1: y + 11, size: 13, confidence: 0.95 };
      x = w.x1 + 4;
      return w;
    });
  });
}

// Two columns of running text whose last lines end right above a table: the left column's last
// line is one word, the right column's paragraph goes on for a line and a half.
const PAGE: PageLayout = {
  page: 1, width: 800, height: 600, rulings: [],
  words: [
    ...line(100, [['productivity programmes mainly in Technology and', 50], ['programmes across retail and commercial banking', 400]]),
    ...line(114, [['Operations.', 50], ['contractors at the year end was 10,854', 400]]),
    ...line(128, [['2,040 from the year before.', 400]]),
    ...line(150, [['2018', 500], ['2017', 600]]),
    ...line(166, [['Share of profit', 50], ['2,519', 500], ['2,349', 600]]),
    ...line(182, [['Share of loss', 50], ['(12)', 500], ['(31)', 600]]),
  ],
};

describe('prose in columns', () => {
  it('the lines going on from two columns of prose are not rows of the table under them', () => {
    const tables = detectTables(PAGE);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', '2018', '2017'],
      ['Share of profit', '2,519', '2,349'],
      ['Share of loss', '(12)', '(31)'],
    ]);
  });

  it('a table set a blank line under the prose keeps its first line, though it starts at the paragraph\'s edge', () => {
    const words = [
      ...PAGE.words.filter((w) => w.y0 === 100),
      ...line(126, [['Share of gain', 50], ['7', 500], ['9', 600]]),
      ...line(142, [['Share of profit', 50], ['2,519', 500], ['2,349', 600]]),
      ...line(158, [['Share of loss', 50], ['(12)', 500], ['(31)', 600]]),
    ];
    const [t] = detectTables({ ...PAGE, words });
    expect(grid(t)[0]).toEqual(['Share of gain', '7', '9']);
  });
});

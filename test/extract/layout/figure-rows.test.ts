/** A wide table of figures set evenly, each row read as a run of figures with like gaps. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import { chunksOf, textLines } from '../../../src/extract/layout/prepare/lines.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

/** Words of a line at `y`, each [text, x0]: 7 px a character, 11 px high, size 14 (OCR's tall boxes). */
function line(y: number, pieces: [string, number][]): Word[] {
  return pieces.map(([text, x0]) => ({ text, x0, y0: y, x1: x0 + 7 * text.length, y1: y + 14, size: 14, confidence: 0.9 }));
}

/** A row of a dive table: depth and limit, then 16 group columns 30 px apart (gaps about 1 em, all alike). */
const row = (y: number, values: number[]) => line(y, values.map((v, i) => [String(v), i < 2 ? 80 + 70 * i : 230 + 30 * (i - 2)]));

const ROWS = [30, 31, 32, 33, 34, 35, 36].map((d, k) => [d, 371 - 20 * k, ...Array.from({ length: 16 }, (_, i) => 10 + 11 * i + k)]);

describe('rows of figures set evenly', () => {
  it('split at every column gap, though all the gaps are alike (no justified prose)', () => {
    const [l] = textLines(row(100, ROWS[0]));
    expect(chunksOf(l.words).map((c) => c.text)).toEqual(ROWS[0].map(String));
  });

  it('a phrase spaced like justified text stays one chunk', () => {
    const words = line(100, [['CAFE', 40], ['EXPRESSO', 78], ['10.00', 400], ['2', 535], ['20.00', 620]]);
    expect(chunksOf(words)[0].text).toBe('CAFE EXPRESSO');
  });

  it('are one table, not prose: a run of figures across the page is no sentence', () => {
    const page: PageLayout = {
      page: 1, width: 800, height: 1000, rulings: [],
      words: [
        ...line(60, [['Depth', 80], ['Limit', 150], ['Repetitive', 400], ['Group', 480]]),
        ...ROWS.flatMap((r, k) => row(84 + 22 * k, r)),
      ],
    };
    // The words of each row in one chunk, as OCR leaves them when its boxes run wide.
    const tables = detectTables({ ...page, words: page.words.map((w) => (w.y0 > 80 && w.x0 >= 230 ? { ...w, x1: w.x1 + 6 } : w)) });
    expect(tables).toHaveLength(1);
    const g = grid(tables[0]);
    expect(g).toHaveLength(ROWS.length + 1);
    expect(g.slice(1).map((r) => r[0])).toEqual(ROWS.map((r) => String(r[0])));
    expect(g[g.length - 1].filter((t) => t !== '').join(' ')).toBe(ROWS[ROWS.length - 1].join(' '));
  });
});

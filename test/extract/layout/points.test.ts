/** An image's layout is in its pixels: the lattice's tolerances, set in points, follow its resolution. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Ruling, Word } from '../../../src/extract/types.js';

// A table at 200 dpi (2.78 px a point): a header row between a rule and a double rule, three body
// rows, a double rule, a total row; one column rule, broken at each double rule (its lines 7 px,
// 2.5 pt, apart), as a page image's ruling finder returns it.
const h = (y: number): Ruling => ({ x0: 207, y0: y, x1: 1440, y1: y });
const v = (y0: number, y1: number): Ruling => ({ x0: 640, y0, x1: 640, y1 });
const rulings = [h(346), h(413), h(420), h(521), h(527), v(346, 414), v(420, 522), v(529, 562)];
const rows = [
  ['Asset', 'Freq.', 'Percent'],
  ['Kept', '344', '75.2'],
  ['Sold some', '53', '11.6'],
  ['Sold all', '61', '13.2'],
  ['Total', '458', '100.0'],
];
const ys = [365, 432, 462, 492, 536];
const words: Word[] = rows.flatMap((row, r) =>
  row.map((text, c) => {
    const x0 = [230, 660, 1000][c];
    return { text, x0, y0: ys[r], x1: x0 + 18 * text.length, y1: ys[r] + 22, size: 26, confidence: 0.95 };
  }),
);
const page: PageLayout = { page: 1, width: 1654, height: 2339, words, rulings, unitsPerPoint: 2.778 };

describe('image layouts in points', () => {
  it('a double rule on a 200 dpi page image is one grid line, as on a text layer', () => {
    const tables = detectTables(page);
    expect(tables).toHaveLength(1);
    const t = tables[0];
    expect(t.n_rows).toBe(5);
    expect(t.cells.find((c) => c.row === 0 && c.col === 0)?.text).toBe('Asset');
    expect(t.cells.find((c) => c.row === 4 && c.col === 0)?.text).toBe('Total');
    // Boxes come back in the image's pixels.
    expect(t.bbox[0]).toBeCloseTo(207, 0);
    expect(t.bbox[3]).toBeGreaterThan(527);
  });
  it('at under two pixels a point the tolerances stay in pixels', () => {
    // The same rulings taken as pixels: the rule's pieces 6-7 px apart stay apart.
    const [t] = detectTables({ ...page, unitsPerPoint: 1.28 });
    expect(t.n_rows).toBeLessThan(5);
  });
});

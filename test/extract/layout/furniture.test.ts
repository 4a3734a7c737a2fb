import { describe, expect, it } from 'vitest';
import { detectTables, documentTables, stitchTables } from '../../../src/extract/layout/index.js';
import { withoutFurniture } from '../../../src/extract/layout/prepare/furniture.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid, line } from './helpers.js';

const page = (n: number, words: Word[]): PageLayout => ({ page: n, width: 800, height: 1000, rulings: [], words });
/** OCR's jitter: the same line a few pixels off from page to page. */
const shift = (words: Word[], dx: number, dy: number) => words.map((w) => ({ ...w, x0: w.x0 + dx, x1: w.x1 + dx, y0: w.y0 + dy, y1: w.y1 + dy }));

const body = (y: number, n: number) => [
  ...line(y, [['Region', 50], ['2024', 500], ['2025', 600]]),
  ...[0, 1, 2, 3].flatMap((i) => line(y + 16 * (i + 1), [[`District ${n}${i}`, 50], [`${120 + i * 7 + n},4`, 500], [`${131 + i * 5 + n},9`, 600]])),
];

/** A report page: a running header and footer of two lines each, set apart at both ends, around a table. */
function reportPage(n: number, misread = false): PageLayout {
  const jitter = (n % 2) * 3 - 1;
  return page(n, [
    ...shift(line(30, [['Statistical report 2025', 50], [misread ? 'Reglonal accounts' : 'Regional accounts', 620]]), jitter, -jitter),
    ...shift(line(46, [['Chapter 2: Prices', 50], ['ISSN 1234-5678', 640]]), -jitter, jitter),
    ...body(300 + 40 * n, n),
    ...shift(line(950, [['Office of Statistics', 50], [`Page ${n} of 3`, 680]]), jitter, jitter),
    ...shift(line(966, [['www.statistics.example', 50], ['Published 11 March 2026', 600]]), jitter, 0),
  ]);
}

describe('page furniture', () => {
  it('a running header and footer repeated on every page, read with jitter and a misread, is no table', () => {
    const pages = [reportPage(1), reportPage(2, true), reportPage(3)];
    // Without the rule the header and the footer are 2×2 tables of their own on every page.
    expect(pages.flatMap(detectTables).length).toBeGreaterThan(3);
    const tables = documentTables(pages);
    expect(tables.map((t) => t.page)).toEqual([1, 2, 3]);
    for (const t of tables) expect(grid(t)[0]).toEqual(['Region', '2024', '2025']);
  });

  it("a table's header row repeated at the top of each page runs on into its rows: it stays", () => {
    const pages = [1, 2, 3].map((n) => page(n, [...body(60, n), ...line(950, [[`Page ${n} of 3`, 680]])]));
    const kept = withoutFurniture(pages);
    expect(kept.map((p) => p.words.length)).toEqual(pages.map((p) => p.words.length - 4));
    expect(documentTables(pages)).toEqual(stitchTables(kept.map(detectTables), kept));
    expect(grid(documentTables(pages)[0])[0]).toEqual(['Region', '2024', '2025']);
  });

  it('a line that repeats in the band but also stands in the body of a page is no furniture', () => {
    const pages = [1, 2].map((n) => page(n, [...line(40, [['Total', 50], ['Regional accounts', 620]]), ...body(300, n), ...line(600, [['Total', 50], ['Regional accounts', 620]])]));
    expect(withoutFurniture(pages)).toEqual(pages);
  });
});

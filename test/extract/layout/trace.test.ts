/** The layout trace: which pass made, cut or dropped each table of a page, and no change to the tables. */
import { describe, expect, it } from 'vitest';
import { detectTables, documentTables } from '../../../src/extract/layout/index.js';
import { traceTables, traceText } from '../../../src/extract/layout/run.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';

/** Text-layer words of one line at `y`, each cell's words from its x, 5 units a letter and 3 between words. */
function row(y: number, cells: [string, number][]): Word[] {
  return cells.flatMap(([text, x0]) => {
    let x = x0;
    return text.split(' ').map((t) => {
      const w: Word = { text: t, x0: x, y0: y, x1: x + 5 * t.length, y1: y + 10, size: 10, confidence: null };
      x = w.x1 + 3;
      return w;
    });
  });
}

const COLS = [50, 170, 290];
const body = (top: number, names: string[]) => names.flatMap((n, i) => row(top + 16 * i, [[n, COLS[0]], [`${10 + i}.5`, COLS[1]], [`${20 + i}.1`, COLS[2]]]));

/**
 * A ruled table whose header line stands above its rules (found by 'header above'), and a
 * whitespace table lying in a chart (dropped by 'chart labels').
 */
const page: PageLayout = {
  page: 1,
  width: 600,
  height: 800,
  words: [...row(100, [['Region', 50], ['2019', 170], ['2020', 290]]), ...body(118, ['North', 'South', 'East', 'West']), ...body(500, ['Alpha', 'Beta', 'Gamma', 'Delta'])],
  rulings: [
    ...[115, 131, 147, 163, 179].map((y) => ({ x0: 45, y0: y, x1: 400, y1: y })),
    ...[45, 165, 285, 400].map((x) => ({ x0: x, y0: 115, x1: x, y1: 179 })),
  ],
  figures: [[40, 490, 400, 600]],
};

describe('layout trace', () => {
  it('says which pass made, cut and dropped each table, page by page', () => {
    const { result, trace } = traceTables(() => detectTables(page));
    expect(result).toHaveLength(1);
    const said = trace.map((e) => `${e.pass} ${e.what} t${e.table}${e.was ? ` ${e.was}` : ''} ${e.shape}`);
    expect(said).toEqual(['lattice made t1 4×3', 'stream made t2 4×3', 'chart labels dropped t2 4×3', 'header above cut t1 4×3 5×3']);
    const text = traceText(trace);
    expect(text.split('\n')[0]).toBe('page 1');
    expect(text).toMatch(/header above\s+cut\s+t1 4×3 → 5×3 \[45 100 /);
  });

  it('leaves the tables as they are without a trace, and keeps nothing', () => {
    const plain = detectTables(page);
    expect(traceTables(() => detectTables(page)).result).toEqual(plain);
    expect(() => traceTables(() => traceTables(() => 1))).toThrow('already open');
    // Closed: a new trace opens.
    expect(traceTables(() => 1).trace).toEqual([]);
  });

  it('a table stitched onto the one of the page before is dropped into it', () => {
    const foot: PageLayout = { page: 1, width: 600, height: 800, words: [...row(650, [['Region', 50], ['2019', 170], ['2020', 290]]), ...body(666, ['North', 'South', 'East'])], rulings: [] };
    const head: PageLayout = { page: 2, width: 600, height: 800, words: body(40, ['West', 'Upper', 'Lower']), rulings: [] };
    const { result, trace } = traceTables(() => documentTables([foot, head]));
    expect(result).toHaveLength(1);
    const stitch = trace.filter((e) => e.pass === 'stitch').map((e) => `${e.page} ${e.what} t${e.table}${e.into ? ` into t${e.into}` : ''}`);
    expect(stitch).toEqual(['1 cut t1', '2 dropped t2 into t1']);
  });
});

/**
 * Each layout pass run alone on a page made here: the page's context set as the passes before it
 * would leave it (or by running them), the pass run once, what it did checked.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT_PASSES, PAGE_PASSES, UPRIGHT_PASSES, pageOf, type DocumentPages, type LayoutPass, type Page } from '../../../src/extract/layout/index.js';
import { textLines } from '../../../src/extract/layout/prepare/lines.js';
import type { BBox, Cell, PageLayout, Ruling, Table, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

const named = <P>(list: readonly LayoutPass<P>[], name: string): LayoutPass<P> => {
  const p = list.find((x) => x.name === name);
  if (!p) throw new Error(`no pass ${name}`);
  return p;
};
const pagePass = (name: string) => named(PAGE_PASSES, name);

/** The page as the passes before `name` leave it, and the tables they made. */
function before(layout: PageLayout, name: string): { page: Page; tables: Table[] } {
  const page = pageOf(layout);
  let tables: Table[] = [];
  for (const p of PAGE_PASSES) {
    if (p.name === name) break;
    tables = p.run(page, tables);
  }
  return { page, tables };
}

/** Text-layer words of one line at `y`: each cell's words set from its x, 5 units a letter and 3 between words, at size 10. */
function row(y: number, cells: [string, number][], confidence: number | null = null): Word[] {
  return cells.flatMap(([text, x0]) => {
    let x = x0;
    return text.split(' ').map((t) => {
      const w: Word = { text: t, x0: x, y0: y, x1: x + 5 * t.length, y1: y + 10, size: 10, confidence };
      x = w.x1 + 3;
      return w;
    });
  });
}

/** Rows of cells at the columns `xs`, from `top` down every `pitch`. */
function rows(cells: string[][], xs: number[], top: number, pitch = 16, confidence: number | null = null): Word[] {
  return cells.flatMap((r, i) => row(top + i * pitch, r.flatMap((text, c): [string, number][] => (text ? [[text, xs[c]]] : [])), confidence));
}

const layoutOf = (words: Word[], more: Partial<PageLayout> = {}): PageLayout => ({ page: 1, width: 600, height: 800, words, rulings: [], ...more });

/** A table of `cells` (rows of texts), each cell 60 wide and 10 high at the columns `xs`, from `top` down every 16. */
function table(cells: string[][], xs: number[], top: number, more: Partial<Table> = {}, confidence: number | null = null): Table {
  const out: Cell[] = cells.flatMap((r, i) => r.map((text, c): Cell => ({ row: i, col: c, row_span: 1, col_span: 1, text, bbox: [xs[c], top + 16 * i, xs[c] + 5 * Math.max(1, text.length), top + 16 * i + 10], confidence })));
  const bbox: BBox = [xs[0], top, xs[xs.length - 1] + 30, top + 16 * cells.length - 6];
  return { page: 1, pages: [1], bbox, n_rows: cells.length, n_cols: xs.length, header_rows: 0, cells: out, ...more };
}

/** Rules of a grid over the columns `xs` (edges) and rows `ys` (edges). */
function rules(xs: number[], ys: number[]): Ruling[] {
  return [
    ...ys.map((y) => ({ x0: xs[0], y0: y, x1: xs[xs.length - 1], y1: y })),
    ...xs.map((x) => ({ x0: x, y0: ys[0], x1: x, y1: ys[ys.length - 1] })),
  ];
}

const FIGURES = [['Region', '2019', '2020'], ['North', '10.5', '20.1'], ['South', '11.5', '21.1'], ['East', '12.5', '22.1'], ['West', '13.5', '23.1']];
const COLS = [50, 170, 290];

describe('the layout pass lists', () => {
  it('run in this order', () => {
    expect(UPRIGHT_PASSES.map((p) => p.name)).toEqual(['leaders', 'signs', 'lattice', 'ruled sections', 'claimed words', 'chart frames', 'stream', 'chart labels', 'unclaimed lines', 'header tables', 'header above']);
    expect(PAGE_PASSES.map((p) => p.name)).toEqual([...UPRIGHT_PASSES.map((p) => p.name), 'turned text', 'reading order', 'misreads']);
    expect(DOCUMENT_PASSES.map((p) => p.name)).toEqual(['furniture', 'pages', 'stitch']);
  });

  it('a page works on its upright words; its turned ones stay in the page as read', () => {
    const turned: Word = { text: 'Axis', x0: 10, y0: 100, x1: 20, y1: 140, size: 10, confidence: null, rotation: 90 };
    const page = pageOf(layoutOf([...row(100, [['Total', 50]]), turned]));
    expect(page.layout.words.map((w) => w.text)).toEqual(['Total']);
    expect(page.read.words).toContain(turned);
  });
});

describe('prepare passes', () => {
  it('leaders: a dot leader goes, the label before it reaches over it; no table changes', () => {
    const page = pageOf(layoutOf(row(100, [['Total', 50], ['..........', 80], ['12.00', 140]])));
    const tables: Table[] = [];
    expect(pagePass('leaders').run(page, tables)).toBe(tables);
    const words = page.layout.words;
    expect(words.map((w) => w.text)).toEqual(['Total', '12.00']);
    expect(words[0].x1).toBe(130);
  });

  it('signs: a lone currency sign joins its amount, and tall OCR words are not upright text', () => {
    const tall: Word = { text: 'Sales', x0: 20, y0: 200, x1: 32, y1: 260, size: 12, confidence: 0.9 };
    const page = pageOf(layoutOf([...row(100, [['Net income', 50], ['$', 200], ['443', 260]]), tall]));
    pagePass('signs').run(page, []);
    expect(page.upright.map((w) => w.text)).toEqual(['Net', 'income', '$ 443']);
    expect(page.upright.find((w) => w.text === '$ 443')!.x0).toBe(200);
  });

  it('claimed words: the upright words outside every grid box, a grid with no table claiming too', () => {
    const page = pageOf(layoutOf([]));
    page.upright = [...row(100, [['in', 60]]), ...row(300, [['out', 60]])];
    page.grids = [{ table: null, box: [40, 90, 200, 120] }];
    pagePass('claimed words').run(page, []);
    expect(page.rest.map((w) => w.text)).toEqual(['out']);
  });

  it('unclaimed lines: the lines of the words no grid and no table claims', () => {
    const page = pageOf(layoutOf([]));
    page.rest = [...row(100, [['grid', 60]]), ...row(200, [['table', 60]]), ...row(300, [['left', 60], ['over', 150]])];
    page.grids = [{ table: null, box: [40, 90, 200, 120] }];
    const t = table([['a']], [50], 195);
    pagePass('unclaimed lines').run(page, [t]);
    expect(page.unclaimed.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['left over']);
  });
});

describe('find passes', () => {
  it('lattice: a ruled grid is a table, and its grid is kept with its box', () => {
    const words = rows([['Item', 'Price'], ['Apples', '1.00'], ['Pears', '2.00']], [55, 155], 105, 20);
    const { page } = before(layoutOf(words, { rulings: rules([50, 150, 250], [100, 120, 140, 160]) }), 'lattice');
    const tables = pagePass('lattice').run(page, []);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([['Item', 'Price'], ['Apples', '1.00'], ['Pears', '2.00']]);
    expect(page.grids.map((g) => g.table)).toEqual(tables);
  });

  it('ruled sections: two ruled grids with unruled total rows between them are one table', () => {
    const xs = [50, 200, 280, 360];
    const words = [
      ...rows([['', 'Strong', 'Good', 'Total'], ['Loans to customers', '479,067', '227,146', '706,213']], xs, 40),
      ...rows([['- stage 1', '475,881', '211,084', '686,965'], ['- stage 2', '3,186', '16,062', '19,248']], xs, 75),
      ...rows([['Loans to banks', '70,959', '7,692', '78,651']], xs, 107),
      ...rows([['- stage 1', '70,024', '7,351', '77,375'], ['- stage 2', '935', '341', '1,276']], xs, 139),
    ];
    const grid2 = (top: number) => [
      ...[0, 1, 2].map((r) => ({ x0: 45, y0: top + 16 * r, x1: 430, y1: top + 16 * r })),
      ...[190, 270, 350].map((x) => ({ x0: x, y0: top, x1: x, y1: top + 32 })),
    ];
    const { page, tables } = before(layoutOf(words, { rulings: [...grid2(72), ...grid2(136)] }), 'ruled sections');
    expect(tables).toHaveLength(2);
    const out = pagePass('ruled sections').run(page, tables);
    expect(out).toHaveLength(1);
    expect(grid(out[0]).map((r) => r[0])).toEqual(['', 'Loans to customers', '- stage 1', '- stage 2', 'Loans to banks', '- stage 1', '- stage 2']);
    expect(page.grids.map((g) => g.table)).toEqual(out);
  });

  it('stream: the lines no grid claims make a whitespace table', () => {
    const page = pageOf(layoutOf([]));
    page.rest = rows(FIGURES, COLS, 100);
    const kept = table([['x']], [50], 600);
    const out = pagePass('stream').run(page, [kept]);
    expect(out).toHaveLength(2);
    expect(out[0]).toBe(kept);
    expect(grid(out[1])).toEqual(FIGURES);
  });

  it('turned text: OCR words set sideways on an upright page are read as a table turned back onto it', () => {
    // Each row a line down the page, the header the rightmost; boxes as OCR draws them, taller than wide.
    const words: Word[] = [];
    FIGURES.forEach((r, i) => {
      const x0 = 500 - 30 * i;
      r.forEach((text, c) => {
        const y0 = 100 + 150 * c, len = 14 * text.length;
        words.push({ text, x0, y0, x1: x0 + 20, y1: y0 + len, size: 1.15 * len, confidence: 0.9 });
      });
    });
    const page = pageOf(layoutOf(words));
    const out = pagePass('turned text').run(page, []);
    expect(out).toHaveLength(1);
    expect(grid(out[0])).toEqual(FIGURES);
    // On the page: the columns of rows stand across, between the leftmost and the rightmost line.
    expect(out[0].bbox[0]).toBeGreaterThanOrEqual(500 - 30 * 4 - 1);
    expect(out[0].bbox[2]).toBeLessThanOrEqual(521);
  });
});

/** A page with a chart over a grid's table and a stream table, both. */
function charted(): { page: Page; ruledTable: Table; stream: Table } {
  const ruledTable = table(FIGURES, COLS, 100);
  const stream = table(FIGURES, COLS, 300);
  const page = pageOf(layoutOf([], { figures: [[40, 90, 400, 400]] }));
  page.grids = [{ table: ruledTable, box: ruledTable.bbox }];
  return { page, ruledTable, stream };
}

describe('repair passes', () => {
  it('chart frames: a ruled grid lying in a chart is dropped; a stream table there is not this pass\'s', () => {
    const { page, ruledTable, stream } = charted();
    expect(pagePass('chart frames').run(page, [ruledTable, stream])).toEqual([stream]);
    const bare = pageOf(layoutOf([]));
    bare.grids = page.grids;
    expect(pagePass('chart frames').run(bare, [ruledTable, stream])).toEqual([ruledTable, stream]);
  });

  it('chart labels: a stream table lying in a chart is dropped; a grid\'s table is not this pass\'s', () => {
    const { page, ruledTable, stream } = charted();
    expect(pagePass('chart labels').run(page, [ruledTable, stream])).toEqual([ruledTable]);
  });

  it('header tables: a table of headings right over the figure columns of the table under it is its header', () => {
    const head = table([['2019', '2020']], [170, 290], 84);
    const body = table(FIGURES.slice(1), COLS, 100);
    const page = pageOf(layoutOf([]));
    const out = pagePass('header tables').run(page, [head, body]);
    expect(out).toHaveLength(1);
    expect(out[0].header_rows).toBe(1);
    expect(grid(out[0])[0]).toEqual(['', '2019', '2020']);
  });

  it('header above: a line of headings over a table\'s columns, left outside it, is its header row', () => {
    const body = table(FIGURES.slice(1), COLS, 100);
    const page = pageOf(layoutOf([]));
    page.unclaimed = textLines(row(84, [['Region', 50], ['2019', 170], ['2020', 290]]));
    const out = pagePass('header above').run(page, [body]);
    expect(grid(out[0])).toEqual(FIGURES);
    expect(out[0].header_rows).toBe(1);
  });

  it('reading order: tables top to bottom, then left to right', () => {
    const a = table([['a']], [300], 100), b = table([['b']], [50], 100), c = table([['c']], [50], 50);
    expect(pagePass('reading order').run(pageOf(layoutOf([])), [a, b, c])).toEqual([c, b, a]);
  });

  it('misreads: an OCR cell\'s braces are parentheses; a text layer\'s cells keep their text', () => {
    const ocr = table([['Total {n)', '(2.9}']], [50, 170], 100, {}, 0.8);
    const text = table([['Total {n)', '(2.9}']], [50, 170], 100);
    const [fixed, kept] = pagePass('misreads').run(pageOf(layoutOf([])), [ocr, text]);
    expect(grid(fixed)).toEqual([['Total (n)', '(2.9)']]);
    expect(grid(kept)).toEqual([['Total {n)', '(2.9}']]);
  });
});

describe('document passes', () => {
  const docPass = (name: string) => named(DOCUMENT_PASSES, name);
  const body = (page: number) => layoutOf([...row(30, [['ACME Annual Report', 50]]), ...rows(FIGURES, COLS, 300)], { page });

  it('furniture: a running header on every page goes from each page\'s words', () => {
    const doc: DocumentPages = { layouts: [body(1), body(2), body(3)], perPage: [] };
    expect(docPass('furniture').run(doc, [])).toEqual([]);
    for (const l of doc.layouts) expect(l.words.map((w) => w.text)).not.toContain('ACME');
    expect(doc.layouts[0].words).toHaveLength(15);
  });

  it('pages: each page\'s tables, kept page by page for stitching', () => {
    const doc: DocumentPages = { layouts: [body(1), body(2)], perPage: [] };
    const out = docPass('pages').run(doc, []);
    expect(doc.perPage.map((ts) => ts.length)).toEqual([1, 1]);
    expect(out).toEqual(doc.perPage.flat());
  });

  it('stitch: a table at the foot of a page going on at the top of the next is one table', () => {
    const a = table([['Region', '2019', '2020'], ['North', '10.5', '20.1']], COLS, 700, { header_rows: 1 });
    const b = { ...table([['South', '11.5', '21.1']], COLS, 40), page: 2, pages: [2] };
    const doc: DocumentPages = { layouts: [layoutOf([]), layoutOf([], { page: 2 })], perPage: [[a], [b]] };
    const out = docPass('stitch').run(doc, [a, b]);
    expect(out).toHaveLength(1);
    expect(out[0].pages).toEqual([1, 2]);
    expect(grid(out[0]).map((r) => r[0])).toEqual(['Region', 'North', 'South']);
  });
});

/** Lattice tables: ruled grids, spans from missing rules, rows ruled but columns not (ICDAR). */
import { describe, expect, it } from 'vitest';
import { rgb } from 'pdf-lib';
import { detectTables } from '../../../src/extract/layout/index.js';
import { makePdf, drawRows } from '../pdf/helpers.js';
import { grid, layouts } from './helpers.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';

describe('lattice tables', () => {
  it('reads a fully ruled grid with a header cell spanning two columns', async () => {
    const bytes = await makePdf((page, font) => {
      const xs = [50, 150, 250, 350], ys = [350, 330, 310, 290, 270];
      for (const y of ys) page.drawLine({ start: { x: 50, y }, end: { x: 350, y }, thickness: 0.75 });
      for (const x of xs) {
        // The rule between columns 1 and 2 stops below the header: that header cell spans both.
        const top = x === 250 ? 330 : 350;
        page.drawLine({ start: { x, y: top }, end: { x, y: 270 }, thickness: 0.75, color: rgb(0, 0, 0) });
      }
      drawRows(page, font, [['Item', 'Price', ''], ['', 'net', 'gross'], ['Apples', '1.00', '1.19'], ['Pears', '2.00', '2.38']], [55, 155, 255], 336, 20);
    });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    const t = tables[0];
    expect([t.n_rows, t.n_cols]).toEqual([4, 3]);
    expect(grid(t)).toEqual([
      ['Item', 'Price', 'Price'],
      ['', 'net', 'gross'],
      ['Apples', '1.00', '1.19'],
      ['Pears', '2.00', '2.38'],
    ]);
    const price = t.cells.find((c) => c.text === 'Price')!;
    expect([price.row, price.col, price.row_span, price.col_span]).toEqual([0, 1, 1, 2]);
    expect(t.header_rows).toBe(2);
    expect(t.bbox[0]).toBeCloseTo(50, 0);
    expect(t.bbox[1]).toBeCloseTo(50, 0);
    // Every grid position is covered by exactly one cell.
    const covered = t.cells.reduce((s, c) => s + c.row_span * c.col_span, 0);
    expect(covered).toBe(t.n_rows * t.n_cols);
  });

  it('splits rows that are ruled while columns are not (ICDAR eu-016, page 3)', async () => {
    const pages = await layouts('eu-016');
    const t = detectTables(pages[2]).find((x) => x.n_cols === 5)!;
    expect(t).toBeDefined();
    const g = grid(t);
    expect(g[0]).toEqual(['Country', 'domestic (%)', 'Imported (%)', 'Unknown (%)', 'Total (n)']);
    expect(g[1]).toEqual(['Austria', '86.2', '13.8', '0', '3,375']);
    expect(t.n_rows).toBe(31);
  });

  it('makes rows from text lines in a tall unruled band of numbers (ICDAR eu-008)', async () => {
    const [page] = await layouts('eu-008');
    const t = detectTables(page)[0];
    const g = grid(t);
    expect(g.find((r) => r[0] === 'Bulgaria')).toEqual(['Bulgaria', '2.3', '3.2', '5.5']);
    expect(g.find((r) => r[0] === 'TOTAL')).toEqual(['TOTAL', '58.99', '86.70', '145.69']);
  });

  it('makes rows from the text lines of a tall unruled band of names under a ruled header', async () => {
    const bytes = await makePdf((page, font) => {
      // A frame, a rule under the header, column rules, and no rules between the rows.
      for (const y of [400, 380, 250]) page.drawLine({ start: { x: 50, y }, end: { x: 450, y }, thickness: 0.75 });
      for (const x of [50, 250, 320, 450]) page.drawLine({ start: { x, y: 400 }, end: { x, y: 250 }, thickness: 0.75 });
      const places = [['Redstone Arsenal', 'AL', 'Huntsville'], ['Fort Huachuca', 'AZ', 'Sierra Vista'], ['Yuma Proving Ground', 'AZ', 'Yuma'],
        ['Beale AFB', 'CA', 'Marysville'], ['Camp Parks', 'CA', 'Dublin'], ['Edwards AFB', 'CA', 'Rosamond'], ['Fort Irwin', 'CA', 'Barstow']];
      drawRows(page, font, [['Military installation', 'State', 'Nearby city'], ...places], [55, 255, 325], 386, 17);
    });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    const g = grid(tables[0]);
    expect(g).toHaveLength(8);
    expect(g[1]).toEqual(['Redstone Arsenal', 'AL', 'Huntsville']);
    expect(g[7]).toEqual(['Fort Irwin', 'CA', 'Barstow']);
  });

  it('keeps a label\'s wrapped line that goes on after a joining word in its row, in a band of unruled rows', async () => {
    const bytes = await makePdf((page, font) => {
      for (const y of [400, 380, 280]) page.drawLine({ start: { x: 50, y }, end: { x: 450, y }, thickness: 0.75 });
      for (const x of [50, 300, 380, 450]) page.drawLine({ start: { x, y: 400 }, end: { x, y: 280 }, thickness: 0.75 });
      drawRows(page, font, [['HK$\'000', '2016', '2015'], ['Revenue', '2,589,221', '2,516,802'], ['Gross profit', '759,861', '786,135'],
        ['Net realized and unrealized gain on', '8,791', '3,257'], ['investments held for trading', '', ''], ['Finance costs', '(117,564)', '(97,590)'],
        ['Profit before income tax', '456,891', '518,075']], [55, 305, 385], 386, 14, 9);
    }, { width: 500 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    const g = grid(tables[0]);
    expect(g.map((r) => r[0])).toEqual(["HK$'000", 'Revenue', 'Gross profit', 'Net realized and unrealized gain on investments held for trading', 'Finance costs', 'Profit before income tax']);
    expect(g[3]).toEqual(['Net realized and unrealized gain on investments held for trading', '8,791', '3,257']);
  });

  it('makes rows from tightly set lines of figures in a band that short rules cross (a subtotal underlined)', async () => {
    const bytes = await makePdf((page, font) => {
      // A frame, a rule under the header, column rules; a short rule under one figure only.
      for (const y of [400, 380, 300]) page.drawLine({ start: { x: 50, y }, end: { x: 350, y }, thickness: 0.75 });
      for (const x of [50, 200, 280, 350]) page.drawLine({ start: { x, y: 400 }, end: { x, y: 300 }, thickness: 0.75 });
      page.drawLine({ start: { x: 230, y: 335.5 }, end: { x: 270, y: 335.5 }, thickness: 0.5 });
      drawRows(page, font, [['R$ million', 'Sept18', 'June18'], ['Funds available', '15,588', '15,425'], ['Interbank investments', '112,073', '108,615'],
        ['Securities', '634,066', '598,128'], ['Loans', '346,932', '340,717'], ['Total', '1,108,659', '1,062,885']], [55, 230, 290], 386, 9.5);
    });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    const g = grid(tables[0]);
    expect(g[1]).toEqual(['Funds available', '15,588', '15,425']);
    expect(g.find((r) => r[0] === 'Total')).toEqual(['Total', '1,108,659', '1,062,885']);
    expect(g).toHaveLength(6);
  });

  it('keeps a ruled row of cells of one, two and three lines, each set in the middle of the row, as one row', async () => {
    const bytes = await makePdf((page, font) => {
      // Every row ruled; in each a one-line name, a two-line approval and two three-line permits, centred.
      for (const y of [380, 360, 300, 240]) page.drawLine({ start: { x: 20, y }, end: { x: 380, y }, thickness: 0.75 });
      for (const x of [20, 90, 170, 280, 380]) page.drawLine({ start: { x, y: 380 }, end: { x, y: 240 }, thickness: 0.75 });
      drawRows(page, font, [['Project', 'Approval', 'Works permit', 'Land permit']], [25, 95, 175, 285], 366, 10, 9);
      for (const [r, name] of ['Accelerator', 'Incubator'].entries()) {
        const mid = 327 - 60 * r;
        drawRows(page, font, [[name]], [25], mid, 12, 9);
        drawRows(page, font, [['', 'Plan 2009'], ['', 'No. 6']], [25, 95], mid + 6, 12, 9);
        drawRows(page, font, [['', '', 'Works 3201052009', 'Land 2009'], ['', '', '2010 No. 371', 'No. 10651'], ['', '', '11016', '10652']], [25, 95, 175, 285], mid + 12, 12, 9);
      }
    });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Project', 'Approval', 'Works permit', 'Land permit'],
      ['Accelerator', 'Plan 2009 No. 6', 'Works 3201052009 2010 No. 371 11016', 'Land 2009 No. 10651 10652'],
      ['Incubator', 'Plan 2009 No. 6', 'Works 3201052009 2010 No. 371 11016', 'Land 2009 No. 10651 10652'],
    ]);
  });
});

describe('a header over a ruled body', () => {
  // eu-026 at 200 dpi: a rule over the header, a double rule under it and at the foot, and one
  // column rule after the labels that the pixels show only in the body (in the header it was too
  // short to find).
  const words: Word[] = [];
  const put = (texts: string[], xs: number[], y: number) => texts.forEach((text, i) => { if (text) words.push({ text, x0: xs[i], y0: y, x1: xs[i] + 14 * text.length, y1: y + 25, size: 32, confidence: 0.96 }); });
  const xs = [224, 658, 852, 1046, 1238];
  // A header cell of two lines: its second line alone is no header row of its own.
  put(['', 'Freq.', 'Percent', 'Mean', 'Fraction'], xs, 351);
  put(['', '', '', '', 'Lost'], xs, 384);
  put(['Kept', '344', '75.2', '12196', '17.4%'], xs, 425);
  put(['Sold', '53', '11.6', '23518', '22.5%'], xs, 458);
  put(['Gave', '61', '13.2', '9187', '22.5%'], xs, 489);
  put(['Total', '458', '100.0', '13153', '18.7%'], xs, 532);
  const rulings = [
    ...[346.5, 413.5, 420.5, 521.5, 527.5].map((y) => ({ x0: 207, y0: y, x1: 1440, y1: y })),
    { x0: 640.5, y0: 420, x1: 640.5, y1: 522 }, { x0: 640.5, y0: 529, x1: 640.5, y1: 562 },
  ];
  const page: PageLayout = { page: 1, width: 1654, height: 2339, words, rulings, unitsPerPoint: 2.778 };
  it('the rule over the header closes the table: the header is its first row', () => {
    const [t] = detectTables(page);
    expect(grid(t)[0].slice(1)).toEqual(['Freq.', 'Percent', 'Mean', 'Fraction Lost']);
    expect(grid(t).map((r) => r[0]).slice(1)).toEqual(['Kept', 'Sold', 'Gave', 'Total']);
  });
  it('a caption between the rules is no header', () => {
    const caption = words.filter((w) => w.y0 > 400).concat([{ text: 'Table 1: Households and their losses', x0: 224, y0: 360, x1: 900, y1: 385, size: 32, confidence: 0.96 }]);
    const tables = detectTables({ ...page, words: caption });
    expect(tables.flatMap((t) => t.cells.map((c) => c.text))).not.toContain('Table 1: Households and their losses');
  });
});


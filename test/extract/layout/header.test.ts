/** Header rows left outside their table: above a ruled body, or set apart by a wide gap. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { makePdf, drawRows } from '../pdf/helpers.js';
import { grid, layouts } from './helpers.js';

const BODY = [
  ['Austria', '92.9', '7.1', '5,821'],
  ['Belgium', '0', '100.0', '5,906'],
  ['Bulgaria', '0', '100.0', '38'],
  ['Cyprus', '100.0', '0', '17'],
];
const HEADER = ['Country', 'Domestic', 'Imported', 'Total'];
const COLS = [60, 200, 300, 400];

/** The body drawn with a rule under every row and at its sides, no rule over its header. */
function ruledBody(page: PDFPage, font: PDFFont): void {
  drawRows(page, font, BODY, COLS, 474, 20);
      for (let r = 0; r <= BODY.length; r++) page.drawLine({ start: { x: 50, y: 490 - r * 20 }, end: { x: 460, y: 490 - r * 20 }, thickness: 0.5 });
      for (const x of [50, 460]) page.drawLine({ start: { x, y: 490 }, end: { x, y: 490 - BODY.length * 20 }, thickness: 0.5 });
}

describe('header rows above a table', () => {
  it('joins a header standing above a ruled body to the table', async () => {
    const bytes = await makePdf((page, font) => {
      // As a page image of white text on a colour band reads: no rule frames the header; the
      // body is ruled under every row.
      drawRows(page, font, [HEADER], COLS, 500, 0);
      ruledBody(page, font);
    }, { width: 520, height: 600 });
    const tables = detectTables((await layouts(bytes))[0]);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([HEADER, ...BODY]);
    expect(tables[0].header_rows).toBe(1);
  });

  it('joins a header set two lines above an unruled body', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [HEADER], COLS, 500, 0);
      drawRows(page, font, BODY, COLS, 470, 14);
    }, { width: 520, height: 600 });
    const tables = detectTables((await layouts(bytes))[0]);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([HEADER, ...BODY]);
  });

  it('leaves out a caption whose label and title stand over two of the columns', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText('Table 5', { x: 60, y: 500, size: 10, font });
      page.drawText('Cases by country', { x: 200, y: 500, size: 10, font });
      drawRows(page, font, [['Country', 'Domestic', 'Imported', 'Total', 'Share'], ...BODY.map((r) => [...r, '1%'])], [...COLS, 480], 470, 14);
    }, { width: 560, height: 600 });
    const tables = detectTables((await layouts(bytes))[0]);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])[0]).toEqual(['Country', 'Domestic', 'Imported', 'Total', 'Share']);
  });

  it('leaves out a caption over a ruled body whose label and title stand over half its columns', async () => {
    const bytes = await makePdf((page, font) => {
      // "Table 8.18 -  Leading brands by market segment" over a ruled table of four columns.
      page.drawText('Table 8.18 -', { x: 60, y: 500, size: 10, font });
      page.drawText('Leading brands', { x: 200, y: 500, size: 10, font });
      ruledBody(page, font);
    }, { width: 520, height: 600 });
    const tables = detectTables((await layouts(bytes))[0]);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual(BODY);
  });

  it('puts a header of several lines set well above the rows, over the figure columns only, on top of its table', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [['', 'Years ended', '', 'Interim'], ['', '2016', '2017', '2018'], ['', '', '(in thousands)', '']], COLS, 520, 12);
      // Further between the header and the rows than two blank rows.
      drawRows(page, font, [['Interest income', '99', '3,508', '2,406'], ['Grants', '88', '146', '127'], ['Total', '187', '3,654', '2,533']], COLS, 451, 12);
    }, { width: 520, height: 600 });
    const tables = detectTables((await layouts(bytes))[0]);
    expect(tables).toHaveLength(1);
    const g = grid(tables[0]);
    expect(g.slice(-3)).toEqual([['Interest income', '99', '3,508', '2,406'], ['Grants', '88', '146', '127'], ['Total', '187', '3,654', '2,533']]);
    expect(g.find((r) => r.includes('2016'))).toEqual(['', '2016', '2017', '2018']);
    expect(tables[0].header_rows).toBe(g.length - 3);
  });

  it('keeps the first line of a wrapped row label that stands over the row', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText('Gross profit margin', { x: 60, y: 500, size: 10, font });
      drawRows(page, font, [['  of products', '10.7', '12.8', '22.9'], ['Net margin', '4.1', '13.7', '9.2'], ['Other margin', '1.1', '3.7', '2.2']], COLS, 486, 14);
    }, { width: 520, height: 600 });
    const tables = detectTables((await layouts(bytes))[0]);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0]).map((r) => r[0]).join(' ')).toContain('Gross profit margin');
  });
});

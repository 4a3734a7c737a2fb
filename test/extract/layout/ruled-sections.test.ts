/** A table whose groups of rows are ruled grids of their own, the rows between them unruled. */
import { describe, expect, it } from 'vitest';
import type { PDFPage } from 'pdf-lib';
import { detectTables } from '../../../src/extract/layout/index.js';
import { makePdf, drawRows } from '../pdf/helpers.js';
import { grid, layouts } from './helpers.js';

const COLS = [50, 200, 280, 360];

/** A grid from `top` down over `rows` rows of `pitch`, with rules between all columns. */
function ruleGrid(page: PDFPage, top: number, rows: number, pitch: number): void {
  const bottom = top - rows * pitch;
  for (let r = 0; r <= rows; r++) page.drawLine({ start: { x: 45, y: top - r * pitch }, end: { x: 430, y: top - r * pitch }, thickness: 0.5 });
  for (const x of [190, 270, 350]) page.drawLine({ start: { x, y: top }, end: { x, y: bottom }, thickness: 0.5 });
}

describe('ruled sections of one table', () => {
  it('reads grids of part rows and the unruled total rows between them as one table', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [['', 'Strong', 'Good', 'Total'], ['Loans to customers', '479,067', '227,146', '706,213']], COLS, 560, 16);
      ruleGrid(page, 526, 2, 16);
      drawRows(page, font, [['- stage 1', '475,881', '211,084', '686,965'], ['- stage 2', '3,186', '16,062', '19,248']], COLS, 514, 16);
      drawRows(page, font, [['Loans to banks', '70,959', '7,692', '78,651']], COLS, 478, 16);
      ruleGrid(page, 462, 2, 16);
      drawRows(page, font, [['- stage 1', '70,024', '7,351', '77,375'], ['- stage 2', '935', '341', '1,276']], COLS, 450, 16);
    }, { width: 480, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', 'Strong', 'Good', 'Total'],
      ['Loans to customers', '479,067', '227,146', '706,213'],
      ['- stage 1', '475,881', '211,084', '686,965'],
      ['- stage 2', '3,186', '16,062', '19,248'],
      ['Loans to banks', '70,959', '7,692', '78,651'],
      ['- stage 1', '70,024', '7,351', '77,375'],
      ['- stage 2', '935', '341', '1,276'],
    ]);
  });

  it('keeps two ruled tables apart when the second has a header of its own', async () => {
    const bytes = await makePdf((page, font) => {
      ruleGrid(page, 526, 3, 16);
      drawRows(page, font, [['Region', 'Staff', 'Offices', 'Total'], ['Europe', '67,007', '70,301', '71,196'], ['Asia', '127,992', '125,004', '122,282']], COLS, 514, 16);
      drawRows(page, font, [['Total staff', '194,999', '195,305', '193,478']], COLS, 462, 16);
      ruleGrid(page, 446, 3, 16);
      drawRows(page, font, [['Business', 'Staff', 'Offices', 'Total'], ['Retail', '135,239', '134,021', '137,234'], ['Commercial', '48,757', '46,716', '45,912']], COLS, 434, 16);
    }, { width: 480, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(2);
    expect(grid(tables[0]).map((r) => r[0])).toEqual(['Region', 'Europe', 'Asia']);
    expect(grid(tables[1]).map((r) => r[0])).toContain('Business');
    expect(grid(tables[1]).map((r) => r[0])).not.toContain('Europe');
  });

  it('reads one grid of part rows with unruled rows of figures over and under it as one table', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [['', '2018', '2017', '2016'], ['', '$m', '$m', '$m']], COLS, 560, 16);
      ruleGrid(page, 526, 2, 16);
      drawRows(page, font, [['- debt securities', '220', '403', '357'], ['- equity securities', '838', '1,058', '912']], COLS, 514, 16);
      drawRows(page, font, [['Impairment', '(2)', '(98)', '(38)'], ['Year ended 31 Dec', '1,056', '1,363', '1,231']], COLS, 478, 16);
    }, { width: 480, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0]).map((r) => r[0])).toEqual(['', '', '- debt securities', '- equity securities', 'Impairment', 'Year ended 31 Dec']);
  });

  it('reads a table with a few of its rows ruled, the rules parting fewer columns than its text, as one table', async () => {
    const rows = [
      ['', 'Strong', 'Good', 'Total'],
      ['Retail', '133,644', '129,402', '124,810'],
      ['Commercial', '44,805', '44,871', '44,712'],
      ['Markets', '48,500', '45,725', '46,659'],
      ['Private', '6,819', '7,250', '8,054'],
      ['Centre', '1,449', '1,439', '10,940'],
      ['Total', '235,217', '228,687', '235,175'],
    ];
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, rows, COLS, 560, 16);
      // The last two rows ruled, with one column rule: two columns where the text has four.
      for (const y of [492, 476, 460]) page.drawLine({ start: { x: 45, y }, end: { x: 430, y }, thickness: 0.5 });
      for (const x of [45, 190, 430]) page.drawLine({ start: { x, y: 492 }, end: { x, y: 460 }, thickness: 0.5 });
    }, { width: 480, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual(rows);
  });
});

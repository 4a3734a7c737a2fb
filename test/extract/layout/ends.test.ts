import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid, line } from './helpers.js';

const page = (words: Word[]): PageLayout => ({ page: 1, width: 800, height: 1000, rulings: [], words });

const ROWS: [string, string, string][] = [
  ['Share of profit', '2,519', '2,349'],
  ['Share of loss', '(12)', '(31)'],
  ['Other income', '75', '64'],
];
const body = (y: number) => ROWS.flatMap(([label, a, b], i) => line(y + 16 * i, [[label, 50], [a, 500], [b, 600]]));

describe('where a table ends', () => {
  it('a notes line ends the table, and the notes set under it are no rows', () => {
    const words = [
      ...line(100, [['2018', 500], ['2017', 600]]),
      ...body(116),
      ...line(170, [['Notes:', 50]]),
      ...line(186, [['(i)', 50], ['Restated for the change in accounting policy', 90]]),
      ...line(202, [['(ii)', 50], ['Includes the disposal of the insurance business', 90]]),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([['', '2018', '2017'], ...ROWS]);
  });

  it('a line of units after rows of figures starts another table, with the header lines over it', () => {
    const words = [
      ...line(100, [['2018', 500], ['2017', 600]]),
      ...line(116, [['$m', 500], ['$m', 600]]),
      ...body(132),
      ...line(186, [['Year 1', 500], ['Year 2', 600]]),
      ...line(202, [['$m', 500], ['$m', 600]]),
      ...body(218),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(2);
    expect(grid(tables[1]).slice(0, 2)).toEqual([['', 'Year 1', 'Year 2'], ['', '$m', '$m']]);
    expect(tables[1].n_rows).toBe(5);
  });

  it('the header read again after rows of figures starts another table, though its year differs', () => {
    const header = (y: number, year: string) => line(y, [[`As at December 31, ${year}`, 50], ['Guarantor', 480], ['Combined', 580]]);
    const words = [...header(100, '2018'), ...body(116), ...header(176, '2017'), ...body(192)];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(2);
    expect(grid(tables[1])[0]).toEqual(['As at December 31, 2017', 'Guarantor', 'Combined']);
  });

  it('a section label in the stub that repeats the first one with other years is a row, not a new table', () => {
    const words = [
      ...line(100, [['2018', 500], ['2017', 600]]),
      ...line(116, [['Change in Jan 2019 to Dec 2019', 50]]),
      ...body(132),
      ...line(186, [['Change in Jan 2018 to Dec 2018', 50]]),
      ...body(202),
    ];
    expect(detectTables(page(words))).toHaveLength(1);
  });

  it('a chart\'s axis of evenly stepped ticks with its title and legend is no table', () => {
    const ticks = Array.from({ length: 10 }, (_, i): [string, number] => [String(i + 1), 120 + 42 * i]);
    const words = [
      ...line(100, ticks),
      ...line(116, [['financial wealth decile', 260]]),
      ...line(140, [['95% confidence interval', 170], ['mean low financial literacy', 370]]),
      ...line(156, [['mean high financial literacy', 170]]),
    ];
    expect(detectTables(page(words))).toHaveLength(0);
  });

  it('a header of years over the same legend lines is kept', () => {
    const years = ['2007', '2006', '2005', '2004'].map((y, i): [string, number] => [y, 300 + 80 * i]);
    const words = [...line(100, [['Country', 50], ...years]), ...line(116, [['Germany', 50], ['1.2', 300], ['1.4', 380], ['1.1', 460], ['0.9', 540]])];
    expect(detectTables(page(words))).toHaveLength(1);
  });

  it('a figure\'s legend set a little more than a block gap under its caption is the figure\'s', () => {
    const legend: [string, string][] = [['No agencies', '12%'], ['1-5 agencies', '35%'], ['6-10 agencies', '28%'], ['Over 10 agencies', '25%']];
    const words = [
      ...line(100, [['Figure 4.6.', 50], ['Number of government agencies using the same identity management system', 150]]),
      ...line(116, [['feature at the national level', 150]]),
      ...legend.flatMap(([label, share], i) => line(149 + 20 * i, [[label, 130], [share, 300]])),
    ];
    expect(detectTables(page(words))).toHaveLength(0);
    const apart = words.map((w) => (w.y0 >= 149 ? { ...w, y0: w.y0 + 20, y1: w.y1 + 20 } : w));
    expect(detectTables(page(apart))).toHaveLength(1);
  });

  it('displayed equations numbered at the right margin are no table; a column of bracketed numbers beside figures is', () => {
    const words = [
      ...line(100, [['A = (i :', 300], ['G(z) > V', 420], ['H(z) < V', 560], ['(5.1)', 720]]),
      ...line(120, [['B = (i :', 300], ['G(z) < V', 420], ['H(z) < V', 560], ['(5.2)', 720]]),
      ...line(140, [['C = (i :', 300], ['G(z) < V', 420], ['H(z) > V', 560], ['(5.3)', 720]]),
    ];
    expect(detectTables(page(words))).toHaveLength(0);
    const notes = [...line(100, [['Revenue', 50], ['2,519', 500], ['(1)', 600]]), ...line(116, [['Costs', 50], ['(312)', 500], ['(2)', 600]])];
    expect(detectTables(page(notes))).toHaveLength(1);
  });
});

/** Stream tables in sections: headings between rows, rows a blank line apart, notes under a table. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import { makePdf, drawRows } from '../pdf/helpers.js';
import { grid, layouts } from './helpers.js';

const PROSE = 'This paragraph explains the figures below in plain words and runs across the page width';

describe('stream tables in sections', () => {
  it('joins rows set a blank line apart, with a heading between header and rows, and folds their wrapped cells', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText(PROSE, { x: 40, y: 570, size: 10, font });
      // Two blank lines between rows: each row (with its wrapped address) stands alone.
      drawRows(page, font, [
        ['Name', 'Address', 'Nationality'],
        ['', '', ''], ['', '', ''],
        ['Independent Non-executive Directors', '', ''],
        ['', '', ''], ['', '', ''],
        ['Dr. Paul Chew', '1 Brookdale Drive', 'American'],
        ['', 'Lawrenceville NJ 08648', ''],
        ['', '', ''], ['', '', ''],
        ['Mr. Ting Anthony', 'Room 4330', 'Chinese'],
        ['', 'Four Seasons Place', ''],
        ['', '', ''], ['', '', ''],
        ['Mr. Hongbin Sun', 'Room 104, Lane 333', 'Chinese'],
        ['', 'Dongchuan Road', ''],
      ], [40, 190, 360], 540, 12);
      page.drawText(PROSE, { x: 40, y: 280, size: 10, font });
    }, { width: 500, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Name', 'Address', 'Nationality'],
      ['Independent Non-executive Directors', 'Independent Non-executive Directors', ''],
      ['Dr. Paul Chew', '1 Brookdale Drive Lawrenceville NJ 08648', 'American'],
      ['Mr. Ting Anthony', 'Room 4330 Four Seasons Place', 'Chinese'],
      ['Mr. Hongbin Sun', 'Room 104, Lane 333 Dongchuan Road', 'Chinese'],
    ]);
  });

  it('keeps a wide section heading inside its table, as one row, and leaves the note under it out', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText(PROSE, { x: 40, y: 570, size: 10, font });
      drawRows(page, font, [
        ['Generic name', 'Brand', 'Company', 'Target', 'Status', 'Start'],
        ['Consolidation therapy for stage III lung cancer after radiotherapy', '', '', '', '', ''],
        ['Durvalumab', 'Imfinzi', 'AstraZeneca', 'PD-L1', 'Phase III', 'May 2017'],
        ['Sugemalimab', 'CS1001', 'CStone', 'PD-L1', 'Phase III', 'Aug 2018'],
        ['First line advanced liver cancer in adults', '', '', '', '', ''],
        ['Nivolumab', 'Opdivo', 'BMS', 'PD-1', 'Phase III', 'Sep 2016'],
        ['Tislelizumab', 'BGB-A317', 'BeiGene', 'PD-1', 'Phase III', 'Jan 2018'],
        ['Atezolizumab', 'Tecentriq', 'Roche', 'PD-L1', 'Phase III', 'May 2018'],
      ], [40, 120, 190, 270, 330, 400], 530, 14);
      page.drawText('*', { x: 40, y: 400, size: 10, font });
      page.drawText('Refers to the start of the relevant clinical studies.', { x: 60, y: 400, size: 10, font });
    }, { width: 470, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    // A heading is one cell over the columns it stands over.
    const heading = (t: string, n: number) => [...Array<string>(n).fill(t), ...Array<string>(6 - n).fill('')];
    expect(grid(tables[0])).toEqual([
      ['Generic name', 'Brand', 'Company', 'Target', 'Status', 'Start'],
      heading('Consolidation therapy for stage III lung cancer after radiotherapy', 4),
      ['Durvalumab', 'Imfinzi', 'AstraZeneca', 'PD-L1', 'Phase III', 'May 2017'],
      ['Sugemalimab', 'CS1001', 'CStone', 'PD-L1', 'Phase III', 'Aug 2018'],
      heading('First line advanced liver cancer in adults', 3),
      ['Nivolumab', 'Opdivo', 'BMS', 'PD-1', 'Phase III', 'Sep 2016'],
      ['Tislelizumab', 'BGB-A317', 'BeiGene', 'PD-1', 'Phase III', 'Jan 2018'],
      ['Atezolizumab', 'Tecentriq', 'Roche', 'PD-L1', 'Phase III', 'May 2018'],
    ]);
  });

  it('starts a new table where a title line is followed by the header again', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [
        ['', '2018', '2017', '2016'],
        ['Europe', '67,007', '70,301', '71,196'],
        ['Asia', '127,992', '125,004', '122,282'],
        ['Year ended 31 Dec', '242,850', '244,788', '246,933'],
        ['Reconciliation of awards granted to the income statement charge', '', '', ''],
        ['', '2018', '2017', '2016'],
        ['Total awards', '3,473', '3,303', '3,035'],
        ['Less: deferred bonuses', '(351)', '(337)', '(323)'],
        ['Charge for awards', '3,122', '2,966', '2,712'],
      ], [40, 300, 370, 440], 560, 14);
    }, { width: 500, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables.map((t) => grid(t)[0])).toEqual([['', '2018', '2017', '2016'], ['', '2018', '2017', '2016']]);
    expect(tables.map((t) => t.n_rows)).toEqual([4, 4]);
  });

  it('does not join a chart\'s ticks and labels, set a blank line apart, into a table', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [
        ['1 500', '-', ''],
        ['', '', ''], ['', '', ''],
        ['1 000', '-', 'Banks and corporates'],
        ['', '', ''], ['', '', ''],
        ['500', '-', 'US issuers'],
        ['', '', ''], ['', '', ''],
        ['0', '-', ''],
      ], [40, 80, 200], 500, 12);
    }, { width: 400, height: 600 });
    const [layout] = await layouts(bytes);
    expect(detectTables(layout)).toEqual([]);
  });
});

describe('columns closer than a word space', () => {
  it('keeps a word that stands beside every cell of a headerless column in the cell ("Phase III", "$ 400")', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText(PROSE, { x: 40, y: 570, size: 10, font });
      drawRows(page, font, [
        ['Durvalumab', 'Phase III', 'May 2017', '$ 1,200'],
        ['Nivolumab', 'Phase II', 'Sep 2016', '$ 400'],
        ['Tislelizumab', 'Phase III', 'Jan 2018', '$ 80'],
        ['Atezolizumab', 'Phase I/II', 'May 2018', '$ 1,700'],
      ], [40, 160, 260, 360], 540, 14);
      page.drawText(PROSE, { x: 40, y: 460, size: 10, font });
    }, { width: 500, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Durvalumab', 'Phase III', 'May 2017', '$ 1,200'],
      ['Nivolumab', 'Phase II', 'Sep 2016', '$ 400'],
      ['Tislelizumab', 'Phase III', 'Jan 2018', '$ 80'],
      ['Atezolizumab', 'Phase I/II', 'May 2018', '$ 1,700'],
    ]);
  });
  it('keeps a figure with its share in brackets, a number the reader cut after its comma, an angle in degrees and minutes and a month and year in one cell', async () => {
    const bytes = await makePdf((page, font) => {
      const right = (t: string, x: number, y: number) => page.drawText(t, { x: x - font.widthOfTextAtSize(t, 10), y, size: 10, font });
      const rows = [
        ['Event', 'All', 'grades', 'Sales', 'value', 'Site', 'latitude', 'Call', 'date'],
        ['Anaemia', '12', '(41.4)', '86,', '145', '34°', "49' 23\"", 'Jun', '2030'],
        ['Proteinuria', '7', '(24.1)', '36,', '791', '39°', "42' 55\"", 'Apr', '2020'],
        ['Nausea', '4', '(13.8)', '122,', '663', '128°', "29' 09\"", 'Nov', '2031'],
        ['Rash', '3', '(10.3)', '5,', '178', '21°', "33' 43\"", 'Sep', '2025'],
      ];
      rows.forEach(([label, a, b, c, d, e, f, g, h], i) => {
        const y = 540 - i * 14;
        page.drawText(label, { x: 40, y, size: 10, font });
        right(a, 200, y);
        page.drawText(b, { x: 203, y, size: 10, font });
        right(c, 320, y);
        page.drawText(d, { x: 323, y, size: 10, font });
        right(e, 440, y);
        page.drawText(f, { x: 443, y, size: 10, font });
        right(g, 560, y);
        page.drawText(h, { x: 563, y, size: 10, font });
      });
    }, { width: 660, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Event', 'All grades', 'Sales value', 'Site latitude', 'Call date'],
      ['Anaemia', '12 (41.4)', '86, 145', "34° 49' 23\"", 'Jun 2030'],
      ['Proteinuria', '7 (24.1)', '36, 791', "39° 42' 55\"", 'Apr 2020'],
      ['Nausea', '4 (13.8)', '122, 663', "128° 29' 09\"", 'Nov 2031'],
      ['Rash', '3 (10.3)', '5, 178', "21° 33' 43\"", 'Sep 2025'],
    ]);
  });

});

describe('rows and headers across line breaks and headings', () => {
  it('sets a label of two lines with its figures on its last line as one row', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText(PROSE, { x: 40, y: 570, size: 10, font });
      // Evenly spaced lines: each wrapped label's first line stands alone, its figures beside its second.
      drawRows(page, font, [
        ['', '2016', '2017', 'CAGR'],
        ['Revenue', '1,200', '1,350', '6.1%'],
        ['GFA of residential properties sold', '', '', ''],
        ['(million sqm)', '3.8', '6.1', '15.0%'],
        ['ASP of residential properties', '', '', ''],
        ['(RMB per sqm)', '11,952', '10,980', '1.1%'],
        ['Proportionate share of the', '', '', ''],
        ['non-controlling interests', '118', '76', '2.8%'],
      ], [40, 240, 300, 360], 530, 14);
      page.drawText(PROSE, { x: 40, y: 380, size: 10, font });
    }, { width: 470, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', '2016', '2017', 'CAGR'],
      ['Revenue', '1,200', '1,350', '6.1%'],
      ['GFA of residential properties sold (million sqm)', '3.8', '6.1', '15.0%'],
      ['ASP of residential properties (RMB per sqm)', '11,952', '10,980', '1.1%'],
      ['Proportionate share of the non-controlling interests', '118', '76', '2.8%'],
    ]);
  });

});

/** Stream tables: columns from aligned gaps, continuation lines, prose and captions kept out, stitching. */
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { detectTables, stitchTables } from '../../../src/extract/layout/index.js';
import { makePdf, drawRows } from '../pdf/helpers.js';
import { grid, layouts } from './helpers.js';
import type { BBox, Cell, PageLayout, Table } from '../../../src/extract/types.js';

const PROSE = 'This paragraph explains the figures below in plain words and runs across the page width';

describe('stream tables', () => {
  it('finds an unruled table between prose, with its header and a wrapped description', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText(PROSE, { x: 40, y: 540, size: 10, font });
      page.drawText('Table 1: Items sold', { x: 40, y: 510, size: 10, font });
      drawRows(page, font, [
        ['Description', 'Qty', 'Price', 'Amount'],
        ['Blue widgets', '2', '10.00', '20.00'],
        ['Red gadgets with a long', '1', '5.50', '5.50'],
        ['name that wraps', '', '', ''],
        ['Green things', '3', '1.00', '3.00'],
      ], [40, 240, 320, 420], 480, 13);
      page.drawText(PROSE, { x: 40, y: 380, size: 10, font });
      page.drawText('7', { x: 290, y: 30, size: 9, font });
    }, { width: 560, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Description', 'Qty', 'Price', 'Amount'],
      ['Blue widgets', '2', '10.00', '20.00'],
      ['Red gadgets with a long name that wraps', '1', '5.50', '5.50'],
      ['Green things', '3', '1.00', '3.00'],
    ]);
    expect(tables[0].header_rows).toBe(1);
  });

  it('reads ICDAR eu-001 page 1 (cell backgrounds): a header spanning three columns, two-line header cells whole, caption left out', async () => {
    const [page] = await layouts('eu-001');
    const t = detectTables(page)[0];
    const g = grid(t);
    expect(t.n_cols).toBe(4);
    expect(g[0].slice(1)).toEqual(['THRESHOLD FOR RELEASES', 'THRESHOLD FOR RELEASES', 'THRESHOLD FOR RELEASES']);
    // Each of these header cells holds two lines ("to air" over "kg/year"), shaded line by line in the cell's grey.
    expect(g[1].slice(1)).toEqual(['to air kg/year', 'to water kg/year', 'to land kg/year']);
    expect(g.find((r) => r[0] === 'Carbon dioxide (CO2)')).toEqual(['Carbon dioxide (CO2)', '100 million', '-', '-']);
    expect(g.flat()).not.toContain('Greenhouse gases');
  });

  it('ends a table where prose in two columns starts right under it', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [
        ['', 'VaR', 'IRC', 'Total'],
        ['At 1 Oct 2018', '6.9', '8.6', '29.8'],
        ['Movement in risk levels', '0.2', '(2.2)', '0.3'],
        ['At 31 Dec 2018', '7.1', '6.4', '30.1'],
      ], [40, 300, 380, 460], 560, 13);
      // Two columns of running text, set as close under the table as its own rows.
      const left = ['RWAs under the IMA increased by $0.3bn mainly', 'due to higher exposures in Europe and Asia', 'that increased VaR and other measures of risk'];
      const right = ['this is informed by stress tests and a rounded', 'judgement of the business model of the firm', 'also taking into account the view of the PRA'];
      left.forEach((t, i) => page.drawText(t, { x: 40, y: 505 - i * 13, size: 10, font }));
      right.forEach((t, i) => page.drawText(t, { x: 300, y: 505 - i * 13, size: 10, font }));
    }, { width: 560, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', 'VaR', 'IRC', 'Total'],
      ['At 1 Oct 2018', '6.9', '8.6', '29.8'],
      ['Movement in risk levels', '0.2', '(2.2)', '0.3'],
      ['At 31 Dec 2018', '7.1', '6.4', '30.1'],
    ]);
  });

  it('reads cells of several lines as one cell where rows stand apart', async () => {
    const bytes = await makePdf((page, font) => {
      // A header of two lines, then rows set apart by a blank line, each with wrapped cells.
      drawRows(page, font, [
        ['Company', 'Date of', 'Principal'],
        ['name', 'establishment', 'activities'],
        ['', '', ''],
        ['Wenzhou Dexin', 'October 30,', 'Property'],
        ['Ecological Park', '2013', 'development'],
        ['', '', ''],
        ['Wenzhou Dexin', 'July 2,', 'Property'],
        ['Mingcheng', '2015', 'investment'],
        ['', '', ''],
        ['Wenzhou Dexin', 'May 30,', 'Property'],
        ['Kaixing', '2016', 'consultation'],
      ], [40, 220, 380], 560, 12);
    }, { width: 560, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Company name', 'Date of establishment', 'Principal activities'],
      ['Wenzhou Dexin Ecological Park', 'October 30, 2013', 'Property development'],
      ['Wenzhou Dexin Mingcheng', 'July 2, 2015', 'Property investment'],
      ['Wenzhou Dexin Kaixing', 'May 30, 2016', 'Property consultation'],
    ]);
  });

  it('reads cells of several lines as one cell where rows stand apart, beside a column of figures', async () => {
    const bytes = await makePdf((page, font) => {
      drawRows(page, font, [
        ['', 'Company', 'Date of', 'Principal'],
        ['', 'name', 'establishment', 'activities'],
        ['', '', '', ''],
        ['8.', 'Wenzhou Dexin', 'October 28,', 'Property'],
        ['', 'Ecological Park', '2013', 'development and'],
        ['', '', '', 'investment'],
        ['', '', '', ''],
        ['9.', 'Wenzhou Dexin', 'July 2,', 'Property'],
        ['', 'Mingcheng', '2015', 'investment'],
        ['', '', '', ''],
        ['10.', 'Wenzhou Dexin', 'May 30,', 'Property'],
        ['', 'Kaixing', '2016', 'consultation'],
      ], [40, 80, 260, 380], 560, 12);
    }, { width: 560, height: 600 });
    const [layout] = await layouts(bytes);
    const tables = detectTables(layout);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', 'Company name', 'Date of establishment', 'Principal activities'],
      ['8.', 'Wenzhou Dexin Ecological Park', 'October 28, 2013', 'Property development and investment'],
      ['9.', 'Wenzhou Dexin Mingcheng', 'July 2, 2015', 'Property investment'],
      ['10.', 'Wenzhou Dexin Kaixing', 'May 30, 2016', 'Property consultation'],
    ]);
  });

  it('keeps a bulleted list and plain paragraphs out', async () => {
    const bytes = await makePdf((page, font) => {
      ['first point of the list', 'second point', 'third and last point'].forEach((t, i) => {
        page.drawText('•', { x: 50, y: 300 - i * 14, size: 10, font });
        page.drawText(t, { x: 70, y: 300 - i * 14, size: 10, font });
      });
      page.drawText(PROSE, { x: 40, y: 200, size: 10, font });
    });
    const [layout] = await layouts(bytes);
    expect(detectTables(layout)).toEqual([]);
  });

  it('stitches a table continued on the next page and drops the repeated header', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const header = ['Date', 'Text', 'Amount'];
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => [`2026-01-${String(from + i).padStart(2, '0')}`, `Payment ${from + i}`, `${(from + i) * 10}.00`]);
    const p1 = doc.addPage([400, 600]);
    drawRows(p1, font, [header, ...rows(1, 10)], [40, 150, 300], 300, 14);
    const p2 = doc.addPage([400, 600]);
    drawRows(p2, font, [header, ...rows(11, 5)], [40, 150, 300], 560, 14);
    const pages = await layouts(await doc.save());
    const tables = stitchTables(pages.map(detectTables), pages);
    expect(tables).toHaveLength(1);
    const t = tables[0];
    expect(t.pages).toEqual([1, 2]);
    const g = grid(t);
    expect(g[0]).toEqual(header);
    expect(g).toHaveLength(16);
    expect(g[15]).toEqual(['2026-01-15', 'Payment 15', '150.00']);
  });
  it('stitches a table whose right-aligned column starts elsewhere on the next page (its wide header stays on the first)', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const draw = (page: ReturnType<typeof doc.addPage>, rows: string[][], top: number) =>
      rows.forEach((r, i) => {
        page.drawText(r[0], { x: 40, y: top - 14 * i, size: 10, font });
        page.drawText(r[1], { x: 100, y: top - 14 * i, size: 10, font });
        page.drawText(r[2], { x: 360 - font.widthOfTextAtSize(r[2], 10), y: top - 14 * i, size: 10, font });
      });
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => [String(from + i), `Item ${from + i}`, `${(from + i) * 3}.50`]);
    const p1 = doc.addPage([400, 600]);
    draw(p1, [['No.', 'Description', 'Amount in euros'], ...rows(1, 10)], 300);
    const p2 = doc.addPage([400, 600]);
    draw(p2, rows(11, 5), 560);
    const pages = await layouts(await doc.save());
    const tables = stitchTables(pages.map(detectTables), pages);
    expect(tables.map((t) => t.pages)).toEqual([[1, 2]]);
    expect(grid(tables[0])[15]).toEqual(['15', 'Item 15', '45.50']);
  });
});

describe('stitching OCR read tables', () => {
  /** A table of header + rows on `page`, its cells' confidences from `conf` (header cell text → confidence). */
  const table = (page: number, top: number, header: string[], rows: string[][], conf: Record<string, number> = {}): Table => {
    const cells: Cell[] = [header, ...rows].flatMap((r, row) =>
      r.map((text, col) => ({ row, col, row_span: 1, col_span: 1, text, bbox: [40 + col * 100, top + row * 14, 120 + col * 100, top + 12 + row * 14] as BBox, confidence: row === 0 ? (conf[text] ?? 0.96) : 0.95 })),
    );
    return { page, pages: [page], bbox: [40, top, 120 + (header.length - 1) * 100, top + 12 + rows.length * 14], n_rows: rows.length + 1, n_cols: header.length, header_rows: 1, cells };
  };
  const page = (n: number): PageLayout => ({ page: n, width: 600, height: 800, words: [], rulings: [] });
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => [String(from + i), `Item ${from + i}`, '2', `${from + i}.50`]);

  it('joins a table whose repeated header has one cell read otherwise where OCR was unsure', () => {
    const first = table(1, 500, ['Line', 'Description', 'Qty', 'Total'], rows(1, 20), { Qty: 0.81 });
    const next = table(2, 60, ['Line', 'Description', 'Q', 'Total'], rows(21, 5), { Q: 0.9 });
    const [t, ...rest] = stitchTables([[first], [next]], [page(1), page(2)]);
    expect(rest).toHaveLength(0);
    expect(t.pages).toEqual([1, 2]);
    expect(t.n_rows).toBe(26);
  });

  it('keeps apart tables whose header differs in a cell read surely, or in two cells', () => {
    const first = table(1, 500, ['Line', 'Female students', 'Qty', 'Total'], rows(1, 20));
    expect(stitchTables([[first], [table(2, 60, ['Line', 'Male students', 'Qty', 'Total'], rows(21, 5))]], [page(1), page(2)])).toHaveLength(2);
    const unsure = { Qty: 0.5, Q: 0.5, Line: 0.5, Lire: 0.5 };
    expect(stitchTables([[table(1, 500, ['Line', 'Description', 'Qty', 'Total'], rows(1, 20), unsure)], [table(2, 60, ['Lire', 'Description', 'Q', 'Total'], rows(21, 5), unsure)]], [page(1), page(2)])).toHaveLength(2);
  });
});

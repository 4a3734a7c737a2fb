// XLSX sheet names and column widths, read back with exceljs: names keep the extension and stay
// unique within Excel's rules; a merged caption does not widen the columns it covers.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { SheetNames } from '../../src/api/exports/sheet-names.js';
import { writeTableSheet } from '../../src/api/exports/xlsx-table.js';
import type { Table } from '../../src/extract/types.js';

describe('SheetNames', () => {
  it('keeps the extension, so the PDF and the PNG of one name get different sheets', () => {
    const names = new SheetNames(['Documents', 'Fields', 'Line items']);
    expect(names.table('AmazonWebServices.pdf', 0)).toBe('AmazonWebServices.pdf t1');
    expect(names.table('AmazonWebServices.png', 0)).toBe('AmazonWebServices.png t1');
    expect(names.table('AmazonWebServices.pdf', 1)).toBe('AmazonWebServices.pdf t2');
  });

  it('fits 31 characters by cutting the middle of the name, keeps the extension and the table number', () => {
    const names = new SheetNames();
    const long = names.table('2026-03 Quarterly statement Deutsche Bank AG.pdf', 11);
    expect(long.length).toBeLessThanOrEqual(31);
    expect(long).toMatch(/^2026-03 Qua.*….*Bank AG\.pdf t12$/);
  });

  it('is unique ignoring case, replaces the characters Excel forbids, no apostrophe at the ends', () => {
    const names = new SheetNames(['Documents', 'Fields', 'Line items']);
    const a = names.table('scan.pdf', 0);
    const b = names.table('SCAN.pdf', 0);
    expect(a).toBe('scan.pdf t1');
    expect(b).toBe('SCAN.pdf t1 (2)');
    expect(names.table('a/b:c*d?[e]\\f.pdf', 0)).toBe('a_b_c_d__e__f.pdf t1');
    expect(names.table("'quoted'.pdf", 0)).toBe("_quoted'.pdf t1");
    expect(names.unique('documents')).toBe('documents (2)');
    const dup = Array.from({ length: 12 }, () => names.table('x'.repeat(40) + '.pdf', 0));
    expect(new Set(dup.map((n) => n.toLowerCase())).size).toBe(12);
    for (const n of dup) expect(n.length).toBeLessThanOrEqual(31);
  });
});

/** A 4-column table: a long caption over every column, a header row, and short body cells. */
function captioned(): Table {
  const caption = 'Consolidated statement of operations for the fiscal years ended 31 December 2025 and 2024 (in thousands of euros, except per-share data)';
  const cell = (row: number, col: number, text: string, col_span = 1) => ({ row, col, row_span: 1, col_span, text, bbox: [0, 0, 1, 1] as [number, number, number, number], confidence: null });
  const body = [['Revenue', '1,204', '1,113', '8.2%'], ['Cost of sales', '(702)', '(655)', '7.2%'], ['Gross profit', '502', '458', '9.6%']];
  return {
    page: 1, pages: [1], bbox: [0, 0, 100, 100], n_rows: 5, n_cols: 4, header_rows: 2,
    cells: [cell(0, 0, caption, 4), ...['Line', '2025', '2024', 'Change year over year'].map((t, k) => cell(1, k, t)), ...body.flatMap((r, i) => r.map((t, k) => cell(i + 2, k, t)))],
  };
}

describe('table sheet column widths', () => {
  it('come from the body: a merged caption neither widens every column nor is lost', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    writeTableSheet(wb, 'report.pdf t1', captioned(), { convention: 'dot', dateOrder: 'mdy' });
    await wb.commit();
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(Buffer.concat(chunks) as any);
    const ws = read.getWorksheet('report.pdf t1')!;
    const widths = [1, 2, 3, 4].map((c) => ws.getColumn(c).width!);
    // 'Cost of sales' is 13 characters: its column fits it; the numbers' columns stay narrow.
    expect(widths[0]).toBeGreaterThanOrEqual(13);
    expect(widths[0]).toBeLessThan(20);
    expect(Math.max(...widths.slice(1))).toBeLessThanOrEqual(18);
    // The caption is whole, merged over the table, and wraps inside it.
    expect(ws.getCell('A1').value).toBe(captioned().cells[0].text);
    expect(ws.getCell('D1').isMerged).toBe(true);
    expect(ws.getCell('A1').alignment?.wrapText).toBe(true);
    expect(ws.getCell('B3').value).toBe(1204);
  });
});

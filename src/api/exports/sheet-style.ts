/**
 * How every sheet of the XLSX export looks: header rows bold, frozen below them and filtered on
 * the last of them, and column widths that fit the content. exceljs' streaming writer takes the
 * views, the filter and the widths before the first row is committed, so they are measured first.
 */
import type ExcelJS from 'exceljs';

/** Characters of the widest cell a column is sized for; longer text wraps past it in the viewer. */
const MAX_WIDTH = 60;
const MIN_WIDTH = 6;

/** Measures column widths as rows go by: the longest shown text of each column. */
export class ColumnWidths {
  private readonly widths: number[] = [];

  /** Counts the row's values (a number by its digits, a date by its format). */
  add(values: ReadonlyArray<unknown>): void {
    values.forEach((v, i) => this.addAt(i, v));
  }

  /** Counts one value in column `i`, at most `cap` characters of it when given. */
  addAt(i: number, v: unknown, cap = Infinity): void {
    const shown = v === null || v === undefined ? '' : v instanceof Date ? 'yyyy-mm-dd' : String(v);
    const longest = Math.max(...shown.split('\n').map((l) => l.length));
    this.widths[i] = Math.max(this.widths[i] ?? 0, Math.min(cap, longest));
  }

  /** exceljs column definitions: each column two characters wider than its text, within bounds. */
  columns(n = this.widths.length): Partial<ExcelJS.Column>[] {
    return Array.from({ length: n }, (_, i) => ({ width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, (this.widths[i] ?? 0) + 2)) }));
  }
}

/** A1-style column letters of a 1-based column number. */
export function columnLetter(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** Worksheet options for `headerRows` frozen header rows (none when the sheet has no header). */
export function sheetOptions(headerRows: number): Partial<ExcelJS.AddWorksheetOptions> {
  return headerRows > 0 ? { views: [{ state: 'frozen', xSplit: 0, ySplit: headerRows }] } : {};
}

/**
 * Styles a sheet before its first row: widths, and a filter from the last header row down to
 * `lastRow` over `nCols` columns.
 */
export function styleSheet(ws: ExcelJS.Worksheet, widths: ColumnWidths, nCols: number, headerRows: number, lastRow: number): void {
  ws.columns = widths.columns(nCols);
  if (headerRows > 0 && nCols > 0) ws.autoFilter = `A${headerRows}:${columnLetter(nCols)}${Math.max(lastRow, headerRows)}`;
}

/** Makes a header row bold. */
export function boldRow(row: ExcelJS.Row): void {
  row.font = { bold: true };
}

/**
 * One table as one sheet: every cell at its own row and column (sheet row = table row + 1),
 * merged exactly over its `row_span` × `col_span` with its text in the top-left cell, header
 * rows bold, frozen and filtered, body cells typed in the document's number format, column
 * widths fitted to the body.
 *
 * The rows are filled by position before any is committed: exceljs' streaming writer creates
 * rows when cells are merged, so merging first and then appending rows put every row of text
 * below the merged area.
 */
import type ExcelJS from 'exceljs';
import type { Table } from '../../extract/types.js';
import { boldRow, ColumnWidths, sheetOptions, styleSheet } from './sheet-style.js';
import { typedCell, type NumberStyle } from './typed.js';

/** Characters of header text a column widens for; longer headers wrap. */
const HEADER_WIDTH = 16;

/** A merge as [top, left, bottom, right], 1-based and inclusive. */
export type Merge = [number, number, number, number];

/** A placed cell: 0-based position, its value, its format code, and its text as extracted. */
export interface PlacedCell {
  row: number;
  col: number;
  value: string | number | Date;
  numFmt?: string;
  text: string;
}

/**
 * The table's cells placed on its grid: body cells typed (header rows stay text), a merge for
 * every span, clipped to the grid. No text is lost where the engine's cells collide: a span
 * that would cover another cell's position stops before it (first along its row, then down its
 * column), and a cell at the very position of an earlier one joins its text onto that cell's on
 * a new line (a sheet holds one value per position).
 */
export function placeTable(t: Table, style: NumberStyle): { cells: PlacedCell[]; merges: Merge[] } {
  const pos = (r: number, k: number) => r * t.n_cols + k;
  const inGrid = t.cells.filter((c) => c.row < t.n_rows && c.col < t.n_cols).sort((a, b) => a.row - b.row || a.col - b.col);
  const origins = new Set(inGrid.map((c) => pos(c.row, c.col)));
  const taken = new Set<number>();
  const byOrigin = new Map<number, PlacedCell & { raw: string[]; header: boolean }>();
  const merges: Merge[] = [];
  // A span stops before every other cell's position, so no cell ever falls inside an earlier span.
  for (const c of inGrid) {
    const own = pos(c.row, c.col);
    const placed = byOrigin.get(own);
    if (placed) {
      placed.raw.push(c.text);
      continue;
    }
    const blocked = (r: number, k: number) => taken.has(pos(r, k)) || (pos(r, k) !== own && origins.has(pos(r, k)));
    let right = Math.min(t.n_cols, c.col + Math.max(1, c.col_span)) - 1;
    for (let k = c.col + 1; k <= right; k++) if (blocked(c.row, k)) right = k - 1;
    let bottom = Math.min(t.n_rows, c.row + Math.max(1, c.row_span)) - 1;
    for (let r = c.row + 1; r <= bottom; r++) {
      for (let k = c.col; k <= right; k++) if (blocked(r, k)) bottom = r - 1;
    }
    for (let r = c.row; r <= bottom; r++) for (let k = c.col; k <= right; k++) taken.add(pos(r, k));
    byOrigin.set(own, { row: c.row, col: c.col, value: c.text, text: c.text, raw: [c.text], header: c.row < t.header_rows });
    if (bottom > c.row || right > c.col) merges.push([c.row + 1, c.col + 1, bottom + 1, right + 1]);
  }
  const cells = [...byOrigin.values()].map(({ row, col, raw, header }): PlacedCell => {
    const text = raw.join('\n');
    return { row, col, text, ...(header || raw.length > 1 ? { value: text } : typedCell(text, style)) };
  });
  return { cells, merges };
}

/** Writes table `t` as a new sheet of the streaming workbook `wb`. */
export function writeTableSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, name: string, t: Table, style: NumberStyle): void {
  const headerRows = Math.min(t.header_rows, t.n_rows);
  const ws = wb.addWorksheet(name, sheetOptions(headerRows));
  const { cells, merges } = placeTable(t, style);
  // Widths come from the body's one-column cells; a header is counted up to HEADER_WIDTH and
  // wraps past it, and a merged cell (a caption over the whole table) wraps inside its area
  // instead of widening every column it covers.
  const widths = new ColumnWidths();
  const merged = new Set(merges.map((m) => `${m[0]},${m[1]}`));
  const wraps = (c: PlacedCell) => merged.has(`${c.row + 1},${c.col + 1}`) || c.row < headerRows;
  for (const c of cells) {
    if (merged.has(`${c.row + 1},${c.col + 1}`)) continue;
    // The text as extracted is what the number format shows (`8.2%`, not 0.08199999999999999).
    widths.addAt(c.col, c.text, c.row < headerRows ? HEADER_WIDTH : undefined);
  }
  styleSheet(ws, widths, t.n_cols, headerRows, t.n_rows);
  for (const c of cells) {
    const cell = ws.getRow(c.row + 1).getCell(c.col + 1);
    cell.value = c.value;
    if (c.numFmt) cell.numFmt = c.numFmt;
    if (wraps(c)) cell.alignment = { wrapText: true, vertical: 'top' };
  }
  for (let r = 1; r <= headerRows; r++) boldRow(ws.getRow(r));
  for (const m of merges) ws.mergeCells(...m);
  for (let r = 1; r <= t.n_rows; r++) ws.getRow(r).commit();
  ws.commit();
}

/** A `Table` as a dense row × column grid of cells, which is what the line-item rules read. */
import type { BBox, Cell, Table } from '../types.js';

/** A table with `at(row, col)` lookup; spanned cells answer for every slot they cover. */
export interface Grid {
  table: Table;
  rows: number;
  cols: number;
  at(row: number, col: number): Cell | null;
  text(row: number, col: number): string;
}

/** The grid of `table`. A cell spanning columns is found from each of them. */
export function toGrid(table: Table): Grid {
  const slots: (Cell | null)[][] = Array.from({ length: table.n_rows }, () => Array<Cell | null>(table.n_cols).fill(null));
  for (const c of table.cells) {
    for (let r = c.row; r < Math.min(table.n_rows, c.row + Math.max(1, c.row_span)); r++) {
      for (let k = c.col; k < Math.min(table.n_cols, c.col + Math.max(1, c.col_span)); k++) {
        if (!slots[r]![k]) slots[r]![k] = c;
      }
    }
  }
  return {
    table,
    rows: table.n_rows,
    cols: table.n_cols,
    at: (row, col) => slots[row]?.[col] ?? null,
    text: (row, col) => {
      const c = slots[row]?.[col];
      // A row-spanning cell belongs to its first row only, or it would repeat in every item.
      return c && c.row === row ? c.text.trim() : '';
    },
  };
}

/** The smallest box around `boxes`. */
export function unionBox(boxes: BBox[]): BBox {
  if (boxes.length === 0) return [0, 0, 0, 0];
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** The page a row of a (possibly stitched) table is on: the page of its first cell's box. */
export function rowPage(table: Table, row: number): number {
  const pages = table.pages && table.pages.length ? table.pages : [table.page];
  if (pages.length === 1) return pages[0]!;
  // A stitched table does not say where each row is; its cells' y restarts on each page, so
  // count the drops in y (a row above its predecessor starts the next page).
  let idx = 0;
  let prevY = -Infinity;
  for (let r = 0; r <= row; r++) {
    const ys = table.cells.filter((c) => c.row === r).map((c) => c.bbox[1]);
    if (!ys.length) continue;
    const y = Math.min(...ys);
    if (y < prevY - 1) idx++;
    prevY = y;
  }
  return pages[Math.min(idx, pages.length - 1)]!;
}

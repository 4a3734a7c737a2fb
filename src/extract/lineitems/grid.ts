/** A `Table` as a dense row × column grid of cells, which is what the line-item rules read. */
import type { Cell, Table } from '../types.js';
import { unionBox } from '../locale/lines.js';

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

export { unionBox };

const pageCache = new WeakMap<Table, number[]>();

/** The page each row of a (possibly stitched) table is on. */
export function rowPages(table: Table): number[] {
  const cached = pageCache.get(table);
  if (cached) return cached;
  const pages = table.pages && table.pages.length ? table.pages : [table.page];
  const top = Array<number>(table.n_rows).fill(Infinity);
  for (const c of table.cells) if (c.row < table.n_rows) top[c.row] = Math.min(top[c.row]!, c.bbox[1]);
  // A stitched table does not say where each row is; its cells' y restarts on each page, so
  // a row above its predecessor starts the next page.
  const out: number[] = [];
  let idx = 0;
  let prevY = -Infinity;
  for (let r = 0; r < table.n_rows; r++) {
    const y = top[r]!;
    if (pages.length > 1 && Number.isFinite(y)) {
      if (y < prevY - 1) idx++;
      prevY = y;
    }
    out.push(pages[Math.min(idx, pages.length - 1)]!);
  }
  pageCache.set(table, out);
  return out;
}

/** The page row `row` of `table` is on. */
export function rowPage(table: Table, row: number): number {
  return rowPages(table)[row] ?? table.page;
}

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
export function toGrid(source: Table): Grid {
  const table = splitSharedColumns(source);
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

/**
 * `table` with each column that holds two cells side by side in one row (two columns the
 * detector gave one index, `Désignation` and `P.U. HT`) split in two at the gap between them;
 * the table itself when no row has two cells in one column.
 */
function splitSharedColumns(table: Table): Table {
  let t = table;
  for (let col = table.n_cols - 1; col >= 0; col--) {
    const gaps: number[] = [];
    const rows = new Map<number, Cell[]>();
    for (const c of t.cells) if (c.col === col && c.col_span === 1 && c.text.trim()) rows.set(c.row, [...(rows.get(c.row) ?? []), c]);
    for (const cells of rows.values()) {
      if (cells.length !== 2) continue;
      const [a, b] = [...cells].sort((x, y) => x.bbox[0] - y.bbox[0]) as [Cell, Cell];
      if (b.bbox[0] > a.bbox[2]) gaps.push((a.bbox[2] + b.bbox[0]) / 2);
    }
    if (!gaps.length) continue;
    const cut = gaps.sort((x, y) => x - y)[gaps.length >> 1]!;
    const cells = t.cells.map((c) => {
      if (c.col > col) return { ...c, col: c.col + 1 };
      if (c.col + c.col_span - 1 < col) return c;
      if (c.col_span > 1) return { ...c, col_span: c.col_span + 1 };
      return (c.bbox[0] + c.bbox[2]) / 2 > cut ? { ...c, col: col + 1 } : c;
    });
    t = { ...t, n_cols: t.n_cols + 1, cells };
  }
  return t;
}

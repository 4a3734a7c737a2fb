/**
 * An item table cut from its header: the detector may return the header row as a table of its
 * own, just above the rows it names. Such a body reads its columns from that header, matched by
 * position, instead of guessing them from its numbers.
 */
import type { Cell, Table } from '../types.js';
import { mapColumns, type ColumnMap } from './columns.js';
import { toGrid, type Grid } from './grid.js';

/** The header table may sit this far above the body, in row heights of the body. */
const MAX_GAP_ROWS = 2;

/** The column map of headerless `body` read with the header-only table right above it on its page, or null when there is none. */
export function adoptHeader(body: Grid, tables: Grid[]): ColumnMap | null {
  const t = body.table;
  if (!t.cells.length || t.n_rows < 1) return null;
  const rowHeight = (t.bbox[3] - t.bbox[1]) / t.n_rows;
  let header: Grid | null = null;
  for (const g of tables) {
    const h = g.table;
    if (g === body || h.page !== t.page || (h.pages?.length ?? 1) > 1) continue;
    const gap = t.bbox[1] - h.bbox[3];
    if (gap < -1 || gap > MAX_GAP_ROWS * rowHeight) continue;
    if (h.bbox[2] < t.bbox[0] || h.bbox[0] > t.bbox[2]) continue;
    const own = mapColumns(g);
    // Header only: every row is header, and it names two roles at least.
    if (own.headerRows !== g.rows || own.roles.filter(Boolean).length < 2) continue;
    if (!header || h.bbox[3] > header.table.bbox[3]) header = g;
  }
  if (!header) return null;
  const merged = withHeader(header.table, t);
  const map = mapColumns(toGrid(merged));
  if (map.headerRows === 0) return null;
  // The body's rows are counted from its own first row.
  return { ...map, headerRows: 0 };
}

/** `body` with the header table's rows above it, each header cell in the body column it lies over. */
function withHeader(header: Table, body: Table): Table {
  const extents = Array.from({ length: body.n_cols }, () => [Infinity, -Infinity] as [number, number]);
  for (const c of body.cells) {
    if (c.col_span !== 1 || !c.text.trim()) continue;
    const e = extents[c.col];
    if (!e) continue;
    e[0] = Math.min(e[0], c.bbox[0]);
    e[1] = Math.max(e[1], c.bbox[2]);
  }
  const columnOf = (x0: number, x1: number): number => {
    let best = -1;
    let bestScore = -Infinity;
    extents.forEach(([a, b], col) => {
      if (!Number.isFinite(a)) return;
      // Overlap first; between columns it does not touch, the nearest centre.
      const overlap = Math.min(x1, b) - Math.max(x0, a);
      const score = overlap > 0 ? overlap : -Math.abs((x0 + x1) / 2 - (a + b) / 2);
      if (score > bestScore) [best, bestScore] = [col, score];
    });
    return best;
  };
  const texts = new Map<string, { cell: Cell; parts: string[] }>();
  for (const c of header.cells) {
    const col = columnOf(c.bbox[0], c.bbox[2]);
    if (col < 0 || !c.text.trim()) continue;
    const key = `${c.row}:${col}`;
    const slot = texts.get(key);
    if (slot) slot.parts.push(c.text.trim());
    else texts.set(key, { cell: { ...c, col, col_span: 1, row_span: 1 }, parts: [c.text.trim()] });
  }
  const headerCells = [...texts.values()].map(({ cell, parts }) => ({ ...cell, text: parts.join(' ') }));
  const shift = header.n_rows;
  return {
    ...body,
    bbox: [Math.min(header.bbox[0], body.bbox[0]), header.bbox[1], Math.max(header.bbox[2], body.bbox[2]), body.bbox[3]],
    n_rows: body.n_rows + shift,
    header_rows: shift,
    cells: [...headerCells, ...body.cells.map((c) => ({ ...c, row: c.row + shift }))],
  };
}

/**
 * Stitches a table that runs on over a page break into one: the last table of page p and the
 * first of page p+1 join when they have the same column count, their columns line up (at their
 * left or at their right edges), and they sit near the bottom and top of their pages. A repeated
 * header row is dropped.
 */
import { SURE_WORD, type Cell, type PageLayout, type Table } from '../../types.js';

/** "Near the edge": within this share of the page height from the bottom / top. */
const EDGE_SHARE = 0.3;
/** Column edges this far apart (× page width) still line up. */
const EDGE_TOL_SHARE = 0.03;

/** Each column's left and right edges: where its cells of one column start and end, at the furthest. */
function colEdges(t: Table): [number, number][] {
  const edges: [number, number][] = [];
  for (let c = 0; c < t.n_cols; c++) {
    const cells = t.cells.filter((x) => x.col === c && x.col_span === 1);
    edges.push(cells.length ? [Math.min(...cells.map((x) => x.bbox[0])), Math.max(...cells.map((x) => x.bbox[2]))] : [NaN, NaN]);
  }
  return edges;
}

/** A header row's cells in column order. */
const rowCells = (t: Table, r: number) => t.cells.filter((c) => c.row === r).sort((a, b) => a.col - b.col);
const squeeze = (c: Cell) => c.text.replace(/\s+/g, '');

/**
 * OCR may read one cell of a repeated header otherwise ("Qty" on one page, "Q" on the next): a row
 * of three cells or more still repeats when one cell alone differs and one of its two readings
 * was not sure. A different header read surely ("Female students" then "Male students") starts a
 * new table.
 */
const unsure = (c: Cell) => c.confidence !== null && c.confidence < SURE_WORD;

function sameRow(a: Cell[], b: Cell[]): boolean {
  if (a.map(squeeze).join('|') === b.map(squeeze).join('|')) return true;
  if (a.length !== b.length || a.length < 3 || a.some((c, i) => c.col !== b[i].col)) return false;
  const differ = a.map((_, i) => i).filter((i) => squeeze(a[i]) !== squeeze(b[i]));
  return differ.length === 1 && (unsure(a[differ[0]]) || unsure(b[differ[0]]));
}

function compatible(a: Table, b: Table, pa: PageLayout, pb: PageLayout): boolean {
  if (a.n_cols !== b.n_cols || b.page !== a.pages[a.pages.length - 1] + 1) return false;
  if (a.bbox[3] < pa.height * (1 - EDGE_SHARE) || b.bbox[1] > pb.height * EDGE_SHARE) return false;
  // The continuation repeats the header or has none; its own different header starts a new table
  // ("Female students" on one page, "Male students" on the next).
  if (b.header_rows > 0 && !sameHeader(a, b)) return false;
  const ea = colEdges(a), eb = colEdges(b);
  const tol = EDGE_TOL_SHARE * Math.max(pa.width, pb.width);
  let compared = 0;
  for (let c = 0; c < ea.length; c++) {
    if (Number.isNaN(ea[c][0]) || Number.isNaN(eb[c][0])) continue;
    compared++;
    // A column lines up at one of its sides: right-aligned figures start where each page's
    // widest one does ("Prezzo unitario" over its prices on one page, prices alone on the next).
    if (Math.abs(ea[c][0] - eb[c][0]) > tol && Math.abs(ea[c][1] - eb[c][1]) > tol) return false;
  }
  return compared >= Math.min(2, a.n_cols);
}

function sameHeader(a: Table, b: Table): boolean {
  if (a.header_rows !== b.header_rows) return false;
  for (let r = 0; r < a.header_rows; r++) if (!sameRow(rowCells(a, r), rowCells(b, r))) return false;
  return true;
}

function append(a: Table, b: Table): Table {
  const repeated = b.header_rows > 0 && sameHeader(a, b);
  const skip = repeated ? b.header_rows : 0;
  const shifted: Cell[] = b.cells.filter((c) => c.row >= skip).map((c) => ({ ...c, row: c.row - skip + a.n_rows }));
  return {
    ...a,
    pages: [...a.pages, b.page],
    n_rows: a.n_rows + b.n_rows - skip,
    cells: [...a.cells, ...shifted],
  };
}

/** Tables of the whole document in page order, with continued tables joined. */
export function stitchTables(perPage: Table[][], layouts: PageLayout[]): Table[] {
  const out: Table[] = [];
  const layoutOf = new Map(layouts.map((l) => [l.page, l]));
  for (const tables of perPage) {
    tables.forEach((t, i) => {
      const prev = out[out.length - 1];
      const pa = prev && layoutOf.get(prev.pages[prev.pages.length - 1]);
      const pb = layoutOf.get(t.page);
      if (i === 0 && prev && pa && pb && compatible(prev, t, pa, pb)) out[out.length - 1] = append(prev, t);
      else out.push(t);
    });
  }
  return out;
}

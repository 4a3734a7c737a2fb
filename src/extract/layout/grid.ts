/**
 * Turns placed cells into an API.md §4 `Table`. Every grid position is covered by exactly one
 * cell (empty text allowed), so consumers can index `cells` by row and column without gaps.
 */
import type { BBox, Cell, Table, Word } from '../types.js';
import { hundredths } from '../geometry.js';
import { cellText } from './prepare/lines.js';

export interface PlacedCell {
  row: number;
  col: number;
  row_span: number;
  col_span: number;
  words: Word[];
  /** Box of the grid area (used when the cell has no words). */
  area: BBox;
}

/** A cell's confidence: the least confident of its words (OCR), null for text-layer words. */
function confidenceOf(words: Word[]): number | null {
  let min: number | null = null;
  for (const w of words) if (w.confidence !== null) min = min === null ? w.confidence : Math.min(min, w.confidence);
  return min;
}

function wordsBox(words: Word[]): BBox {
  return [
    Math.min(...words.map((w) => w.x0)), Math.min(...words.map((w) => w.y0)),
    Math.max(...words.map((w) => w.x1)), Math.max(...words.map((w) => w.y1)),
  ];
}

/**
 * Builds the table; `colEdges`/`rowEdges` (n+1 values) give the boxes of positions no placed
 * cell covers. Cell boxes are the ruled area for lattice cells and the text box for stream ones.
 */
export function buildTable(page: number, placed: PlacedCell[], colEdges: number[], rowEdges: number[], headerRows: number): Table {
  const nCols = colEdges.length - 1, nRows = rowEdges.length - 1;
  const taken = new Set<string>();
  const cells: Cell[] = [];
  for (const p of placed) {
    for (let r = p.row; r < p.row + p.row_span; r++) for (let c = p.col; c < p.col + p.col_span; c++) taken.add(`${r},${c}`);
    cells.push({
      row: p.row, col: p.col, row_span: p.row_span, col_span: p.col_span,
      text: cellText(p.words),
      bbox: (p.words.length ? wordsBox(p.words) : p.area).map(hundredths) as BBox,
      confidence: confidenceOf(p.words),
    });
  }
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      if (taken.has(`${r},${c}`)) continue;
      cells.push({
        row: r, col: c, row_span: 1, col_span: 1, text: '',
        bbox: [colEdges[c], rowEdges[r], colEdges[c + 1], rowEdges[r + 1]].map(hundredths) as BBox,
        confidence: null,
      });
    }
  }
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  const bbox: BBox = [
    Math.min(colEdges[0], ...cells.map((c) => c.bbox[0])), Math.min(rowEdges[0], ...cells.map((c) => c.bbox[1])),
    Math.max(colEdges[nCols], ...cells.map((c) => c.bbox[2])), Math.max(rowEdges[nRows], ...cells.map((c) => c.bbox[3])),
  ].map(hundredths) as BBox;
  return { page, pages: [page], bbox, n_rows: nRows, n_cols: nCols, header_rows: headerRows, cells };
}

/** Matches numbers, amounts, percentages, dates and dashes standing for zero ("-", "–", "n/a"). */
const NUMERIC = /^[-–—+−(]?[$€£¥]?\s?[\d.,' \u00a0]*\d[\d.,' \u00a0]*\s?%?[)]?[*a-z]?$|^[-–—]+$|^n\/?a$/i;

/**
 * True when a table cell's text stands as a number in a column of figures: a number, amount,
 * percentage or date, or a dash or "n/a" standing in for one. It reads the print's shape, not
 * its value, so it says yes where `isNumeric` of locale/numbers.ts (one number, well grouped, in
 * either convention) says no: dashes and "n/a", a note mark after the figure ("12a", "12*"),
 * dates and figures run together ("15.01.2024", "12 34 56", "1,2,3"); and no where a currency
 * is written as a code or word, or the sign trails ("EUR 12", "kr 12", "US$ 5", "12.00-", "12,-").
 */
export function isNumberCell(text: string): boolean {
  const t = text.trim();
  return t !== '' && NUMERIC.test(t);
}

/** A unit over a column of figures: "$m", "RMB'000", "HK$'000", "US$ million", "%" (OCR reads "$bn" as "Sbn"). */
const UNIT = /^[([]?\s*(?:(?:[A-Z]{0,3}[$€£¥₹]|[Ss](?=m|bn)|RMB|HKD|USD|EUR|GBP|CNY|JPY|CHF)\s*(?:['’‘]?0{3}|m|mn|bn|k|millions?|billions?|thousands?)?|['’‘]?0{3}|%)\s*[)\]]?$/i;
/** A short mark with no word in it: a unit as read ("sm" for "$m"), a count ("N=29"), "(n,%)". */
const MARK = /^(?!.*\p{L}{3})\S{1,6}$/u;

/** True when a text holds a letter or a digit: content, not a mark or a speck. */
export const hasContent = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** True when a cell's text is a unit over a column of figures. */
export const isUnit = (text: string) => UNIT.test(text.trim());
/** True when a cell's text is a short mark with no word in it (a unit as read, a count). */
export const isMark = (text: string) => MARK.test(text.trim());

/** A number, or a figure with signs or units around its digits ("34° 49' 23\"", "+5%", "1,2)") and no word. */
export function isFigure(text: string): boolean {
  return isNumberCell(text) || (/\d/.test(text) && !/\p{L}{2}/u.test(text));
}

/**
 * Removes grid columns (axis 'col') or rows ('row') that no text cell holds on its own: every
 * text cell over them also covers a neighbour, so they carry no structure (inset cell
 * backgrounds and double rules leave such slivers). Empty cells are dropped; `buildTable`
 * fills the positions left.
 */
export function compactGrid(placed: PlacedCell[], edges: number[], axis: 'col' | 'row'): { placed: PlacedCell[]; edges: number[] } {
  const n = edges.length - 1;
  const start = (p: PlacedCell) => (axis === 'col' ? p.col : p.row);
  const span = (p: PlacedCell) => (axis === 'col' ? p.col_span : p.row_span);
  const text = placed.filter((p) => p.words.length > 0);
  const keep: number[] = [];
  for (let c = 0; c < n; c++) if (text.some((p) => start(p) === c && span(p) === 1)) keep.push(c);
  if (keep.length === n || keep.length < 2) return { placed, edges };
  const firstAtOrAfter = (c: number) => keep.findIndex((k) => k >= c);
  const lastAtOrBefore = (c: number) => { for (let i = keep.length - 1; i >= 0; i--) if (keep[i] <= c) return i; return -1; };
  const out: PlacedCell[] = [];
  for (const p of text) {
    let a = firstAtOrAfter(start(p)), b = lastAtOrBefore(start(p) + span(p) - 1);
    if (a < 0) a = keep.length - 1;
    if (b < a) b = a;
    out.push(axis === 'col' ? { ...p, col: a, col_span: b - a + 1 } : { ...p, row: a, row_span: b - a + 1 });
  }
  const newEdges = [edges[0], ...keep.slice(1).map((k) => edges[k]), edges[n]];
  return { placed: out, edges: newEdges };
}

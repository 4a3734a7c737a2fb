/**
 * A header row left outside its table: a ruled body under a header set on a filled band the
 * rules do not frame (white text on colour), or a stream body its header stands apart from by a
 * wider gap than the rows' own. A line just above a table whose pieces each sit over the table's
 * columns, covering most of them, is the table's header row; the line above that, too, when it
 * does the same (a header group over its columns). Pieces count, not columns: a caption's label and
 * title ("表 5-18:  …", read as "R518:") stand over two of six columns. A header of several
 * lines set further apart, read as a table of its own, joins the table under it too.
 */
import type { BBox, Cell, Table } from '../../types.js';
import { type Chunk, type TextLine } from '../prepare/lines.js';
import { hundredths, median } from '../../geometry.js';
import { hasContent, isFigure } from '../grid.js';
import { FIGURE_CAPTION, TABLE_CAPTION } from '../find/blocks.js';

/** A header stands at most this far (× font size) above the table's top. */
const HEADER_GAP_EM = 2.5;
/** The header line lies within the table's sides, give or take this (× font size). */
const SIDE_EM = 1;
/** A piece of this many words is a sentence, not a column heading. */
const MAX_WORDS = 6;
/** At most this many lines are taken above a table. */
const MAX_LINES = 2;

/** Each column's x range, from the cells that lie in it alone. */
function columnRanges(t: Table): ([number, number] | null)[] {
  return Array.from({ length: t.n_cols }, (_, c) => {
    const cells = t.cells.filter((x) => x.col === c && x.col_span === 1 && x.text.trim() !== '');
    return cells.length ? [Math.min(...cells.map((x) => x.bbox[0])), Math.max(...cells.map((x) => x.bbox[2]))] : null;
  });
}

/** The columns a piece of the header stands over: those it overlaps much, or the nearest. */
function columnsOf(chunk: Pick<Chunk, 'x0' | 'x1'>, ranges: ([number, number] | null)[]): number[] {
  const width = chunk.x1 - chunk.x0;
  const over: number[] = [];
  ranges.forEach((r, c) => {
    if (!r) return;
    const ov = Math.min(r[1], chunk.x1) - Math.max(r[0], chunk.x0);
    if (ov > 0 && (ov >= 0.25 * width || ov >= 0.5 * (r[1] - r[0]))) over.push(c);
  });
  return over;
}

/** Header cells of a line: one per piece over its columns; null when a piece stands over none or two share one. */
function headerCells(line: TextLine, ranges: ([number, number] | null)[], row: number): Cell[] | null {
  const cells: Cell[] = [];
  for (const chunk of line.chunks) {
    if (chunk.words.length >= MAX_WORDS) return null;
    const cols = columnsOf(chunk, ranges);
    if (cols.length === 0) return null;
    const col = cols[0], span = cols[cols.length - 1] - col + 1;
    if (cells.some((c) => c.col + c.col_span > col && col + span > c.col)) return null;
    cells.push({ row, col, row_span: 1, col_span: span, text: chunk.text, bbox: [chunk.x0, chunk.y0, chunk.x1, chunk.y1], confidence: confidence(chunk) });
  }
  return cells;
}

function confidence(chunk: Chunk): number | null {
  const cs = chunk.words.map((w) => w.confidence).filter((c): c is number => c !== null);
  return cs.length ? Math.min(...cs) : null;
}

/**
 * The table with the header lines found just above it (`lines`: the page's text lines no table
 * holds, top to bottom); the lines taken are added to `used`.
 */
export function withHeaderAbove(t: Table, lines: TextLine[], used: Set<TextLine>): Table {
  const ranges = columnRanges(t);
  const filledCols = ranges.filter((r) => r !== null).length;
  if (filledCols < 2) return t;
  const size = median(t.cells.filter((c) => c.text.trim() !== '').map((c) => c.bbox[3] - c.bbox[1])) || 10;
  let top = t.bbox[1];
  let table = t;
  for (let taken = 0; taken < MAX_LINES; taken++) {
    const above = lines.filter((l) => !used.has(l) && l.y1 <= top + 0.2 * l.size && l.y1 > top - HEADER_GAP_EM * Math.max(size, l.size));
    const line = above[above.length - 1];
    if (!line || line.chunks.length < 2) break;
    // A caption's label and title ("Table 8.18 -  Leading brands …") over two of four columns.
    const first = line.chunks[0].text.trim();
    if (TABLE_CAPTION.test(first) || FIGURE_CAPTION.test(first)) break;
    if (line.x0 < t.bbox[0] - SIDE_EM * line.size || line.x1 > t.bbox[2] + SIDE_EM * line.size) break;
    // Nothing else between the line and the table (a note beside the table's top).
    if (lines.some((l) => l !== line && l.y0 > line.y1 && l.y1 < top + 0.2 * l.size && l.x1 > t.bbox[0] && l.x0 < t.bbox[2])) break;
    const cells = headerCells(line, ranges, 0);
    if (!cells) break;
    // Headings over most columns, not a caption's label and title over two or three.
    if (cells.length < Math.max(2, Math.ceil(filledCols / 2))) break;
    table = prependRow(table, cells);
    used.add(line);
    top = line.y0;
  }
  return table;
}

/** A heading over no column's cells stands over the column whose middle is this near (× font size) to its own. */
const NEAR_EM = 2;

function nearestColumn(b: BBox, ranges: ([number, number] | null)[], within: number): number[] {
  const mid = (b[0] + b[2]) / 2;
  let best = -1, d = Infinity;
  ranges.forEach((r, c) => {
    const e = r ? Math.abs((r[0] + r[1]) / 2 - mid) : Infinity;
    if (e < d) { d = e; best = c; }
  });
  return d <= within ? [best] : [];
}

/** A header table stands at most this far (× font size) above the table it heads… */
const HEADER_TABLE_GAP_EM = 4;
/** …and has at most this many rows (a header group, its headings, years, units). */
const HEADER_TABLE_ROWS = 6;

/**
 * A header set further apart from its rows than a blank line, read as a table of its own: a
 * table of headings over the figure columns of the table right under it, none over its stub (the
 * row labels), nothing between them. A table of its own has labels of its own. `tables`: the
 * page's tables; `lines`: the text lines no table holds. Each header table found is put on top
 * of the table it heads, its rows as header rows, its cells over the columns they stand over.
 */
export function withHeaderTables(tables: Table[], lines: TextLine[]): Table[] {
  const sorted = [...tables].sort((a, b) => a.bbox[1] - b.bbox[1]);
  const out: Table[] = [];
  for (const t of sorted) {
    const h = out[out.length - 1];
    const joined = h && headerTable(h, t, tables, lines);
    if (joined) out[out.length - 1] = joined;
    else out.push(t);
  }
  return out;
}

function headerTable(h: Table, t: Table, tables: Table[], lines: TextLine[]): Table | null {
  if (h.n_rows > HEADER_TABLE_ROWS || t.n_cols < 2) return null;
  const ranges = columnRanges(t);
  const stub = ranges[0];
  if (!stub) return null;
  // Dashes' boxes are a stroke high: the size is read from cells of letters and figures.
  const size = median(t.cells.filter((c) => hasContent(c.text)).map((c) => c.bbox[3] - c.bbox[1])) || 10;
  const gap = t.bbox[1] - h.bbox[3];
  if (gap < -0.5 * size || gap > HEADER_TABLE_GAP_EM * size) return null;
  if (h.bbox[0] <= stub[1] || h.bbox[2] > t.bbox[2] + SIDE_EM * size) return null;
  const between = (b: BBox) => b[1] >= h.bbox[3] - 0.2 * size && b[3] <= t.bbox[1] + 0.2 * size && b[0] < t.bbox[2] && b[2] > t.bbox[0];
  if (lines.some((l) => between([l.x0, l.y0, l.x1, l.y1])) || tables.some((o) => o !== h && o !== t && between(o.bbox))) return null;
  const rows: Cell[][] = [];
  for (let r = 0; r < h.n_rows; r++) {
    const cells: Cell[] = [];
    for (const c of h.cells.filter((x) => x.row === r && x.text.trim() !== '')) {
      const cols = columnsOf({ x0: c.bbox[0], x1: c.bbox[2] }, ranges);
      // A heading wider than its right-aligned figures ("2015" over "10.7") may overlap none.
      if (cols.length === 0) cols.push(...nearestColumn(c.bbox, ranges, NEAR_EM * size));
      if (cols.length === 0 || cols[0] === 0) return null;
      const col = cols[0], span = cols[cols.length - 1] - col + 1;
      if (cells.some((x) => x.col + x.col_span > col && col + span > x.col)) return null;
      cells.push(...splitFigures({ ...c, row: 0, col, col_span: span, row_span: 1 }));
    }
    if (cells.length === 0) continue;
    if (rows.length === 0 || !goesOnCells(rows[rows.length - 1], cells, size)) rows.push(cells);
  }
  return rows.reduceRight((table, cells) => prependRow(table, cells), t);
}

/**
 * A cell of figures, or of one unit repeated, over as many columns as it holds of them ("2017
 * 2017 2018", "USD USD USD": the years or units of a header table whose own columns took them as
 * one) is one cell per column, each one's box reckoned from its place in the text.
 */
function splitFigures(c: Cell): Cell[] {
  const text = c.text.trim();
  const tokens = [...text.matchAll(/\S+/g)];
  const each = tokens.every((m) => isFigure(m[0])) || tokens.every((m) => m[0] === tokens[0][0]);
  if (c.col_span < 2 || text.includes('\n') || tokens.length !== c.col_span || !each) return [c];
  const x = (i: number) => c.bbox[0] + ((c.bbox[2] - c.bbox[0]) * i) / text.length;
  return tokens.map((m, k) => ({ ...c, col: c.col + k, col_span: 1, text: m[0], bbox: [x(m.index!), c.bbox[1], x(m.index! + m[0].length), c.bbox[3]] }));
}

/** Lines of one header cell stand this close (× text height) or closer. */
const CELL_LINE_GAP_EM = 0.8;

/**
 * Folds a header row into the row above when it is those cells' next lines ("Year ended" over
 * "December 31,"): set at line spacing, each of its cells meets the columns of one cell above
 * and no other, one each, and reads words; a row of years, units ("RMB'000") or notes in brackets
 * ("(unaudited)") is a row of its own, and two cells under one are headings under a group.
 */
function goesOnCells(above: Cell[], cells: Cell[], size: number): boolean {
  const meets = (p: Cell, c: Cell) => p.col < c.col + c.col_span && c.col < p.col + p.col_span;
  const parents = cells.map((c) => { const ps = above.filter((p) => meets(p, c)); return ps.length === 1 ? ps[0] : undefined; });
  const y1 = Math.max(...above.map((c) => c.bbox[3])), y0 = Math.min(...cells.map((c) => c.bbox[1]));
  if (y0 - y1 > CELL_LINE_GAP_EM * size || !parents.every((p, i) => p !== undefined && parents.indexOf(p) === i)) return false;
  if (cells.some((c) => isFigure(c.text) || /^\(|['’‘]000/.test(c.text.trim()))) return false;
  cells.forEach((c, i) => {
    const p = parents[i]!;
    const end = Math.max(p.col + p.col_span, c.col + c.col_span);
    p.col = Math.min(p.col, c.col);
    p.col_span = end - p.col;
    p.text = `${p.text}\n${c.text}`;
    p.bbox = [Math.min(p.bbox[0], c.bbox[0]), Math.min(p.bbox[1], c.bbox[1]), Math.max(p.bbox[2], c.bbox[2]), Math.max(p.bbox[3], c.bbox[3])];
    p.confidence = p.confidence === null || c.confidence === null ? null : Math.min(p.confidence, c.confidence);
  });
  return true;
}

/** The table with one row of cells put on top; positions no cell covers get an empty one. */
function prependRow(t: Table, cells: Cell[]): Table {
  const shifted = t.cells.map((c) => ({ ...c, row: c.row + 1 }));
  const y0 = Math.min(...cells.map((c) => c.bbox[1])), y1 = Math.max(...cells.map((c) => c.bbox[3]));
  const colX = (c: number): [number, number] => {
    const xs = t.cells.filter((x) => x.col === c && x.col_span === 1);
    return xs.length ? [Math.min(...xs.map((x) => x.bbox[0])), Math.max(...xs.map((x) => x.bbox[2]))] : [t.bbox[0], t.bbox[2]];
  };
  const empty: Cell[] = [];
  for (let c = 0; c < t.n_cols; c++) {
    if (cells.some((x) => x.col <= c && c < x.col + x.col_span)) continue;
    const [x0, x1] = colX(c);
    empty.push({ row: 0, col: c, row_span: 1, col_span: 1, text: '', bbox: [x0, y0, x1, y1], confidence: null });
  }
  const top = [...cells, ...empty].map((c) => ({ ...c, bbox: c.bbox.map(hundredths) as BBox }));
  return {
    ...t,
    n_rows: t.n_rows + 1,
    header_rows: Math.max(1, t.header_rows + 1),
    bbox: [Math.min(t.bbox[0], ...cells.map((c) => c.bbox[0])), hundredths(y0), Math.max(t.bbox[2], ...cells.map((c) => c.bbox[2])), t.bbox[3]].map(hundredths) as BBox,
    cells: [...top, ...shifted].sort((a, b) => a.row - b.row || a.col - b.col),
  };
}

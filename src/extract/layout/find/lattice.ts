/**
 * Lattice tables: where ruling lines form a grid. Lines that touch form a component; its distinct
 * x and y positions are the grid; a boundary between two grid cells with no ruling along most of
 * it joins them into one spanning cell; words go to the cell holding their centre.
 */
import type { BBox, PageLayout, Ruling, Table, Word } from '../../types.js';
import { mergeRulings, type Rulings } from '../prepare/rulings.js';
import { buildTable, compactGrid, hasContent, isFigure, isNumberCell, type PlacedCell } from '../grid.js';
import { breaksOff, textLines, type TextLine } from '../prepare/lines.js';
import { hundredths, median } from '../../geometry.js';
import { findColumns } from './columns.js';

/** Lines within this distance (page units) touch: pens overshoot or stop short by ~1–2 pt. */
const TOUCH = 3;
/** Grid positions closer than this are one position (double rules, pen width). */
const SNAP = 3;
/** A boundary is ruled when rulings cover this share of it; lower lets dashed rules through. */
const COVER = 0.6;

function touches(h: Ruling, v: Ruling): boolean {
  return v.x0 >= h.x0 - TOUCH && v.x0 <= h.x1 + TOUCH && h.y0 >= v.y0 - TOUCH && h.y0 <= v.y1 + TOUCH;
}

function cluster(values: number[]): number[] {
  const s = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of s) {
    const g = out[out.length - 1];
    if (g && v - g[g.length - 1] <= SNAP) g.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
}

/** Share of [a, b] covered by the given intervals. */
function coverage(intervals: [number, number][], a: number, b: number): number {
  const parts = intervals.map(([p, q]) => [Math.max(p, a), Math.min(q, b)] as [number, number]).filter(([p, q]) => q > p).sort((x, y) => x[0] - y[0]);
  let sum = 0, end = a;
  for (const [p, q] of parts) {
    if (q <= end) continue;
    sum += q - Math.max(p, end);
    end = q;
  }
  return b > a ? sum / (b - a) : 1;
}

/**
 * Rows ruled across the table and columns ruled inside it, with no frame: the rows'
 * rules end at the table's sides. For each vertical, the horizontal lines it touches that share
 * both ends (two or more) imply a vertical at each end, over the height they span.
 */
function withImpliedSides(r: Rulings): Rulings {
  const extra: Ruling[] = [];
  const has = (x: number, y0: number, y1: number) => [...r.v, ...extra].some((v) => Math.abs(v.x0 - x) <= TOUCH && v.y0 <= y0 + TOUCH && v.y1 >= y1 - TOUCH);
  for (const v of r.v) {
    const crossing = r.h.filter((h) => touches(h, v));
    const groups = new Map<string, Ruling[]>();
    for (const h of crossing) {
      const key = crossing.find((o) => Math.abs(o.x0 - h.x0) <= SNAP && Math.abs(o.x1 - h.x1) <= SNAP)!;
      const k = `${key.x0},${key.x1}`;
      groups.set(k, [...(groups.get(k) ?? []), h]);
    }
    for (const g of groups.values()) {
      if (g.length < 2) continue;
      const y0 = Math.min(...g.map((h) => h.y0)), y1 = Math.max(...g.map((h) => h.y0));
      for (const x of [g[0].x0, g[0].x1]) if (Math.abs(x - v.x0) > SNAP && !has(x, y0, y1)) extra.push({ x0: x, y0, x1: x, y1 });
    }
  }
  return extra.length ? { h: r.h, v: [...r.v, ...extra].sort((p, q) => p.x0 - q.x0 || p.y0 - q.y0) } : r;
}

/** A header band over a ruled body holds at most this many text lines. */
const HEADER_BAND_LINES = 5;

/**
 * A header over a ruled body whose column rules stop at the header's foot (or were too short to
 * find in the pixels): the rule over the header, with the same ends as the body's rules and only
 * the header's text between, closes the table; sides are implied at its ends down to the body.
 */
function withHeaderRule(r: Rulings, words: Word[]): Rulings {
  const extra: Ruling[] = [];
  const same = (p: Ruling, q: Ruling) => Math.abs(p.x0 - q.x0) <= SNAP && Math.abs(p.x1 - q.x1) <= SNAP;
  for (const v of r.v) {
    const crossing = r.h.filter((h) => touches(h, v));
    for (const h of crossing) {
      // The body's top rule, where the column rule starts.
      if (crossing.filter((o) => same(o, h)).length < 2 || crossing.some((o) => o.y0 < h.y0 && same(o, h)) || Math.abs(v.y0 - h.y0) > TOUCH) continue;
      // The nearest rule above the body's top rule, across the same width and touching no column rule.
      const above = r.h.filter((o) => o.y0 < h.y0 - SNAP && o.x1 > h.x0 && o.x0 < h.x1).sort((p, q) => q.y0 - p.y0)[0];
      if (!above || !same(above, h) || r.v.some((o) => touches(above, o))) continue;
      if (extra.some((e) => e.y0 === above.y0)) continue;
      const band = words.filter((w) => (w.y0 + w.y1) / 2 > above.y0 && (w.y0 + w.y1) / 2 < h.y0 && (w.x0 + w.x1) / 2 > h.x0 && (w.x0 + w.x1) / 2 < h.x1);
      // Column headings: a line of two pieces or more (a caption or a title is one).
      const lines = textLines(band);
      if (lines.length > HEADER_BAND_LINES || !lines.some((l) => l.chunks.length >= 2)) continue;
      extra.push({ x0: h.x0, y0: above.y0, x1: h.x0, y1: h.y0 }, { x0: h.x1, y0: above.y0, x1: h.x1, y1: h.y0 });
    }
  }
  return extra.length ? { h: r.h, v: [...r.v, ...extra].sort((p, q) => p.x0 - q.x0 || p.y0 - q.y0) } : r;
}

/** Connected groups of touching horizontal and vertical lines. */
function components(r: Rulings): { h: Ruling[]; v: Ruling[] }[] {
  const n = r.h.length, all = [...r.h, ...r.v];
  const parent = all.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < n; i++) for (let j = 0; j < r.v.length; j++) if (touches(r.h[i], r.v[j])) parent[find(i)] = find(n + j);
  const groups = new Map<number, { h: Ruling[]; v: Ruling[] }>();
  all.forEach((line, i) => {
    const root = find(i);
    const g = groups.get(root) ?? { h: [], v: [] };
    (i < n ? g.h : g.v).push(line);
    groups.set(root, g);
  });
  return [...groups.values()].filter((g) => g.h.length >= 2 && g.v.length >= 2);
}

/**
 * Removes grid positions that cut off a strip thinner than `min` holding no word: inset cell
 * backgrounds draw edges a few points inside the rules (header boxes that sit 5 pt in).
 */
function dropThinStrips(edges: number[], centres: number[], min: number, support: (pos: number) => number): void {
  for (let k = 1; k < edges.length; ) {
    const thin = edges[k] - edges[k - 1] < min && !centres.some((c) => c > edges[k - 1] && c < edges[k]);
    if (!thin || edges.length <= 2) { k++; continue; }
    // Of the pair, drop the edge with less rule behind it (the inset box edge, not the rule),
    // never an outer edge of the grid.
    let drop = support(edges[k - 1]) < support(edges[k]) ? k - 1 : k;
    if (drop === 0) drop = 1;
    if (drop === edges.length - 1) drop = edges.length - 2;
    edges.splice(drop, 1);
    k = Math.max(1, drop);
  }
}

interface Group { r0: number; c0: number; r1: number; c1: number; words: Word[] }

/**
 * One grid from one component; null when it is no table (too small, nothing side by side);
 * `table: null` with a box for a mostly empty grid (a chart), whose words stream must not reuse.
 */
function gridTable(page: number, ruled: { h: Ruling[]; v: Ruling[] }, words: Word[]): { table: Table | null; box: BBox } | null {
  const rows = { h: [...ruled.h, ...virtualRows(ruled, words)], v: ruled.v };
  const comp = { h: rows.h, v: [...rows.v, ...virtualColumns(rows, words)] };
  const xs = cluster([...comp.v.map((l) => l.x0), Math.min(...comp.h.map((l) => l.x0)), Math.max(...comp.h.map((l) => l.x1))]);
  const ys = cluster([...comp.h.map((l) => l.y0), Math.min(...comp.v.map((l) => l.y0)), Math.max(...comp.v.map((l) => l.y1))]);
  const inBox = words.filter((w) => (w.x0 + w.x1) / 2 > xs[0] && (w.x0 + w.x1) / 2 < xs[xs.length - 1] && (w.y0 + w.y1) / 2 > ys[0] && (w.y0 + w.y1) / 2 < ys[ys.length - 1]);
  const size = median(inBox.map((w) => w.size)) || 8;
  const support = (lines: Ruling[], key: 'x0' | 'y0', a: 'x0' | 'y0', b: 'x1' | 'y1') => (pos: number) =>
    lines.filter((l) => Math.abs(l[key] - pos) <= SNAP).reduce((sum, l) => sum + l[b] - l[a], 0);
  dropThinStrips(xs, inBox.map((w) => (w.x0 + w.x1) / 2), 0.8 * size, support(comp.v, 'x0', 'y0', 'y1'));
  dropThinStrips(ys, inBox.map((w) => (w.y0 + w.y1) / 2), 0.5 * size, support(comp.h, 'y0', 'x0', 'x1'));
  const nCols = xs.length - 1, nRows = ys.length - 1;
  if (nCols < 2 || nRows < 2) return null;
  const near = (lines: Ruling[], pos: number, key: 'x0' | 'y0', a: 'y0' | 'x0', b: 'y1' | 'x1') =>
    lines.filter((l) => Math.abs(l[key] - pos) <= SNAP).map((l) => [l[a], l[b]] as [number, number]);
  const parent = Array.from({ length: nRows * nCols }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let c = 1; c < nCols; c++) {
    const segs = near(comp.v, xs[c], 'x0', 'y0', 'y1');
    for (let r = 0; r < nRows; r++) if (coverage(segs, ys[r], ys[r + 1]) < COVER) parent[find(r * nCols + c)] = find(r * nCols + c - 1);
  }
  for (let r = 1; r < nRows; r++) {
    const segs = near(comp.h, ys[r], 'y0', 'x0', 'x1');
    for (let c = 0; c < nCols; c++) if (coverage(segs, xs[c], xs[c + 1]) < COVER) parent[find(r * nCols + c)] = find((r - 1) * nCols + c);
  }
  const groups = new Map<number, Group>();
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      const root = find(r * nCols + c);
      const g = groups.get(root) ?? { r0: r, c0: c, r1: r, c1: c, words: [] };
      g.r0 = Math.min(g.r0, r); g.c0 = Math.min(g.c0, c); g.r1 = Math.max(g.r1, r); g.c1 = Math.max(g.c1, c);
      groups.set(root, g);
    }
  }
  const at = (edges: number[], v: number) => {
    for (let k = 0; k + 1 < edges.length; k++) if (v >= edges[k] && v < edges[k + 1]) return k;
    return -1;
  };
  let inside = 0;
  for (const w of words) {
    const c = at(xs, (w.x0 + w.x1) / 2), r = at(ys, (w.y0 + w.y1) / 2);
    if (c < 0 || r < 0) continue;
    groups.get(find(r * nCols + c))!.words.push(w);
    inside++;
  }
  const placed: PlacedCell[] = [];
  const taken = new Set<string>();
  for (const g of splitUnruledRows(splitUnruledSpans([...groups.values()], xs), ys)) {
    if (taken.has(`${g.r0},${g.c0}`)) {
      // A non-rectangular merge (rare): its words join the cell already covering the spot.
      continue;
    }
    for (let r = g.r0; r <= g.r1; r++) for (let c = g.c0; c <= g.c1; c++) taken.add(`${r},${c}`);
    placed.push({ row: g.r0, col: g.c0, row_span: g.r1 - g.r0 + 1, col_span: g.c1 - g.c0 + 1, words: g.words, area: [xs[g.c0], ys[g.r0], xs[g.c1 + 1], ys[g.r1 + 1]] });
  }
  const filled = placed.filter((p) => p.words.length > 0);
  // A ruled box around one paragraph or a figure frame is not a table: it needs two filled cells
  // side by side somewhere.
  if (inside === 0 || filled.length < 2) return null;
  const rowsWithTwo = new Set<number>();
  for (const p of filled) if (filled.some((q) => q !== p && q.row === p.row)) rowsWithTwo.add(p.row);
  if (rowsWithTwo.size === 0) return null;
  // A chart's grid lines hold a legend or two labels in a sea of empty cells; tables are fuller
  // (the emptiest ruled table of ICDAR EU is about half filled).
  if (filled.length < 0.25 * placed.length) return { table: null, box: [xs[0], ys[0], xs[nCols], ys[nRows]] };
  const byCol = compactGrid(placed, xs, 'col');
  const byRow = compactGrid(byCol.placed, ys, 'row');
  const headerRows = firstNumericRow(byRow.placed, byRow.edges.length - 1);
  const table = buildTable(page, byRow.placed, byCol.edges, byRow.edges, headerRows);
  return { table, box: [xs[0], ys[0], xs[nCols], ys[nRows]] };
}

/**
 * Rows ruled but columns not (rules between rows only, verticals in the header): a merged cell
 * whose chunks each sit inside one grid column is really one cell per column, split back.
 * A chunk crossing a grid boundary (a spanning header) keeps the cell merged.
 */
function splitUnruledSpans(groups: Group[], xs: number[]): Group[] {
  const out: Group[] = [];
  for (const g of groups) {
    if (g.c1 === g.c0 || g.words.length < 2) { out.push(g); continue; }
    const colOf = (x: number) => { for (let k = g.c0; k <= g.c1; k++) if (x < xs[k + 1]) return k; return g.c1; };
    const chunks = textLines(g.words).flatMap((l) => l.chunks);
    const inOne = chunks.every((c) => colOf(c.x0 + 0.5) === colOf(c.x1 - 0.5));
    const cols = new Set(chunks.map((c) => colOf(c.x0 + 0.5)));
    if (!inOne || cols.size < 2) { out.push(g); continue; }
    for (let c = g.c0; c <= g.c1; c++) {
      out.push({ r0: g.r0, r1: g.r1, c0: c, c1: c, words: chunks.filter((ch) => colOf(ch.x0 + 0.5) === c).flatMap((ch) => ch.words) });
    }
  }
  return out.sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0);
}

/**
 * Rows ruled in some columns only (rules under the labels, none across the figures): a cell the
 * missing rules merge over several grid rows, whose lines are figures each inside one of them
 * level with the text of another cell of that row, is one cell per row, split back: a figure
 * does not wrap onto a second line (nor does a mark standing for nothing: a dash OCR reads as
 * "~" or "="). A label of two lines spanning two rows ("Concern over
 * friends / or family" beside "Count" and "Percentage") stays one cell.
 */
function splitUnruledRows(groups: Group[], ys: number[]): Group[] {
  const out: Group[] = [];
  const rowOf = (g: Group, y: number) => { for (let k = g.r0; k <= g.r1; k++) if (y < ys[k + 1]) return k; return g.r1; };
  for (const g of groups) {
    if (g.r1 === g.r0 || g.words.length < 2) { out.push(g); continue; }
    const lines = textLines(g.words);
    const rows = lines.map((l) => rowOf(g, l.y0 + 0.25 * (l.y1 - l.y0)) === rowOf(g, l.y1 - 0.25 * (l.y1 - l.y0)) ? rowOf(g, (l.y0 + l.y1) / 2) : -1);
    const level = (l: TextLine, r: number) => groups.some((o) => o !== g && o.r0 === r && o.r1 === r && o.words.some((w) => Math.abs((w.y0 + w.y1) / 2 - (l.y0 + l.y1) / 2) < 0.3 * (l.y1 - l.y0)));
    const figures = lines.every((l) => l.words.every((w) => isFigure(w.text) || !hasContent(w.text)));
    if (!figures || new Set(rows).size < 2 || rows.some((r, i) => r < 0 || !level(lines[i], r))) { out.push(g); continue; }
    for (let r = g.r0; r <= g.r1; r++) out.push({ r0: r, r1: r, c0: g.c0, c1: g.c1, words: lines.filter((_, i) => rows[i] === r).flatMap((l) => l.words) });
  }
  return out.sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0);
}

/**
 * Columns ruled but rows not (one tall band holding many text lines): when at least two
 * columns hold three or more lines of the band, the lines are rows; virtual rules go between them.
 * Three, because a header cell of two lines ("to air / kg/year") is common and is one cell;
 * and most lines must carry numbers, because wrapped header cells run to five lines.
 */
/** A wrapped header cell runs to this many lines at most (a report's header runs to five). */
const MAX_HEADER_LINES = 5;
/** A rule over this share of the grid's width ends a band of rows. */
const ACROSS_SHARE = 0.5;
/**
 * A line of wrapped labels' next lines ("investments held for trading" under "Net realized and
 * unrealized gain on"): no figure, and in each column it holds text, the line above holds text
 * that breaks off mid-phrase. (A lower-case start is no sign here: OCR reads state codes and
 * leaders in lower case.)
 */
function wrapsOn(above: TextLine, line: TextLine, xs: number[]): boolean {
  if (line.words.some((w) => isFigure(w.text))) return false;
  const textIn = (l: TextLine, c: number) => l.words.filter((w) => (w.x0 + w.x1) / 2 > xs[c] && (w.x0 + w.x1) / 2 < xs[c + 1]).map((w) => w.text).join(' ');
  const cols = xs.slice(1).map((_, c) => c).filter((c) => textIn(line, c) !== '');
  return cols.length > 0 && cols.every((c) => textIn(above, c) !== '' && !isFigure(textIn(above, c)) && breaksOff(textIn(above, c)));
}

/** Rows in a band: some column has lines at this share of the band's line heights or more. */
const ROW_LEVELS_SHARE = 0.75;

/** How many heights text lines stand at: lines that overlap by half their height stand at one. */
function levels(lines: TextLine[]): number {
  let n = 0, y1 = -Infinity;
  for (const l of [...lines].sort((a, b) => a.y0 - b.y0)) {
    if (y1 - l.y0 <= 0.5 * (l.y1 - l.y0)) n++;
    y1 = Math.max(y1, l.y1);
  }
  return n;
}

function virtualRows(comp: { h: Ruling[]; v: Ruling[] }, words: Word[]): Ruling[] {
  const xs = cluster([...comp.v.map((l) => l.x0), Math.min(...comp.h.map((l) => l.x0)), Math.max(...comp.h.map((l) => l.x1))]);
  // Bands lie between rules across most of the grid: a short rule (an underline, a rule under
  // one column's total) ends no band.
  const width = xs[xs.length - 1] - xs[0];
  const across = comp.h.filter((l) => l.x1 - l.x0 >= ACROSS_SHARE * width);
  const ys = cluster([...across.map((l) => l.y0), Math.min(...comp.v.map((l) => l.y0)), Math.max(...comp.v.map((l) => l.y1))]);
  const out: Ruling[] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    const band = words.filter((w) => { const cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2; return cy > ys[r] && cy < ys[r + 1] && cx > xs[0] && cx < xs[xs.length - 1]; });
    const lines = textLines(band);
    if (lines.length < 3) continue;
    // Content: a letter or a digit, half as tall as the band's words at least.
    const tallEnough = 0.5 * median(band.map((w) => w.y1 - w.y0));
    const content = (w: Word) => hasContent(w.text) && w.y1 - w.y0 >= tallEnough;
    let tall = 0, most = 0, fullest = 0;
    for (let c = 0; c + 1 < xs.length; c++) {
      const inColumn = (w: Word) => (w.x0 + w.x1) / 2 > xs[c] && (w.x0 + w.x1) / 2 < xs[c + 1];
      const n = lines.filter((l) => l.words.some(inColumn)).length;
      // A column is tall by lines of content: a speck of a scan OCR reads as "-", "." or "a." is none.
      if (lines.filter((l) => l.words.some((w) => inColumn(w) && content(w))).length >= 3) tall++;
      most = Math.max(most, n);
      fullest = Math.max(fullest, levels(textLines(band.filter(inColumn))));
    }
    // Rows each line of a band is one of are level across the columns, so some column holds a
    // line at every row's height. Columns whose lines fall between one another's (cells of one,
    // two and three lines, each set in the middle of its ruled row) hold one cell each. Counted
    // by the heights lines stand at too: a word OCR boxes a little off its line (a mark beside a
    // figure) makes a line of its own, but no height of its own.
    if (lines.length >= 1.5 * most || fullest < ROW_LEVELS_SHARE * levels(lines)) continue;
    // Data rows, not a wrapped header: most lines of the band carry a number, or the band lies
    // under a ruled header band and holds more lines than a header cell wraps to, most of them
    // with text in two columns or more (a list of names and places).
    const withNumbers = lines.filter((l) => l.words.some((w) => isNumberCell(w.text))).length;
    const across = lines.filter((l) => new Set(l.words.map((w) => xs.findIndex((x, c) => c + 1 < xs.length && (w.x0 + w.x1) / 2 > x && (w.x0 + w.x1) / 2 < xs[c + 1]))).size >= 2).length;
    const body = r > 0 && lines.length > MAX_HEADER_LINES && across >= 0.8 * lines.length;
    if (tall < 2 || (withNumbers < lines.length / 2 && !body)) continue;
    // Rows set tight overlap a little where read from pixels: the rule goes between their middles
    // all the same, so each line's words fall on their own side; but not between overlapping
    // lines above the first that is mostly figures, degrees and units included ("34° 49' 23\""),
    // which are a header cell's lines.
    const first = lines.findIndex((l) => { const n = l.words.filter((w) => isFigure(w.text)).length; return n >= 2 && n >= 0.5 * l.words.length; });
    for (let k = 1; k < lines.length; k++) {
      const y = (lines[k - 1].y1 + lines[k].y0) / 2;
      if (lines[k].y0 < lines[k - 1].y1 && (k < first || first < 0)) continue;
      if (y <= (lines[k - 1].y0 + lines[k - 1].y1) / 2 || y >= (lines[k].y0 + lines[k].y1) / 2) continue;
      if (wrapsOn(lines[k - 1], lines[k], xs)) continue;
      out.push({ x0: xs[0], y0: y, x1: xs[xs.length - 1], y1: y });
    }
  }
  return out;
}

/**
 * Rows ruled but columns not, or only some (a frame, one rule after the label column): inside
 * each ruled column band, the gutters the text leaves (as a stream table finds them) are columns
 * too. A virtual rule goes down each gutter in every grid row no word crosses it, so a header
 * spanning the sub-columns stays one cell. Three lines at least.
 */
function virtualColumns(comp: { h: Ruling[]; v: Ruling[] }, words: Word[]): Ruling[] {
  const xs = cluster([...comp.v.map((l) => l.x0), Math.min(...comp.h.map((l) => l.x0)), Math.max(...comp.h.map((l) => l.x1))]);
  const ys = cluster([...comp.h.map((l) => l.y0), Math.min(...comp.v.map((l) => l.y0)), Math.max(...comp.v.map((l) => l.y1))]);
  const out: Ruling[] = [];
  const cy = (w: Word) => (w.y0 + w.y1) / 2;
  for (let c = 0; c + 1 < xs.length; c++) {
    const band = words.filter((w) => { const cx = (w.x0 + w.x1) / 2; return cx > xs[c] && cx < xs[c + 1] && cy(w) > ys[0] && cy(w) < ys[ys.length - 1]; });
    const lines = textLines(band);
    if (lines.length < 3) continue;
    const cols = findColumns(lines, median(band.map((w) => w.size)));
    for (let k = 1; k < cols.length; k++) {
      const x = (cols[k - 1][1] + cols[k][0]) / 2;
      const rowWords = ys.slice(1).map((y, r) => band.filter((w) => cy(w) > ys[r] && cy(w) < y));
      // Two grid rows with text on both sides: a wrapped header cell alone, or rows indented
      // differently (a total under its parts), make no column.
      const both = rowWords.filter((ws) => ws.some((w) => w.x1 <= x) && ws.some((w) => w.x0 >= x)).length;
      if (both < 2) continue;
      rowWords.forEach((ws, r) => {
        if (!ws.some((w) => w.x0 < x && w.x1 > x)) out.push({ x0: x, y0: ys[r], x1: x, y1: ys[r + 1] });
      });
    }
  }
  return out;
}

/** Rows above the first one with a numeric cell outside the first column (at most half the table). */
function firstNumericRow(placed: PlacedCell[], nRows: number): number {
  for (let r = 0; r < nRows; r++) {
    const row = placed.filter((p) => p.row === r && p.col > 0 && p.words.length);
    if (row.some((p) => isNumberCell(p.words.map((w) => w.text).join(' ')))) return Math.min(r, Math.floor(nRows / 2));
  }
  return nRows > 2 ? 1 : 0;
}

/**
 * Lattice tables of one page, with the boxes they claim (their words are not reused by stream);
 * `table: null` marks a ruled figure (chart grid) that claims its box without being a table.
 */
export function latticeTables(page: number, rulings: Rulings, words: Word[]): { table: Table | null; box: BBox }[] {
  const out: { table: Table | null; box: BBox }[] = [];
  for (const comp of components(withImpliedSides(withHeaderRule(rulings, words)))) {
    const t = gridTable(page, comp, words);
    if (t) out.push(t);
  }
  return out.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
}

/**
 * Lattice tables with the grid's tolerances in points, as they were set on text layers (pens
 * overshoot by 1-2 pt; a double rule's lines lie 2-3 pt apart and are one grid line): an image's
 * words and rulings are seen in points, and its tables come back in its pixels. Below
 * MIN_POINT_SCALE pixels a point the tolerances stay in pixels: there 3 pt is within a pixel of
 * the gap between tables set side by side (3-4 px at 92 dpi).
 */
const MIN_POINT_SCALE = 2;

export function latticeInPoints(layout: PageLayout): ReturnType<typeof latticeTables> {
  const u = layout.unitsPerPoint ?? 1;
  if (u < MIN_POINT_SCALE) return latticeTables(layout.page, mergeRulings(layout.rulings), layout.words);
  const down = <T extends { x0: number; y0: number; x1: number; y1: number }>(b: T): T => ({ ...b, x0: b.x0 / u, y0: b.y0 / u, x1: b.x1 / u, y1: b.y1 / u });
  const up = (b: BBox): BBox => b.map((v) => hundredths(v * u)) as BBox;
  const words = layout.words.map((w) => ({ ...down(w), size: w.size / u }));
  return latticeTables(layout.page, mergeRulings(layout.rulings.map(down)), words).map(({ table, box }) => ({
    box: up(box),
    table: table && { ...table, bbox: up(table.bbox), cells: table.cells.map((c) => ({ ...c, bbox: up(c.bbox) })) },
  }));
}

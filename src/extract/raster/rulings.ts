/**
 * Ruling lines from pixels: long, thin runs of ink in the binarised page, horizontal and
 * vertical, merged across small gaps (dashed lines, JPEG dropouts), returned as `Ruling`s so
 * the lattice algorithm of the digital path applies unchanged.
 */
import type { Ruling } from '../types.js';
import { nextInk, wordsOf, type BinaryImage, type GrayImage } from './gray.js';

/** A run counts as a ruling piece from 1/25 of the page side (≈ 130 px at 3300 px, four or five characters wider than any glyph). */
const MIN_LENGTH_FRACTION = 1 / 25;
/** Gaps up to this many pixels inside a run are bridged (dotted/dashed lines, scan dropouts). */
const MAX_GAP = 4;
/** Thicker than this (pixels at ~300 dpi) is a filled area or a bar of text, not a ruling. */
const MAX_THICKNESS = 12;

/** A ruling's band of pixels: `a0..a1` along it, `b0..b1` across it. */
export interface Seg {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** Ink runs of one line at least `minLen` long, gaps up to MAX_GAP bridged: [start, end] pairs. */
type Runs = [number, number][];

/** The runs of each row of a w-wide image, one row at a time. */
function rowRuns(d: Uint8Array, w: number, minLen: number): (y: number) => Runs {
  const words = wordsOf(d);
  return (y) => {
    const runs: Runs = [];
    let start = -1;
    let last = -1;
    const base = y * w;
    const end = base + w;
    for (let j = nextInk(d, words, base, end) - base; j < w; j = nextInk(d, words, base + j + 1, end) - base) {
      if (start < 0) start = j;
      else if (j - last - 1 > MAX_GAP) {
        if (last - start + 1 >= minLen) runs.push([start, last]);
        start = j;
      }
      last = j;
    }
    if (start >= 0 && last - start + 1 >= minLen) runs.push([start, last]);
    return runs;
  };
}

/**
 * The runs of every column, found in one pass down the rows with a start and an end per
 * column: reading a column in place strides the whole page, and copying the page transposed
 * first cost more than the search.
 */
function columnRuns(d: Uint8Array, w: number, h: number, minLen: number): Runs[] {
  const runs: Runs[] = Array.from({ length: w }, () => []);
  const start = new Int32Array(w).fill(-1);
  const last = new Int32Array(w).fill(-1);
  const words = wordsOf(d);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const end = row + w;
    for (let x = nextInk(d, words, row, end) - row; x < w; x = nextInk(d, words, row + x + 1, end) - row) {
      if (start[x] < 0) start[x] = y;
      else if (y - last[x] - 1 > MAX_GAP) {
        if (last[x] - start[x] + 1 >= minLen) runs[x].push([start[x], last[x]]);
        start[x] = y;
      }
      last[x] = y;
    }
  }
  for (let x = 0; x < w; x++) if (start[x] >= 0 && last[x] - start[x] + 1 >= minLen) runs[x].push([start[x], last[x]]);
  return runs;
}

/**
 * Stacks the runs of consecutive lines (rows for horizontal rulings, columns for vertical ones)
 * that mostly overlap into thick segments, and keeps the thin, line-like ones. `ink(i, j)` is the
 * pixel at position j of line i.
 */
function stackRuns(runsOf: (i: number) => Runs, lines: number, ink: (i: number, j: number) => number): Seg[] {
  const open: Seg[] = [];
  const done: Seg[] = [];
  for (let i = 0; i < lines; i++) {
    const runs = runsOf(i);
    const next: Seg[] = [];
    const used = new Set<Seg>();
    for (const [a0, a1] of runs) {
      const m = open.find((s) => !used.has(s) && s.b1 === i - 1 && Math.min(s.a1, a1) - Math.max(s.a0, a0) > 0.5 * Math.min(s.a1 - s.a0, a1 - a0));
      if (m) {
        used.add(m);
        next.push({ a0: Math.min(m.a0, a0), a1: Math.max(m.a1, a1), b0: m.b0, b1: i });
      } else next.push({ a0, a1, b0: i, b1: i });
    }
    for (const s of open) if (!used.has(s)) done.push(s);
    open.length = 0;
    open.push(...next);
  }
  done.push(...open);
  return done.filter((s) => s.b1 - s.b0 + 1 <= MAX_THICKNESS && lineLike(s, lines, ink));
}

/** A ruling's densest line is mostly ink (0.8 lets 10-on-2-off dashes through); 3 px off it, little is. */
const MIN_CORE_DENSITY = 0.8;
const MAX_SIDE_DENSITY = 0.3;

/**
 * Bold text makes long bridged runs too (its letters are 1–4 px apart): on a 24 px bold header
 * the middle row ran 190 px and was erased as a ruling. Text has gaps in that row and stems just
 * above and below it; a ruling has neither.
 */
function lineLike(s: Seg, lines: number, ink: (i: number, j: number) => number): boolean {
  const density = (i: number) => {
    if (i < 0 || i >= lines) return 0;
    let n = 0;
    for (let j = s.a0; j <= s.a1; j++) n += ink(i, j);
    return n / (s.a1 - s.a0 + 1);
  };
  let core = 0;
  for (let i = s.b0; i <= s.b1; i++) core = Math.max(core, density(i));
  if (core < MIN_CORE_DENSITY) return false;
  return Math.max(density(s.b0 - 3), density(s.b1 + 3)) <= MAX_SIDE_DENSITY;
}

/** A piece ends on a crossing line when that line passes within this many pixels of its end. */
const END_SLACK = 4;

/** Whether a perpendicular segment crosses position `at` of a line lying at `mid`. */
function endsOn(cross: Seg[], mid: number, at: number): boolean {
  return crossingAt(cross, mid, at) !== undefined;
}

/** The perpendicular segment crossing position `at` of a line lying at `mid`, if any. */
function crossingAt(cross: Seg[], mid: number, at: number): Seg | undefined {
  return cross.find((c) => c.a0 - END_SLACK <= mid && c.a1 + END_SLACK >= mid && c.b0 - END_SLACK <= at && c.b1 + END_SLACK >= at);
}

/**
 * Joins collinear pieces (same line within 3 px) whose ends are less than `gap` apart: a rule
 * broken by a scan dropout or a faint stretch. A gap whose two sides both end on a crossing
 * rule is kept: that is where one grid ends and the next begins (the left edges of tables
 * stacked under each other, with their titles between, are collinear).
 */
function joinCollinear(segs: Seg[], gap: number, cross: Seg[] = []): Seg[] {
  const sorted = [...segs].sort((p, q) => (p.b0 + p.b1) / 2 - (q.b0 + q.b1) / 2 || p.a0 - q.a0);
  const out: Seg[] = [];
  for (const s of sorted) {
    const mid = (s.b0 + s.b1) / 2;
    const m = out.find(
      (o) =>
        Math.abs((o.b0 + o.b1) / 2 - mid) <= 3 &&
        s.a0 - o.a1 <= gap &&
        o.a0 - s.a1 <= gap &&
        !(s.a0 > o.a1 ? endsOn(cross, mid, o.a1) && endsOn(cross, mid, s.a0) : o.a0 > s.a1 && endsOn(cross, mid, s.a1) && endsOn(cross, mid, o.a0)),
    );
    if (m) {
      m.a0 = Math.min(m.a0, s.a0);
      m.a1 = Math.max(m.a1, s.a1);
      m.b0 = Math.min(m.b0, s.b0);
      m.b1 = Math.max(m.b1, s.b1);
    } else out.push({ ...s });
  }
  return out;
}

/**
 * A ruling is also at least this many glyph heights long: at 16 px glyphs (200 dpi) the letters
 * of a word are 2–3 px apart, so the bridged baseline of "Leeds" ran 62 px — longer than 1/25 of
 * a 1240 px photo — and became a ruling that split the table under it.
 */
const MIN_LENGTH_GLYPHS = 5;

/**
 * A shorter vertical piece is a ruling when both its ends lie on horizontal rulings: the side of
 * a box one or two rows high (an invoice's allowance lines, a tax summary under its header), at
 * least this many glyph heights long. A letter's stem never reaches a rule above and below it.
 */
const MIN_BOX_SIDE_GLYPHS = 1.5;

/**
 * A box of cells has at least this many sides between its two rules (two cells); a lone framed
 * box (a chart's legend, a note in a frame) is no table row.
 */
const MIN_BOX_SIDES = 3;

/** Whether a vertical piece runs from one horizontal ruling to another. */
function boxSide(s: Seg, horiz: Seg[]): boolean {
  const mid = (s.b0 + s.b1) / 2;
  return endsOn(horiz, mid, s.a0) && endsOn(horiz, mid, s.a1);
}

/**
 * The short vertical pieces that run from one horizontal ruling to another, where that pair of
 * rulings holds MIN_BOX_SIDES or more such sides (short ones, or long pieces passing through).
 */
function boxSides(short: Seg[], long: Seg[], horiz: Seg[]): Seg[] {
  const ends = short.map((s) => {
    const mid = (s.b0 + s.b1) / 2;
    const top = crossingAt(horiz, mid, s.a0);
    const bottom = top && crossingAt(horiz, mid, s.a1);
    return bottom ? { s, top, bottom } : null;
  });
  return ends.flatMap((e) => {
    if (!e) return [];
    const x0 = Math.max(e.top.a0, e.bottom.a0) - END_SLACK;
    const x1 = Math.min(e.top.a1, e.bottom.a1) + END_SLACK;
    const between = (v: Seg) => (v.b0 + v.b1) / 2 >= x0 && (v.b0 + v.b1) / 2 <= x1;
    const sides = ends.filter((o) => o && o.top === e.top && o.bottom === e.bottom).length;
    const through = long.filter((v) => between(v) && v.a0 <= e.s.a0 + END_SLACK && v.a1 >= e.s.a1 - END_SLACK).length;
    return sides + through >= MIN_BOX_SIDES ? [e.s] : [];
  });
}

/**
 * Ruling lines of a binarised page, with their thickness (for erasing), in its pixels. `glyph`
 * is the page's median glyph height when known.
 */
export function findRulings(img: BinaryImage, glyph: number | null = null): { rulings: Ruling[]; thick: Seg[]; vertical: Seg[] } {
  const { width: w, height: h, data } = img;
  const byGlyph = glyph ? Math.round(glyph * MIN_LENGTH_GLYPHS) : 0;
  const hMin = Math.max(20, byGlyph, Math.round(w * MIN_LENGTH_FRACTION));
  const vMin = Math.max(20, byGlyph, Math.round(h * MIN_LENGTH_FRACTION));
  const sideMin = glyph ? Math.min(vMin, Math.max(20, Math.round(glyph * MIN_BOX_SIDE_GLYPHS))) : vMin;
  const horizPieces = stackRuns(rowRuns(data, w, hMin), h, (y, x) => data[y * w + x]);
  // The columns' runs are found once, down to the box sides' length (never above vMin): a run's
  // ends do not depend on the length asked, so the long runs are those of them long enough.
  const byColumn = columnRuns(data, w, h, sideMin);
  const verticalPieces = (minLen: number) => {
    const runs = minLen > sideMin ? byColumn.map((rs) => rs.filter(([a, b]) => b - a + 1 >= minLen)) : byColumn;
    return stackRuns((x) => runs[x], w, (x, y) => data[y * w + x]);
  };
  const vertPieces = verticalPieces(vMin);
  // Short pieces are looked for apart: with them in the same stacking, a stroke beside a long
  // rule would join it and move its end. Those running between two horizontal pieces keep framed
  // boxes in a row (a flow chart's) apart when their edges are joined across the gaps.
  const short = sideMin < vMin ? verticalPieces(sideMin).filter((s) => s.a1 - s.a0 + 1 < vMin && boxSide(s, horizPieces)) : [];
  const horiz = joinCollinear(horizPieces, 2 * hMin, [...vertPieces, ...short]);
  const sides = boxSides(short, vertPieces, horiz);
  const vert = joinCollinear([...vertPieces, ...sides], 2 * vMin, horiz);
  const rulings: Ruling[] = [];
  for (const s of horiz) {
    const y = (s.b0 + s.b1 + 1) / 2;
    rulings.push({ x0: s.a0, y0: y, x1: s.a1 + 1, y1: y });
  }
  for (const s of vert) {
    const x = (s.b0 + s.b1 + 1) / 2;
    rulings.push({ x0: x, y0: s.a0, x1: x, y1: s.a1 + 1 });
  }
  return { rulings, thick: horiz, vertical: vert };
}

/**
 * Paints the ruling pixels white (one pixel of margin; `paper` is 0 in a binary image) so OCR
 * does not read table borders as `|`, `_` or `l` — on the ICDAR lattice pages that noise is most
 * of the OCR errors.
 */
export function eraseRulings(gray: GrayImage | BinaryImage, found: ReturnType<typeof findRulings>, paper = 255): void {
  const { width: w, height: h } = gray;
  // The whole band, not only the pixels marked ink: the anti-aliased grey edge of a line is
  // above the ink threshold but still dark enough for Tesseract's own binarisation.
  const clear = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < w && y < h) gray.data[y * w + x] = paper;
  };
  for (const s of found.thick) {
    for (let y = s.b0 - 1; y <= s.b1 + 1; y++) for (let x = s.a0; x <= s.a1; x++) clear(x, y);
  }
  for (const s of found.vertical) {
    for (let x = s.b0 - 1; x <= s.b1 + 1; x++) for (let y = s.a0; y <= s.a1; y++) clear(x, y);
  }
}

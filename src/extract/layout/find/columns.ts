/**
 * Column boundaries of a block of text lines from the horizontal projection of their chunks:
 * x ranges no chunk covers are gutters; ranges crossed by only a few chunks (spanning headers)
 * are gutters too when most lines leave them empty. Sparse columns survive because a gutter is
 * only the least-covered part of a low range, never a range holding text of its own.
 * A column found so is then split where its words, not its chunks, leave a gutter that most of
 * its lines, a header line among them, have text on both sides of, mostly aligned: columns set closer than a word space allows
 * ("648765 AAA", "10.0 0.9 9.1" under a header group), unless one word stands beside that
 * gutter on most lines, the top one among them ("Phase III", "$ 400" with no header over them),
 * or the gutter lies inside figures ("86, 145" cut after its comma, 34° 49', "Jun 2030", "12 (41.4)"),
 * or a phrase goes on past it in lower case ("I/we sold | some of the assets").
 */
import type { Word } from '../../types.js';
import type { TextLine } from '../prepare/lines.js';
import { monthOf } from '../../locale/dates.js';

/** Gutter boundaries: [x0, x1] of each column, left to right. */
export type Columns = [number, number][];

/** Lines crossing a gutter may be at most this share of the block (headers spanning columns). */
const SPAN_SHARE = 0.15;
/** Page units per bin: finer than any gutter worth finding. */
const STEP = 0.5;
/** Words on one side of a narrow gutter line up within this (× font size) when it is a column edge. */
const ALIGN_EM = 0.35;

/** The least-covered stretches, at least `minGap` bins wide, of the ranges covered by no more than `k`. */
function lowStretches(cover: number[], k: number, minGap: number): [number, number][] {
  const n = cover.length;
  const gaps: [number, number][] = [];
  for (let i = 0; i < n; ) {
    if (cover[i] > k) { i++; continue; }
    let j = i;
    while (j < n && cover[j] <= k) j++;
    let min = Infinity;
    for (let t = i; t < j; t++) min = Math.min(min, cover[t]);
    // A header centred over a gutter ("1994" over the gap between two "Round" columns) leaves
    // only slivers at the lowest cover: then the gutter is the stretch under the next level up.
    for (let level = min; level <= k; level++) {
      const found: [number, number][] = [];
      for (let t = i; t < j; ) {
        if (cover[t] > level) { t++; continue; }
        let u = t;
        while (u < j && cover[u] <= level) u++;
        if (u - t >= minGap && t > 0 && u < n) found.push([t, u]);
        t = u;
      }
      if (found.length) { gaps.push(...found); break; }
    }
    i = j;
  }
  return gaps;
}

function projection(boxes: { x0: number; x1: number }[][], x0: number, x1: number): number[] {
  const n = Math.max(1, Math.ceil((x1 - x0) / STEP));
  const cover = new Array<number>(n).fill(0);
  for (const line of boxes) {
    for (const c of line) {
      const a = Math.max(0, Math.floor((c.x0 - x0) / STEP)), b = Math.min(n, Math.ceil((c.x1 - x0) / STEP));
      for (let i = a; i < b; i++) cover[i]++;
    }
  }
  return cover;
}

function cut(x0: number, x1: number, gaps: [number, number][]): Columns {
  const cols: Columns = [];
  let start = 0;
  for (const [a, b] of gaps) {
    cols.push([x0 + start * STEP, x0 + a * STEP]);
    start = b;
  }
  cols.push([x0 + start * STEP, x1]);
  return cols;
}

/** Most of `xs` (a header line may stand apart) lie within `tol` of their median. */
function aligned(xs: number[], tol: number): boolean {
  const m = [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return xs.filter((x) => Math.abs(x - m) <= tol).length >= 0.6 * xs.length;
}

/** Most of `texts` (this share) are the text at index `top`. */
const SAME_SHARE = 0.6;
function repeated(texts: string[], top: number): boolean {
  return texts.filter((t) => t === texts[top]).length >= SAME_SHARE * texts.length;
}

/** Splits the column [x0, x1] at word gutters that are column edges (see the file comment). */
function splitByWords(lines: TextLine[], x0: number, x1: number, size: number): Columns {
  const words = lines.map((l) => l.words.filter((w) => w.x1 > x0 && w.x0 < x1));
  const filled = words.filter((ws) => ws.length > 0);
  if (filled.length < 3) return [[x0, x1]];
  const k = Math.floor(filled.length * SPAN_SHARE);
  const holds = (p: number, q: number) => filled.filter((ws) => ws.some((w) => (w.x0 + w.x1) / 2 > p && (w.x0 + w.x1) / 2 < q)).length >= 2;
  const gaps = lowStretches(projection(words, x0, x1), k, Math.max(1, 0.1 * size) / STEP).filter(([a, b]) => {

    const ga = x0 + a * STEP, gb = x0 + b * STEP;
    const both = filled.filter((ws) => ws.some((w) => w.x1 <= ga + STEP) && ws.some((w) => w.x0 >= gb - STEP));
    // The header line has text on both sides too: "Payment 1" … "Payment 15" under one heading
    // "Text" is one column whose words align. A top line spanning the gutter, or standing on one
    // side of it only over two lines that hold text on both sides, is a header group (over the
    // columns right or left of it); the line under it is the header.
    const oneSided = (i: number) => filled.length > i && !both.includes(filled[i]);
    const group = filled[0].some((w) => w.x0 < ga && w.x1 > gb) || (oneSided(0) && !oneSided(1) && !oneSided(2));
    const header = group && filled.length > 1 ? filled[1] : filled[0];
    if (both.length < 3 || both.length < 0.6 * filled.length || !both.includes(header)) return false;
    // Text of its own on either side (the hole a spanning header leaves at a column's edge is no gutter).
    if (!holds(x0, ga) || !holds(gb, x1)) return false;
    // A column edge: the words just left of it end together (right-aligned) or those just
    // right of it start together (left-aligned); the inner spaces of text cells do neither.
    const ends = both.map((ws) => Math.max(...ws.filter((w) => w.x1 <= ga + STEP).map((w) => w.x1)));
    const starts = both.map((ws) => Math.min(...ws.filter((w) => w.x0 >= gb - STEP).map((w) => w.x0)));
    // The same word beside the gutter on most lines, the top line among them ("Phase III",
    // "Phase II" with no header over them; "$ 400", "$ 140"), is part of each cell, not a column
    // of its own: a header's own word there ("Position" over "Director") makes it a column.
    const beside = (pick: (ws: Word[]) => Word | undefined) => both.map((ws) => pick(ws)?.text ?? '');
    const lefts = beside((ws) => ws.filter((w) => w.x1 <= ga + STEP).sort((p, q) => q.x1 - p.x1)[0]);
    const rights = beside((ws) => ws.filter((w) => w.x0 >= gb - STEP).sort((p, q) => p.x0 - q.x0)[0]);
    const top = both.indexOf(header);
    if (repeated(lefts, top) || repeated(rights, top)) return false;
    // A number the reader cut after its mark ("86, 145", "13. 62"), an angle in degrees and
    // minutes ("34° 49' 23\""), a date ("Jun 2030", "March 27, 2013"), or a figure with its share
    // in brackets ("12 (41.4)"), on most lines: the gutter lies inside cells.
    const inside = both.filter((_, i) => ((/\d[.,°'′]$/.test(lefts[i]) || monthOf(lefts[i]) !== null) && /^\d/.test(rights[i])) || (/\d$/.test(lefts[i]) && /^\(\d/.test(rights[i])));
    if (inside.length >= SAME_SHARE * both.length) return false;
    // A phrase going on past the gutter on most lines ("I/we sold | some of the assets", word
    // spaces that happen to line up): a lower-case word after a word is no cell's start.
    const goesOn = both.filter((_, i) => /^\p{L}/u.test(lefts[i]) && /^\p{Ll}/u.test(rights[i]));
    if (goesOn.length >= SAME_SHARE * both.length) return false;
    return aligned(ends, ALIGN_EM * size) || aligned(starts, ALIGN_EM * size);
  });
  // Two gutters with no text of its own between them part one column, not two.
  const kept: [number, number][] = [];
  for (const g of gaps) if (holds(kept.length ? x0 + kept[kept.length - 1][1] * STEP : x0, x0 + g[0] * STEP)) kept.push(g);
  return cut(x0, x1, kept);
}

/**
 * A gutter that chunks cross must part two columns that each hold chunks of their own on two
 * lines or more: left-aligned labels of differing lengths ("age", "weekly wage", "duration of
 * stay") leave such a low stretch inside their column, with a stray title line beside it.
 */
function joinThin(lines: TextLine[], cols: Columns): Columns {
  const own = ([a, b]: [number, number]) => lines.filter((l) => l.chunks.some((c) => c.x0 >= a - STEP && c.x1 <= b + STEP)).length;
  const out: Columns = [];
  for (const col of cols) {
    const prev = out[out.length - 1];
    const crossed = prev && lines.some((l) => l.chunks.some((c) => c.x0 < prev[1] && c.x1 > col[0]));
    if (prev && crossed && (own(prev) < 2 || own(col) < 2)) out[out.length - 1] = [prev[0], col[1]];
    else out.push([col[0], col[1]]);
  }
  return out;
}

/** Columns of a block; `byWords: false` finds them from chunks alone (no split closer than a word space). */
export function findColumns(lines: TextLine[], size: number, byWords = true): Columns {
  const x0 = Math.min(...lines.map((l) => l.x0)), x1 = Math.max(...lines.map((l) => l.x1));
  const k = Math.max(1, Math.floor(lines.length * SPAN_SHARE));
  // A gutter narrower than this is the space inside a phrase that happens to line up.
  const minGap = Math.max(2, 0.5 * size) / STEP;
  const cols = joinThin(lines, cut(x0, x1, lowStretches(projection(lines.map((l) => l.chunks), x0, x1), k, minGap)));
  const split = byWords ? cols.flatMap(([a, b]) => splitByWords(lines, a, b, size)) : cols;
  // A column no word is centred in is the hole a spanning header leaves between two gutters.
  const centred = split.filter(([a, b]) => lines.some((l) => l.words.some((w) => (w.x0 + w.x1) / 2 > a && (w.x0 + w.x1) / 2 < b)));
  return centred.length ? centred : split;
}

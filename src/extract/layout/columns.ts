/**
 * Column boundaries of a block of text lines from the horizontal projection of their chunks:
 * x ranges no chunk covers are gutters; ranges crossed by only a few chunks (spanning headers)
 * are gutters too when most lines leave them empty. Sparse columns survive because a gutter is
 * only the least-covered part of a low range, never a range holding text of its own.
 */
import type { TextLine } from './lines.js';

/** Gutter boundaries: [x0, x1] of each column, left to right. */
export type Columns = [number, number][];

/** Lines crossing a gutter may be at most this share of the block (headers spanning columns). */
const SPAN_SHARE = 0.15;

export function findColumns(lines: TextLine[], size: number): Columns {
  const x0 = Math.min(...lines.map((l) => l.x0)), x1 = Math.max(...lines.map((l) => l.x1));
  const step = 0.5; // page units per bin: finer than any gutter worth finding
  const n = Math.max(1, Math.ceil((x1 - x0) / step));
  const cover = new Array<number>(n).fill(0);
  for (const l of lines) {
    for (const c of l.chunks) {
      const a = Math.max(0, Math.floor((c.x0 - x0) / step)), b = Math.min(n, Math.ceil((c.x1 - x0) / step));
      for (let i = a; i < b; i++) cover[i]++;
    }
  }
  const k = Math.max(1, Math.floor(lines.length * SPAN_SHARE));
  // A gutter narrower than this is the space inside a phrase that happens to line up.
  const minGap = Math.max(2, 0.5 * size) / step;
  const gaps: [number, number][] = [];
  for (let i = 0; i < n; ) {
    if (cover[i] > k) { i++; continue; }
    let j = i;
    while (j < n && cover[j] <= k) j++;
    // Inside the low range [i, j): the least-covered stretches are the gutters.
    let min = Infinity;
    for (let t = i; t < j; t++) min = Math.min(min, cover[t]);
    for (let t = i; t < j; ) {
      if (cover[t] !== min) { t++; continue; }
      let u = t;
      while (u < j && cover[u] === min) u++;
      if (u - t >= minGap && t > 0 && u < n) gaps.push([t, u]);
      t = u;
    }
    i = j;
  }
  const cols: Columns = [];
  let start = 0;
  for (const [a, b] of gaps) {
    cols.push([x0 + start * step, x0 + a * step]);
    start = b;
  }
  cols.push([x0 + start * step, x1]);
  return cols;
}

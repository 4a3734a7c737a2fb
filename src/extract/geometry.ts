/**
 * Small geometry of words and boxes that every stage of the engine may read: the median of a
 * list, whether a word stands in a box, coordinates rounded as results give them. Plain
 * functions of numbers and boxes; this module imports nothing but the data model's types.
 */
import type { BBox, Edges } from './types.js';

/** Median of a non-empty list (0 for an empty one). */
export function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Whether the middle of `w` lies in the box `b` (its edges included). */
export function inside(w: Edges, b: BBox): boolean {
  const cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
  return cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3];
}

/** A coordinate to two decimals, as result boxes carry them. */
export function hundredths(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * Ruling clean-up shared by both paths: split into horizontal and vertical, merge collinear
 * pieces that overlap or nearly touch (grids drawn cell by cell arrive in pieces), drop specks.
 */
import type { Ruling } from '../../types.js';

/** Pieces this close across (page units) are on one line: pen widths and rounding stay under 1 pt. */
const SAME_LINE = 1.5;
/** Pieces closer than this along the line are one line (grids leave ~1 pt gaps at crossings). */
const JOIN = 3;
/** Shorter merged lines are underlines of one glyph, bullets or dashes, not rules. */
const MIN_LENGTH = 6;

export interface Rulings {
  /** Horizontal lines: y0 === y1, sorted by y then x. */
  h: Ruling[];
  /** Vertical lines: x0 === x1, sorted by x then y. */
  v: Ruling[];
}

function mergeAxis(items: { pos: number; a: number; b: number }[]): { pos: number; a: number; b: number }[] {
  items.sort((p, q) => p.pos - q.pos || p.a - q.a);
  // Group by position first, then merge along the line within each group.
  const groups: { pos: number; a: number; b: number }[][] = [];
  for (const it of items) {
    const g = groups[groups.length - 1];
    if (g && Math.abs(it.pos - g[g.length - 1].pos) <= SAME_LINE) g.push(it);
    else groups.push([it]);
  }
  const out: { pos: number; a: number; b: number }[] = [];
  for (const g of groups) {
    g.sort((p, q) => p.a - q.a);
    const pos = g.reduce((s, it) => s + it.pos * (it.b - it.a + 0.01), 0) / g.reduce((s, it) => s + (it.b - it.a + 0.01), 0);
    let cur = { pos, a: g[0].a, b: g[0].b };
    for (const it of g.slice(1)) {
      if (it.a <= cur.b + JOIN) cur.b = Math.max(cur.b, it.b);
      else {
        out.push(cur);
        cur = { pos, a: it.a, b: it.b };
      }
    }
    out.push(cur);
  }
  return out.filter((s) => s.b - s.a >= MIN_LENGTH);
}

/** Merged horizontal and vertical rulings. */
export function mergeRulings(rulings: Ruling[]): Rulings {
  const h: { pos: number; a: number; b: number }[] = [];
  const v: { pos: number; a: number; b: number }[] = [];
  for (const r of rulings) {
    const dx = Math.abs(r.x1 - r.x0), dy = Math.abs(r.y1 - r.y0);
    if (dx >= dy) h.push({ pos: (r.y0 + r.y1) / 2, a: Math.min(r.x0, r.x1), b: Math.max(r.x0, r.x1) });
    else v.push({ pos: (r.x0 + r.x1) / 2, a: Math.min(r.y0, r.y1), b: Math.max(r.y0, r.y1) });
  }
  return {
    h: mergeAxis(h).map((s) => ({ x0: s.a, y0: s.pos, x1: s.b, y1: s.pos })).sort((p, q) => p.y0 - q.y0 || p.x0 - q.x0),
    v: mergeAxis(v).map((s) => ({ x0: s.pos, y0: s.a, x1: s.pos, y1: s.b })).sort((p, q) => p.x0 - q.x0 || p.y0 - q.y0),
  };
}

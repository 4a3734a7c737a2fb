/**
 * Figures in a page image: what is left of the ink once rules are erased and text is read, in
 * components far larger than a glyph yet sparse — the curves and markers of a line chart, the
 * strokes of a drawing. Their axis numbers and legends line up like a whitespace table; the
 * layout drops a table lying mostly inside a figure.
 */
import type { Seg } from './rulings.js';
import type { Component } from './text-size.js';

/** A figure spans at least this many glyph heights across and down. */
const MIN_WIDTH_GLYPHS = 6;
const MIN_HEIGHT_GLYPHS = 3;
/** And covers little of its box: a glyph, a bar or a fill is denser. */
const MAX_DENSITY = 0.12;
/**
 * A bar chart's bars, joined by the axis they stand on, cover more of their box (hatched or
 * outlined bars 0.13-0.27), and so do the edges of a shaded header band; the band holds its
 * header's words (0.065 of its box), the bars little but a few value labels.
 */
const MAX_BARS_DENSITY = 0.3;
const MAX_BARS_WORDS = 0.05;

interface Box { x0: number; y0: number; x1: number; y1: number }

/** The share of a component's box that the words read over it cover. */
function wordShare(c: Component, words: Box[]): number {
  let covered = 0;
  for (const w of words) {
    const dx = Math.min(c.x1 + 1, w.x1) - Math.max(c.x0, w.x0);
    const dy = Math.min(c.y1 + 1, w.y1) - Math.max(c.y0, w.y0);
    if (dx > 0 && dy > 0) covered += dx * dy;
  }
  return covered / ((c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1));
}

/** The boxes of the figure-like components, in the components' pixels (the words' too). */
export function figureBoxes(parts: Component[], glyph: number, words: Box[] = []): Component[] {
  return parts.filter((c) => {
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    if (w < MIN_WIDTH_GLYPHS * glyph || h < MIN_HEIGHT_GLYPHS * glyph) return false;
    if (c.pixels <= MAX_DENSITY * w * h) return true;
    return c.pixels <= MAX_BARS_DENSITY * w * h && wordShare(c, words) < MAX_BARS_WORDS;
  });
}

/**
 * Components cut apart by an erased ruling, joined again: a chart's curves cross its grid lines,
 * and erasing the grid cut them into strips no taller than a grid step, none of them
 * figure-sized. Pieces that end on a band's one edge and start on its other edge, near enough
 * across (a shallow curve crosses a band at a slant), are one component; text clears a table's
 * rules by more than the pixel of margin the eraser takes.
 */
export function joinAcrossRulings(parts: Component[], found: { thick: Seg[]; vertical: Seg[] }): Component[] {
  const parent = parts.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const bands: { seg: Seg; across: (c: Component) => [number, number]; along: (c: Component) => [number, number] }[] = [
    ...found.thick.map((seg) => ({ seg, across: (c: Component): [number, number] => [c.y0, c.y1], along: (c: Component): [number, number] => [c.x0, c.x1] })),
    ...found.vertical.map((seg) => ({ seg, across: (c: Component): [number, number] => [c.x0, c.x1], along: (c: Component): [number, number] => [c.y0, c.y1] })),
  ];
  for (const { seg, across, along } of bands) {
    // eraseRulings clears the band and one pixel each side; the ink it left starts one beyond.
    const before = seg.b0 - 2, after = seg.b1 + 2;
    const reach = 2 * (after - before);
    const inBand = (c: Component) => {
      const [a0, a1] = along(c);
      return a1 >= seg.a0 - reach && a0 <= seg.a1 + reach;
    };
    const ending: number[] = [];
    const starting: number[] = [];
    parts.forEach((c, i) => {
      const [b0, b1] = across(c);
      if (b1 >= before - 1 && b1 <= before && inBand(c)) ending.push(i);
      if (b0 >= after && b0 <= after + 1 && inBand(c)) starting.push(i);
    });
    for (const i of ending) {
      const [p0, p1] = along(parts[i]);
      for (const j of starting) {
        const [q0, q1] = along(parts[j]);
        if (q0 <= p1 + reach && p0 <= q1 + reach) parent[find(i)] = find(j);
      }
    }
  }
  const joined = new Map<number, Component>();
  parts.forEach((c, i) => {
    const r = find(i);
    const j = joined.get(r);
    if (!j) joined.set(r, { ...c });
    else {
      j.x0 = Math.min(j.x0, c.x0);
      j.y0 = Math.min(j.y0, c.y0);
      j.x1 = Math.max(j.x1, c.x1);
      j.y1 = Math.max(j.y1, c.y1);
      j.pixels += c.pixels;
    }
  });
  return [...joined.values()];
}

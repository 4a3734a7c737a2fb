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

/** The boxes of the figure-like components, in the components' pixels. */
export function figureBoxes(parts: Component[], glyph: number): Component[] {
  return parts.filter((c) => {
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    return w >= MIN_WIDTH_GLYPHS * glyph && h >= MIN_HEIGHT_GLYPHS * glyph && c.pixels <= MAX_DENSITY * w * h;
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

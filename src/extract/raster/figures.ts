/**
 * Figures in a page image: what is left of the ink once rules are erased and text is read, in
 * components far larger than a glyph yet sparse — the curves and markers of a line chart, the
 * strokes of a drawing. Their axis numbers and legends line up like a whitespace table; the
 * layout drops a table lying mostly inside a figure.
 */
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

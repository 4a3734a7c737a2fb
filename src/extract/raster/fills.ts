/**
 * Dark fills: header rows and cells printed white (or light) on a dark or saturated background —
 * a navy header row, an orange column head. Adaptive binarisation turns such a fill into a slab
 * of ink and loses the text in it. Here each fill is found on the grey page and binarised the
 * other way round: its light text becomes ink, the fill itself paper. A solid dark region that
 * reaches the image's edge is the surround of a photographed sheet (the desk beyond the paper,
 * a scanner's black margin): its noise would read as stray letters, so its ink is cleared.
 */
import { otsuThreshold, type BinaryImage, type GrayImage } from './gray.js';
import { components, type Component } from './text-size.js';

/** A fill is at least this many glyph heights wide and this many high: a cell, not a glyph or a rule. */
const MIN_WIDTH_GLYPHS = 2.5;
const MIN_HEIGHT_GLYPHS = 1.1;
/** Share of its box that is dark: a fill is solid (text, even bold, stays below 0.5). */
const MIN_FILL_DENSITY = 0.55;
/** Light text in a fill is this far from the fill's level towards white. */
const LIGHT_TEXT_STEP = 0.4;
/** Text in a fill covers at least this share of it; less is a plain bar or a photo's shadow. */
const MIN_TEXT_SHARE = 0.01;

/** A solid pixel is inside a dark run of at least this many glyph heights, across and down. */
const SOLID_GLYPHS = 0.5;

/**
 * Dark pixels (at or below Otsu's level) that lie inside a dark run at least `k` long both across
 * and down: the body of a fill. Rules and text strokes are thinner than `k` one way or the other,
 * so a header fill stays apart from the grid rules that touch it.
 */
function solidMask(gray: GrayImage, t: number, k: number): BinaryImage {
  const { width: w, height: h, data } = gray;
  const out = new Uint8Array(w * h);
  // The runs marked across: start and end index of each.
  const runs: number[] = [];
  let marked = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; ) {
      if (data[row + x] > t) {
        x++;
        continue;
      }
      const s = x;
      while (x < w && data[row + x] <= t) x++;
      if (x - s >= k) {
        out.fill(1, row + s, row + x);
        runs.push(row + s, row + x);
        marked += x - s;
      }
    }
  }
  // A page without a dark run k long across (most text pages) has nothing to check down.
  if (marked === 0) return { data: out, width: w, height: h };
  // Few marks (the rules of a table page, a few pixels thick): each marked pixel's dark run down
  // its column is measured where it is, at most k rows each way, instead of a pass over the page.
  if (2 * k * marked < w * h) {
    for (let r = 0; r < runs.length; r += 2) {
      for (let i = runs[r]; i < runs[r + 1]; i++) {
        let n = 1;
        for (let j = i - w; n < k && j >= 0 && data[j] <= t; j -= w) n++;
        for (let j = i + w; n < k && j < data.length && data[j] <= t; j += w) n++;
        if (n < k) out[i] = 0;
      }
    }
    return { data: out, width: w, height: h };
  }
  // Down each column in one pass: where a dark run ends shorter than k, its marks are cleared.
  // Only the row each column's current run started on is kept (no run lengths per pixel).
  const start = new Int32Array(w).fill(-1);
  const clear = (x: number, from: number, to: number) => {
    for (let y = from; y < to; y++) out[y * w + x] = 0;
  };
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (data[row + x] <= t) {
        if (start[x] < 0) start[x] = y;
      } else if (start[x] >= 0) {
        if (y - start[x] < k) clear(x, start[x], y);
        start[x] = -1;
      }
    }
  }
  for (let x = 0; x < w; x++) if (start[x] >= 0 && h - start[x] < k) clear(x, start[x], h);
  return { data: out, width: w, height: h };
}

/** A solid region reaching the image's edge is the surround when it extends this many glyph heights. */
const SURROUND_GLYPHS = 4;

export interface DarkRegions {
  /** Solid dark components at least a cell in size (header rows, filled cells). */
  fills: Component[];
  /**
   * Solid dark components touching the image's edge, larger than a few glyphs, that are not
   * fills (a frame round the sheet); a fill at the edge with no light text joins them.
   */
  surrounds: Component[];
  solid: BinaryImage;
  /** The page's Otsu level, the darkness test of the solid mask. */
  level: number;
}

/** The dark fills and surrounds of a grey page, with the solid mask they were found in. */
export function darkFills(gray: GrayImage, glyph: number, t = otsuThreshold(gray)): DarkRegions {
  const solid = solidMask(gray, t, Math.max(3, Math.round(SOLID_GLYPHS * glyph)));
  const fills: Component[] = [];
  const surrounds: Component[] = [];
  for (const c of components(solid)) {
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    const edge = c.x0 === 0 || c.y0 === 0 || c.x1 === gray.width - 1 || c.y1 === gray.height - 1;
    if (w >= MIN_WIDTH_GLYPHS * glyph && h >= MIN_HEIGHT_GLYPHS * glyph && c.pixels >= MIN_FILL_DENSITY * w * h) fills.push(c);
    else if (edge && Math.max(w, h) >= SURROUND_GLYPHS * glyph) surrounds.push(c);
  }
  return { fills, surrounds, solid, level: t };
}

/** Clears the ink on each surround's own pixels (not on the sheet it frames); returns how many. */
export function clearSurrounds(ink: BinaryImage, found: DarkRegions): number {
  for (const f of found.surrounds) {
    const fw = f.x1 - f.x0 + 1;
    const region = floodSolid(found.solid, f);
    for (let y = f.y0; y <= f.y1; y++) {
      const row = y * ink.width;
      const at = (y - f.y0) * fw - f.x0;
      for (let x = f.x0; x <= f.x1; x++) if (region[at + x]) ink.data[row + x] = 0;
    }
  }
  return found.surrounds.length;
}

/**
 * Rewrites the ink of each dark fill: inside the fill (its solid component and the holes it
 * encloses, which are its text), a pixel is ink when it is light text — brighter than the fill's
 * median level by `LIGHT_TEXT_STEP` of the way to white — and paper otherwise. Light areas that
 * reach the edge of the fill's box (a white cell beside an L-shaped header) are outside it.
 * Returns how many fills it rewrote.
 */
export function invertFills(ink: BinaryImage, gray: GrayImage, found: DarkRegions): number {
  const { width: w, data } = gray;
  const { fills, solid, level: t } = found;
  let done = 0;
  for (const f of fills) {
    const inside = fillRegion(solid, f);
    const fw = f.x1 - f.x0 + 1;
    const level = fillLevel(gray, f, t);
    const light = level + LIGHT_TEXT_STEP * (255 - level);
    let text = 0;
    let area = 0;
    for (let y = f.y0; y <= f.y1; y++) {
      const row = y * w;
      const at = (y - f.y0) * fw - f.x0;
      for (let x = f.x0; x <= f.x1; x++) {
        if (!inside[at + x]) continue;
        area++;
        if (data[row + x] >= light) text++;
      }
    }
    if (text < MIN_TEXT_SHARE * area) {
      // A textless fill at the image's edge is part of the surround.
      if (f.x0 === 0 || f.y0 === 0 || f.x1 === w - 1 || f.y1 === gray.height - 1) found.surrounds.push(f);
      continue;
    }
    for (let y = f.y0; y <= f.y1; y++) {
      const row = y * w;
      const at = (y - f.y0) * fw - f.x0;
      for (let x = f.x0; x <= f.x1; x++) if (inside[at + x]) ink.data[row + x] = data[row + x] >= light ? 1 : 0;
    }
    done++;
  }
  return done;
}

/** 1 for each pixel of a solid component's box that belongs to it, flooded from its top row. */
function floodSolid(solid: BinaryImage, f: Component): Uint8Array {
  const fw = f.x1 - f.x0 + 1;
  const fh = f.y1 - f.y0 + 1;
  const inside = new Uint8Array(fw * fh);
  const at = (x: number, y: number) => solid.data[(y + f.y0) * solid.width + x + f.x0];
  const stack: number[] = [];
  for (let x = 0; x < fw; x++) if (at(x, 0)) stack.push(x);
  while (stack.length) {
    const i = stack.pop()!;
    if (inside[i]) continue;
    inside[i] = 1;
    const x = i % fw;
    const y = (i - x) / fw;
    if (x > 0 && !inside[i - 1] && at(x - 1, y)) stack.push(i - 1);
    if (x < fw - 1 && !inside[i + 1] && at(x + 1, y)) stack.push(i + 1);
    if (y > 0 && !inside[i - fw] && at(x, y - 1)) stack.push(i - fw);
    if (y < fh - 1 && !inside[i + fw] && at(x, y + 1)) stack.push(i + fw);
  }
  return inside;
}

/**
 * 1 for each pixel of the fill's box that is in its solid component (solid specks of other
 * components in its box, the junction of a bold "N" in a white cell beside it, are not) or in a
 * hole that it encloses.
 */
function fillRegion(solid: BinaryImage, f: Component): Uint8Array {
  const fw = f.x1 - f.x0 + 1;
  const fh = f.y1 - f.y0 + 1;
  const inside = floodSolid(solid, f);
  const open = new Uint8Array(fw * fh);
  for (let i = 0; i < open.length; i++) open[i] = inside[i] ? 0 : 1;
  for (const hole of components({ data: open, width: fw, height: fh })) {
    if (hole.x0 === 0 || hole.y0 === 0 || hole.x1 === fw - 1 || hole.y1 === fh - 1) continue;
    for (let y = hole.y0; y <= hole.y1; y++) for (let x = hole.x0; x <= hole.x1; x++) if (open[y * fw + x]) inside[y * fw + x] = 1;
  }
  return inside;
}

/** Median grey of the dark pixels of a fill. */
function fillLevel(gray: GrayImage, f: Component, t: number): number {
  const hist = new Int32Array(256);
  let n = 0;
  for (let y = f.y0; y <= f.y1; y++) {
    const row = y * gray.width;
    for (let x = f.x0; x <= f.x1; x++) {
      const v = gray.data[row + x];
      if (v <= t) {
        hist[v]++;
        n++;
      }
    }
  }
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v];
    if (seen * 2 >= n) return v;
  }
  return t;
}

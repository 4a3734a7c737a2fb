/**
 * How big the text on a page is, in pixels: the median height of glyph-sized connected
 * components of ink. The raster path scales each page so that this lands where Tesseract reads
 * best, instead of trusting a stated resolution that phones and screenshots get wrong.
 */
import type { BinaryImage } from './gray.js';

/**
 * Target median glyph height in working pixels: 10 pt text at 300 dpi (x-height ≈ 21 px, capitals
 * ≈ 29 px) gives ≈ 24; Tesseract's LSTM models are trained on text of that size.
 */
export const TARGET_GLYPH_HEIGHT = 24;

/**
 * Glyphs from this height up to `MAX_READABLE_GLYPH` are read as they are. Tesseract normalises
 * every text line to its network's input height, so enlarging 16 px glyphs (200 dpi scans) to
 * 24 px bought no words on the ICDAR pages and cost 2.25× the pixels in every later step.
 */
export const MIN_READABLE_GLYPH = 12;
export const MAX_READABLE_GLYPH = 40;

/** A connected component's box, inclusive pixel bounds. */
export interface Blob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Median height of glyph-like components (4..200 px high, not much wider than 3× their height), or null. */
export function medianGlyphHeight(img: BinaryImage): number | null {
  return medianHeight(glyphBlobs(img));
}

/** Median height of already labelled glyph blobs, or null when there are too few to tell. */
export function medianHeight(blobs: Blob[]): number | null {
  const heights = blobs.map((b) => b.y1 - b.y0 + 1);
  // Fewer than 30 glyphs is a photo or a blank page: nothing to measure.
  if (heights.length < 30) return null;
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)];
}

/** Glyph-sized connected components of ink (4-connected). */
export function glyphBlobs(img: BinaryImage): Blob[] {
  const { width: w, height: h, data } = img;
  const labels = new Int32Array(w * h);
  const parent: number[] = [0];
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  };
  // First pass of two-pass labelling (4-connectivity), union-find on label equivalences.
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!data[i]) continue;
      const up = y > 0 ? labels[i - w] : 0;
      const left = x > 0 ? labels[i - 1] : 0;
      if (up && left) {
        const a = find(up);
        const b = find(left);
        labels[i] = Math.min(a, b);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      } else if (up || left) labels[i] = up || left;
      else {
        labels[i] = parent.length;
        parent.push(parent.length);
      }
    }
  }
  const n = parent.length;
  const minY = new Int32Array(n).fill(h);
  const maxY = new Int32Array(n).fill(-1);
  const minX = new Int32Array(n).fill(w);
  const maxX = new Int32Array(n).fill(-1);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const l = labels[y * w + x];
      if (!l) continue;
      const r = find(l);
      if (y < minY[r]) minY[r] = y;
      if (y > maxY[r]) maxY[r] = y;
      if (x < minX[r]) minX[r] = x;
      if (x > maxX[r]) maxX[r] = x;
    }
  }
  const blobs: Blob[] = [];
  for (let r = 1; r < n; r++) {
    if (maxY[r] < 0 || find(r) !== r) continue;
    const ch = maxY[r] - minY[r] + 1;
    const cw = maxX[r] - minX[r] + 1;
    if (ch >= 4 && ch <= 200 && cw <= 3 * ch) blobs.push({ x0: minX[r], y0: minY[r], x1: maxX[r], y1: maxY[r] });
  }
  return blobs;
}

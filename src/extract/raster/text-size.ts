/**
 * How big the text on a page is, in pixels: the median height of glyph-sized connected
 * components of ink. The raster path scales each page so that this lands where Tesseract reads
 * best, instead of trusting a stated resolution that phones and screenshots get wrong.
 */
import { nextInk, wordsOf, type BinaryImage } from './gray.js';

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

/** Growable Int32 columns, one entry per provisional label. */
class Labels {
  parent = new Int32Array(1024);
  x0 = new Int32Array(1024);
  x1 = new Int32Array(1024);
  y0 = new Int32Array(1024);
  y1 = new Int32Array(1024);
  count = new Int32Array(1024);
  n = 1;

  add(s: number, e: number, y: number): number {
    if (this.n === this.parent.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.parent = grow(this.parent);
      this.x0 = grow(this.x0);
      this.x1 = grow(this.x1);
      this.y0 = grow(this.y0);
      this.y1 = grow(this.y1);
      this.count = grow(this.count);
    }
    const l = this.n++;
    this.parent[l] = l;
    this.x0[l] = s;
    this.x1[l] = e;
    this.y0[l] = y;
    this.y1[l] = y;
    this.count[l] = 0;
    return l;
  }

  find(a: number): number {
    const p = this.parent;
    while (p[a] !== a) {
      p[a] = p[p[a]];
      a = p[a];
    }
    return a;
  }
}

/** A connected component: its box and how many of its pixels are ink. */
export interface Component extends Blob {
  pixels: number;
}

/** Glyph-sized connected components of ink (4..200 px high, at most 3× as wide as high). */
export function glyphBlobs(img: BinaryImage): Blob[] {
  return components(img).filter(isGlyph);
}

/** Whether a component has the size and shape of a glyph. */
export function isGlyph(c: Blob): boolean {
  const ch = c.y1 - c.y0 + 1;
  return ch >= 4 && ch <= 200 && c.x1 - c.x0 + 1 <= 3 * ch;
}

/**
 * Connected components of ink (4-connected), in the raster order of their first pixel. Labels
 * runs of ink, not pixels: a run joins every run of the row above that it overlaps, and
 * equivalences go to the smallest label (union-find).
 */
export function components(img: BinaryImage): Component[] {
  const { width: w, height: h, data } = img;
  const words = wordsOf(data);
  const L = new Labels();
  // Runs of the previous and the current row: start, end (inclusive), label.
  let ps = new Int32Array(w), pe = new Int32Array(w), pl = new Int32Array(w);
  let cs = new Int32Array(w), ce = new Int32Array(w), cl = new Int32Array(w);
  let pn = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let cn = 0;
    let j = 0;
    let x = 0;
    while (x < w) {
      if (!data[row + x]) {
        x = nextInk(data, words, row + x + 1, row + w) - row;
        continue;
      }
      const s = x;
      while (x < w && data[row + x]) x++;
      const e = x - 1;
      while (j < pn && pe[j] < s) j++;
      let label = 0;
      for (let k = j; k < pn && ps[k] <= e; k++) {
        const r = L.find(pl[k]);
        if (label === 0) label = r;
        else if (r !== label) {
          const lo = r < label ? r : label;
          L.parent[r < label ? label : r] = lo;
          label = lo;
        }
      }
      if (label === 0) label = L.add(s, e, y);
      else {
        if (s < L.x0[label]) L.x0[label] = s;
        if (e > L.x1[label]) L.x1[label] = e;
        L.y1[label] = y;
      }
      L.count[label] += e - s + 1;
      cs[cn] = s;
      ce[cn] = e;
      cl[cn] = label;
      cn++;
    }
    [ps, cs] = [cs, ps];
    [pe, ce] = [ce, pe];
    [pl, cl] = [cl, pl];
    pn = cn;
  }
  // Fold every label's box into its root's (a root is the smallest label of its component).
  for (let l = 1; l < L.n; l++) {
    const r = L.find(l);
    if (r === l) continue;
    if (L.x0[l] < L.x0[r]) L.x0[r] = L.x0[l];
    if (L.x1[l] > L.x1[r]) L.x1[r] = L.x1[l];
    if (L.y0[l] < L.y0[r]) L.y0[r] = L.y0[l];
    if (L.y1[l] > L.y1[r]) L.y1[r] = L.y1[l];
    L.count[r] += L.count[l];
  }
  const out: Component[] = [];
  for (let r = 1; r < L.n; r++) {
    if (L.parent[r] === r) out.push({ x0: L.x0[r], y0: L.y0[r], x1: L.x1[r], y1: L.y1[r], pixels: L.count[r] });
  }
  return out;
}

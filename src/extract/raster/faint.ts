/**
 * Rulings printed lighter than ink: hairline rules in light grey between an invoice's item rows
 * and columns. The ink threshold leaves them as paper, so the ruling finder never sees them,
 * while the PDF they were printed from draws them as lines. They are found on the grey page as
 * long thin runs of pixels a step darker than the paper and lighter than ink, with paper on both
 * sides.
 */
import type { Ruling } from '../types.js';
import { grayHistogram, type GrayImage } from './gray.js';
import { findRulings } from './rulings.js';

/** A pixel this many levels darker than the paper is printed, not paper (a #E6E8EB rule is 20). */
const FAINT_STEP = 10;
/** Light print is lighter than halfway from ink (Otsu's level) to paper: greyer lines are the ink rulings' to find. */
const LIGHT_SHARE = 0.5;
/** A light line's sides are looked at this many pixels beyond its middle… */
const SIDE_OFFSET = 3;
/** …and are paper along this share of its length or more, each side… */
const ON_PAPER = 0.5;
/** …while ink lies that close to it along at most this share (crossing rules, a glyph touching it). */
const INKED_SHARE = 0.2;

/** The paper's level: the commonest level lighter than ink. */
function paperLevel(hist: Int32Array, level: number): number {
  let paper = 255;
  for (let v = level + 1; v < 256; v++) if (hist[v] > hist[paper]) paper = v;
  return paper;
}

/**
 * Whether a thin light line is drawn on paper: paper along most of it on both sides, and no ink
 * beside it. Beside ink it is the grey edge of a rule or a glyph (an enlarged page's rule has one
 * each side); on a grey cell it is a bevel's highlight, lighter than what surrounds it; inside a
 * tinted band it is a row of the tint.
 */
function onPaper(r: Ruling, img: GrayImage, paperAbove: number, inkBelow: number): boolean {
  const { width: w, height: h, data } = img;
  const horizontal = r.y0 === r.y1;
  const [pos, a0, a1] = horizontal ? [r.y0, r.x0, r.x1] : [r.x0, r.y0, r.y1];
  const from = Math.max(0, Math.floor(a0));
  const end = Math.min(horizontal ? w : h, Math.ceil(a1));
  const at = (p: number, a: number) => (p < 0 || p >= (horizontal ? h : w) ? 255 : horizontal ? data[p * w + a] : data[a * w + p]);
  const mid = Math.floor(pos);
  let left = 0;
  let right = 0;
  let inked = 0;
  for (let a = from; a < end; a++) {
    if (at(mid - SIDE_OFFSET, a) > paperAbove) left++;
    if (at(mid + SIDE_OFFSET, a) > paperAbove) right++;
    for (let d = -SIDE_OFFSET; d <= SIDE_OFFSET; d++) {
      if (at(mid + d, a) > inkBelow) continue;
      inked++;
      break;
    }
  }
  const n = Math.max(1, end - from);
  return Math.min(left, right) >= ON_PAPER * n && inked <= INKED_SHARE * n;
}

/**
 * Light rulings of a grey page, in its working pixels: thin runs a step darker than the paper
 * and lighter than ink (`level`, Otsu's), on paper both sides.
 */
export function faintRulings(img: GrayImage, level: number, glyph: number): Ruling[] {
  const { width: w, height: h, data } = img;
  const paper = paperLevel(grayHistogram(img), level);
  const top = paper - FAINT_STEP;
  const bottom = level + LIGHT_SHARE * (paper - level);
  if (top <= bottom) return [];
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) mask[i] = data[i] <= top && data[i] > bottom ? 1 : 0;
  return findRulings({ data: mask, width: w, height: h }, glyph).rulings.filter((r) => onPaper(r, img, top, bottom));
}

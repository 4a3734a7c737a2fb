/**
 * Words with boxes from a pdf.js text layer. pdf.js gives glyph runs (a string, a text matrix and
 * an advance width); we place each run in page units through the viewport (which applies /Rotate
 * and the crop box), split runs on spaces, and join runs that touch, because some producers emit
 * one run per glyph and others one run per line with spaces inside.
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { Rotation, Word } from '../types.js';
import { relativeWidth } from './glyph-widths.js';

type Matrix = [number, number, number, number, number, number];

/** Two runs closer than this (× font size) are one word: kerning is under 0.1 em, a space ~0.25 em. */
const JOIN_GAP_EM = 0.12;
/** Glyph box above / below the baseline (× font size); typical Latin font metrics. */
const ASCENT = 0.8;
const DESCENT = 0.2;

/**
 * Fake bold draws each glyph (or each run) twice a fraction of a point apart, and pdf.js merges
 * the copies with their neighbours into runs that overlap ("A", "Am", "mo", …). A run starting
 * more than this (× font size) before the previous run on its baseline ends overlaps it.
 */
const OVERLAP_EM = 0.1;

/**
 * `item` without the characters that repeat the tail of `prev` where the two runs overlap on one
 * baseline (a glyph drawn twice); null when nothing is left. Runs that overlap with different
 * text (a strike-through, an accent) stay as they are.
 */
function withoutOverstrike(prev: TextItem | null, item: TextItem): TextItem | null {
  if (!prev || !prev.str || !item.str) return item;
  const [a, b, c, d, e, f] = item.transform as Matrix;
  const [pa, pb, , , pe, pf] = prev.transform as Matrix;
  const adv = Math.hypot(a, b), size = Math.hypot(c, d);
  if (!(adv > 0) || !(size > 0) || Math.abs(pa * b - pb * a) > 1e-3 * adv * Math.hypot(pa, pb)) return item;
  const ux = a / adv, uy = b / adv;
  // Along the writing direction: where prev ends, relative to where item starts; and the offset across.
  const endX = pe + ux * prev.width, endY = pf + uy * prev.width;
  const overlap = (endX - e) * ux + (endY - f) * uy;
  const across = (pe - e) * -uy + (pf - f) * ux;
  if (Math.abs(across) > OVERLAP_EM * size || overlap <= OVERLAP_EM * size || overlap > prev.width + OVERLAP_EM * size) return item;
  const chars = [...item.str], before = [...prev.str];
  const glyphW = item.width / chars.length;
  const guess = Math.round(overlap / glyphW);
  for (let k = Math.min(chars.length, before.length, guess + 1); k >= Math.max(1, guess - 1); k--) {
    if (before.slice(before.length - k).join('') !== chars.slice(0, k).join('')) continue;
    if (k === chars.length) return null;
    // The copies end where prev ends: the rest of the run starts there. A narrow glyph's copy
    // lands inside the same run as the glyph ("ll" for one "l"): in a run drawn twice, each
    // repeat of a character is halved.
    const cut = Math.min(overlap, item.width * (1 - 0.5 / chars.length));
    const rest = chars.slice(k).join('').replace(/(.)\1+/gu, (m) => m.slice(0, Math.ceil(m.length / 2)));
    return { ...item, str: rest, width: item.width - cut, transform: [a, b, c, d, e + ux * cut, f + uy * cut] };
  }
  return item;
}

/** Position along the writing direction of text turned by `rotation` (grows as the text advances). */
function along([x, y]: [number, number], rotation: Rotation): number {
  return rotation === 0 ? x : rotation === 90 ? y : rotation === 180 ? -x : -y;
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

interface Piece {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
  /** Baseline position across the writing direction, and where the piece starts and ends along it (page units). */
  base: number;
  start: number;
  end: number;
  vertical: boolean;
  rotation: Rotation;
}

/** Boxes of the whitespace-separated tokens of one run; glyph positions are interpolated (spaces at their usual width). */
function piecesOf(item: TextItem, vp: Matrix): Piece[] {
  const [a, b, c, d, e, f] = item.transform as Matrix;
  const adv = Math.hypot(a, b);
  const size = Math.hypot(c, d);
  if (!(adv > 0) || !(size > 0) || !item.str) return [];
  const ux = a / adv, uy = b / adv, vx = c / size, vy = d / size;
  const chars = [...item.str];
  const width = item.width;
  // Glyph widths are unknown here: the run's advance is spread in typical proportions.
  const rel = chars.map(relativeWidth);
  const scale = width / rel.reduce((x, y) => x + y, 0);
  const at: number[] = [0];
  for (const r of rel) at.push(at[at.length - 1] + r * scale);
  const out: Piece[] = [];
  let i = 0;
  while (i < chars.length) {
    while (i < chars.length && /\s/.test(chars[i])) i++;
    if (i >= chars.length) break;
    let j = i;
    while (j < chars.length && !/\s/.test(chars[j])) j++;
    const t0 = at[i], t1 = at[j];
    const corners = [
      [t0, -DESCENT * size], [t1, -DESCENT * size], [t0, ASCENT * size], [t1, ASCENT * size],
    ].map(([t, s]) => apply(vp, e + ux * t + vx * s, f + uy * t + vy * s));
    const xs = corners.map((p) => p[0]), ys = corners.map((p) => p[1]);
    const [bx, by] = apply(vp, e, f);
    const [dx, dy] = apply(vp, e + ux, f + uy);
    const vertical = Math.abs(dy - by) > Math.abs(dx - bx);
    const rotation: Rotation = vertical ? (dy > by ? 90 : 270) : dx > bx ? 0 : 180;
    const p0 = apply(vp, e + ux * t0, f + uy * t0), p1 = apply(vp, e + ux * t1, f + uy * t1);
    out.push({
      text: chars.slice(i, j).join(''),
      x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys),
      size,
      base: vertical ? bx : by,
      start: along(p0, rotation),
      end: along(p1, rotation),
      vertical,
      rotation,
    });
    i = j;
  }
  return out;
}

function joinable(w: Piece, p: Piece): boolean {
  if (w.rotation !== p.rotation) return false;
  const size = Math.max(w.size, p.size);
  if (Math.abs(w.base - p.base) > 0.3 * size) return false;
  const gap = p.start - w.end;
  return gap > -0.3 * size && gap < JOIN_GAP_EM * size;
}

/** The words of `page` in page units (PDF points, origin top-left, rotation applied). */
export async function pageWords(page: PDFPageProxy): Promise<Word[]> {
  const viewport = page.getViewport({ scale: 1 });
  const vp = viewport.transform as Matrix;
  const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
  const words: Piece[] = [];
  let open: Piece | null = null; // the word a touching run may extend
  let prev: TextItem | null = null; // the last run as drawn
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    const drawn = raw as TextItem;
    const item = withoutOverstrike(prev, drawn);
    prev = drawn;
    if (!item) continue;
    const pieces = piecesOf(item, vp);
    if (pieces.length === 0) {
      if (/\s/.test(item.str) || item.hasEOL) open = null;
      continue;
    }
    const leadingSpace = /^\s/.test(item.str);
    pieces.forEach((p, k) => {
      if (k === 0 && !leadingSpace && open && joinable(open, p)) {
        open.text += p.text;
        open.x0 = Math.min(open.x0, p.x0); open.y0 = Math.min(open.y0, p.y0);
        open.x1 = Math.max(open.x1, p.x1); open.y1 = Math.max(open.y1, p.y1);
        open.end = Math.max(open.end, p.end);
      } else {
        words.push(p);
        open = p;
      }
    });
    if (/\s$/.test(item.str) || item.hasEOL) open = null;
  }
  return words.map((w) => ({
    text: w.text, x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1, size: w.size, confidence: null,
    ...(w.rotation ? { rotation: w.rotation } : {}),
  }));
}

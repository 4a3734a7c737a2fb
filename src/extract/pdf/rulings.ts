/**
 * Ruling lines from a page's operator list: axis-aligned stroked segments, thin rectangles (filled
 * or stroked) as one line, wider filled rectangles as their four edges (cell backgrounds often
 * draw the grid). Coordinates go through the current transform and the viewport, so they are in
 * page units like the words. Merging and filtering is layout's job (`mergeRulings`).
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadedPdfjs } from './load.js';
import type { Ruling } from '../types.js';

type Matrix = [number, number, number, number, number, number];

/** pdf.js 5 DrawOPS codes inside a constructPath Float32Array. */
const MOVE = 0, LINE = 1, CURVE = 2, QUAD = 3, CLOSE = 4;
/** A rectangle thinner than this (page units) is a line, not a box; rules are ≤ 1.5 pt, boxes ≥ 4 pt. */
const THIN = 2.5;
/** Segments this far off axis (page units) still count as horizontal / vertical. */
const AXIS_TOL = 0.75;

function mul(m: Matrix, n: Matrix): Matrix {
  // m then n: the point is transformed by m first (pdf.js `transform` pre-multiplies the CTM).
  return [
    n[0] * m[0] + n[2] * m[1], n[1] * m[0] + n[3] * m[1],
    n[0] * m[2] + n[2] * m[3], n[1] * m[2] + n[3] * m[3],
    n[0] * m[4] + n[2] * m[5] + n[4], n[1] * m[4] + n[3] * m[5] + n[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** Subpaths of a pdf.js path buffer as point lists (curves are not rulings: they end the polyline). */
function subpaths(data: ArrayLike<number>, m: Matrix): { pts: [number, number][]; closed: boolean; curved: boolean }[] {
  const out: { pts: [number, number][]; closed: boolean; curved: boolean }[] = [];
  let cur: { pts: [number, number][]; closed: boolean; curved: boolean } | null = null;
  for (let i = 0; i < data.length; ) {
    const op = data[i++];
    if (op === MOVE) {
      cur = { pts: [apply(m, data[i], data[i + 1])], closed: false, curved: false };
      out.push(cur);
      i += 2;
    } else if (op === LINE) {
      if (!cur) { cur = { pts: [], closed: false, curved: false }; out.push(cur); }
      cur.pts.push(apply(m, data[i], data[i + 1]));
      i += 2;
    } else if (op === CURVE) {
      if (cur) cur.curved = true;
      i += 6;
    } else if (op === QUAD) {
      if (cur) cur.curved = true;
      i += 4;
    } else if (op === CLOSE) {
      if (cur) cur.closed = true;
    } else {
      break; // unknown code: stop rather than misread coordinates
    }
  }
  return out;
}

function segment(a: [number, number], b: [number, number]): Ruling | null {
  if (Math.abs(a[1] - b[1]) <= AXIS_TOL) {
    const y = (a[1] + b[1]) / 2;
    return { x0: Math.min(a[0], b[0]), y0: y, x1: Math.max(a[0], b[0]), y1: y };
  }
  if (Math.abs(a[0] - b[0]) <= AXIS_TOL) {
    const x = (a[0] + b[0]) / 2;
    return { x0: x, y0: Math.min(a[1], b[1]), x1: x, y1: Math.max(a[1], b[1]) };
  }
  return null;
}

function boxOf(pts: [number, number][]): [number, number, number, number] {
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** True when the polyline is an axis-aligned rectangle (4 corners, optionally repeated first). */
function isRect(pts: [number, number][]): boolean {
  const p = pts.length === 5 && Math.abs(pts[0][0] - pts[4][0]) < 0.01 && Math.abs(pts[0][1] - pts[4][1]) < 0.01 ? pts.slice(0, 4) : pts;
  if (p.length !== 4) return false;
  for (let k = 0; k < 4; k++) if (!segment(p[k], p[(k + 1) % 4])) return false;
  return true;
}

/** A filled box this close (page units) inside another still lies on it. */
const ON_TOL = 0.5;
/** How many of the latest filled boxes are looked through for the one a new fill lies on. */
const FILLS_BEHIND = 256;

interface Fill {
  box: [number, number, number, number];
  colour: string;
}

/**
 * Whether a fill of `colour` over `box` lies wholly on the latest-painted fill of the same colour:
 * then its edges show nothing (a word processor shades each line of a shaded cell again, in the
 * cell's own grey, and those line boxes' edges are no rules between the lines).
 */
function onSameFill(fills: Fill[], box: [number, number, number, number], colour: string): boolean {
  const [x0, y0, x1, y1] = box;
  for (let i = fills.length - 1; i >= Math.max(0, fills.length - FILLS_BEHIND); i--) {
    // Indexed, not destructured: this loop runs up to FILLS_BEHIND times for every filled box.
    const b = fills[i].box;
    if (x0 >= b[0] - ON_TOL && y0 >= b[1] - ON_TOL && x1 <= b[2] + ON_TOL && y1 <= b[3] + ON_TOL) return fills[i].colour === colour;
  }
  return false;
}

/** Whether a filled path is a box: four sides on the axes, or the two corners a rectangle operator gives. */
function filledBox(pts: [number, number][]): boolean {
  if (isRect(pts)) return true;
  const [x0, y0, x1, y1] = boxOf(pts);
  return pts.length === 2 && x1 > x0 && y1 > y0;
}

function shapeRulings(pts: [number, number][], closed: boolean, stroked: boolean, filled: boolean, out: Ruling[], pageArea: number, fills: Fill[], colour: string): void {
  if (pts.length < 2) return;
  const [x0, y0, x1, y1] = boxOf(pts);
  const w = x1 - x0, h = y1 - y0;
  const rect = filled ? filledBox(pts) : isRect(pts);
  if (rect && filled && !stroked) {
    const hidden = onSameFill(fills, [x0, y0, x1, y1], colour);
    fills.push({ box: [x0, y0, x1, y1], colour });
    if (hidden) return;
  }
  if (rect && (w < THIN || h < THIN)) {
    // A thin box drawn as a line; the lower bound keeps dots and glyph-like specks out.
    if (w >= h) out.push({ x0, y0: (y0 + y1) / 2, x1, y1: (y0 + y1) / 2 });
    else out.push({ x0: (x0 + x1) / 2, y0, x1: (x0 + x1) / 2, y1 });
    return;
  }
  if (rect && (filled || stroked)) {
    // A page-sized fill is a background, not a grid (half the page decided it).
    if (filled && !stroked && w * h > pageArea * 0.5) return;
    out.push({ x0, y0, x1, y1: y0 }, { x0, y0: y1, x1, y1 }, { x0, y0, x1: x0, y1 }, { x0: x1, y0, x1, y1 });
    return;
  }
  if (!stroked) return;
  for (let k = 0; k + 1 < pts.length; k++) {
    const s = segment(pts[k], pts[k + 1]);
    if (s) out.push(s);
  }
  if (closed) {
    const s = segment(pts[pts.length - 1], pts[0]);
    if (s) out.push(s);
  }
}

/** What the drawing of a page holds: ruling segments (unmerged) and the share of the page images cover. */
export interface Drawing {
  rulings: Ruling[];
  /** Sum of image areas over the page area (0..1, capped): a scan is one page-sized image. */
  imageShare: number;
}

/** Rulings and image coverage of `page`, from one walk over its operator list. */
export async function pageDrawing(page: PDFPageProxy): Promise<Drawing> {
  const { OPS, IMAGE_OPS, FILL_OPS, STROKE_OPS } = loadedPdfjs();
  const viewport = page.getViewport({ scale: 1 });
  const list = await page.getOperatorList();
  const out: Ruling[] = [];
  const pageArea = viewport.width * viewport.height;
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: { ctm: Matrix; fill: string }[] = [];
  let fill = '#000000';
  let imageArea = 0;
  const fills: Fill[] = [];
  const { fnArray, argsArray } = list;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push({ ctm, fill });
    else if (fn === OPS.restore) ({ ctm, fill } = stack.pop() ?? { ctm, fill });
    else if (fn === OPS.transform) ctm = mul(args as Matrix, ctm);
    else if (fn === OPS.setFillRGBColor && typeof args[0] === 'string') fill = args[0];
    else if (IMAGE_OPS.has(fn)) {
      // Images are painted into the unit square of the current transform.
      const m = mul(ctm, viewport.transform as Matrix);
      const pts = [apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1), apply(m, 1, 1)];
      const [x0, y0, x1, y1] = boxOf(pts);
      imageArea += Math.max(0, Math.min(x1, viewport.width) - Math.max(x0, 0)) * Math.max(0, Math.min(y1, viewport.height) - Math.max(y0, 0));
    } else if (fn === OPS.constructPath) {
      const paint = args[0] as number;
      const data = (args[1] as unknown[])?.[0] as ArrayLike<number> | null;
      if (!data) continue;
      const stroked = STROKE_OPS.has(paint);
      // White fills paint nothing visible on white paper, so they draw no grid.
      const white = fill.toLowerCase() === '#ffffff';
      const filled = FILL_OPS.has(paint) && !white;
      const m = mul(ctm, viewport.transform as Matrix);
      if (!stroked && !filled) {
        // A white box draws no rules, but what is painted on it lies on white.
        if (FILL_OPS.has(paint)) for (const sp of subpaths(data, m)) if (!sp.curved && filledBox(sp.pts)) fills.push({ box: boxOf(sp.pts), colour: '#ffffff' });
        continue;
      }
      for (const sp of subpaths(data, m)) {
        if (sp.curved) continue;
        shapeRulings(sp.pts, sp.closed, stroked, filled, out, pageArea, fills, fill.toLowerCase());
      }
    }
  }
  return { rulings: out, imageShare: pageArea > 0 ? Math.min(1, imageArea / pageArea) : 0 };
}

/**
 * Where on a PDF page a QR code can be, from what the page draws (its operator list), so that only
 * those regions are painted for the code search: each image (a code is often one, and a scanned
 * slip holds one), and each cluster of small dark filled shapes that is square and about half
 * dark (a code drawn as vector modules). Ruling lines, text and cell shading are none of these.
 * Regions are in page units (points, from the top left), padded for the code's quiet zone.
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadedPdfjs } from '../pdf/load.js';
import type { BBox } from '../types.js';

type Affine = [number, number, number, number, number, number];

/** pdf.js 5 path codes inside a constructPath buffer: move, line, cubic, quadratic, close. */
const PATH_ARGS: Record<number, number> = { 0: 2, 1: 2, 2: 6, 3: 4, 4: 0 };

/** The smallest side (points) of a readable code: 21 modules of ≥ 0.5 pt, the 1 px of a 2× paint. */
const MIN_SIDE = 10;
/** A vector module or run of modules is at most this long (points); longer shapes are rules or boxes. */
const MAX_SHAPE = 60;
/** Dark shapes closer than this (points) belong to one cluster: a code's modules touch. */
const JOIN = 1;
/** Vector modules of a code: at least this many shapes. */
const MIN_SHAPES = 20;
/** Margin around a region: a code's quiet zone and the binariser's neighbourhood at the edge. */
const PAD = 12;

/** `p` through `m`. */
const at = (m: Affine, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/** The transform `inner` followed by `outer`. */
function then(inner: Affine, outer: Affine): Affine {
  const [a, b, c, d, e, f] = inner;
  return [a * outer[0] + b * outer[2], a * outer[1] + b * outer[3], c * outer[0] + d * outer[2], c * outer[1] + d * outer[3], e * outer[0] + f * outer[2] + outer[4], e * outer[1] + f * outer[3] + outer[5]];
}

function boxOf(pts: Array<[number, number]>): BBox {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

/** True for a fill colour (`#rrggbb`) the finder scan counts dark (grey below 128). */
function dark(color: string): boolean {
  const v = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!v) return true;
  return parseInt(v[1]!, 16) * 0.3 + parseInt(v[2]!, 16) * 0.59 + parseInt(v[3]!, 16) * 0.11 < 128;
}

/** The boxes of the straight subpaths of a path buffer, through `m`. */
function subpathBoxes(data: ArrayLike<number>, m: Affine): BBox[] {
  const out: BBox[] = [];
  let pts: Array<[number, number]> = [];
  let curved = false;
  const end = () => {
    if (pts.length > 1 && !curved) out.push(boxOf(pts));
    pts = [];
    curved = false;
  };
  for (let i = 0; i < data.length; ) {
    const op = data[i++]!;
    const n = PATH_ARGS[op];
    if (n === undefined) break;
    if (op === 0) end();
    if (op === 0 || op === 1) pts.push(at(m, data[i]!, data[i + 1]!));
    else if (op === 2 || op === 3) curved = true;
    i += n;
  }
  end();
  return out;
}

/** Clusters of boxes that touch (within `JOIN`), as their union boxes with the boxes' summed area and count. */
function clusters(boxes: BBox[]): Array<{ box: BBox; area: number; count: number }> {
  const sorted = [...boxes].sort((a, b) => a[0] - b[0]);
  const parent = sorted.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  // Sweep by left edge: a box can only touch those starting before its right edge.
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length && sorted[j]![0] <= a[2] + JOIN; j++) {
      const b = sorted[j]!;
      if (b[1] <= a[3] + JOIN && a[1] <= b[3] + JOIN) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, { box: BBox; area: number; count: number }>();
  sorted.forEach((b, i) => {
    const g = groups.get(find(i));
    const area = (b[2] - b[0]) * (b[3] - b[1]);
    if (!g) groups.set(find(i), { box: [...b] as BBox, area, count: 1 });
    else {
      g.box = [Math.min(g.box[0], b[0]), Math.min(g.box[1], b[1]), Math.max(g.box[2], b[2]), Math.max(g.box[3], b[3])];
      g.area += area;
      g.count++;
    }
  });
  return [...groups.values()];
}

/** True when a cluster of dark shapes looks like a code's modules: square, big enough, 25–80 % dark. */
function codeLike(c: { box: BBox; area: number; count: number }): boolean {
  const w = c.box[2] - c.box[0], h = c.box[3] - c.box[1];
  if (c.count < MIN_SHAPES || w < MIN_SIDE || h < MIN_SIDE || Math.max(w, h) > 1.3 * Math.min(w, h)) return false;
  const share = c.area / (w * h);
  return share >= 0.25 && share <= 0.8;
}

/**
 * The regions of `page` a QR code can be in (page units, padded, clipped to the page, overlapping
 * ones merged), top to bottom; none on a page of text and rules alone.
 */
export async function codeRegions(page: PDFPageProxy): Promise<BBox[]> {
  const { OPS, IMAGE_OPS, FILL_OPS } = loadedPdfjs();
  const viewport = page.getViewport({ scale: 1 });
  const toPage = viewport.transform as Affine;
  const { fnArray, argsArray } = await page.getOperatorList();
  const found: BBox[] = [];
  const shapes: BBox[] = [];
  let ctm: Affine = [1, 0, 0, 1, 0, 0];
  let fill = '#000000';
  const stack: Array<{ ctm: Affine; fill: string }> = [];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    const args = argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push({ ctm, fill });
    else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) ({ ctm, fill } = stack.pop() ?? { ctm, fill });
    else if (fn === OPS.paintFormXObjectBegin) {
      // A form is drawn in its own matrix, inside a save and restore of its own.
      stack.push({ ctm, fill });
      const matrix = args[0] as ArrayLike<number> | null;
      if (matrix?.length === 6) ctm = then(Array.from(matrix) as Affine, ctm);
    }
    else if (fn === OPS.transform) ctm = then(args as Affine, ctm);
    else if (fn === OPS.setFillRGBColor && typeof args[0] === 'string') fill = args[0];
    else if (IMAGE_OPS.has(fn)) {
      // An image fills the unit square of the current transform.
      const m = then(ctm, toPage);
      const b = boxOf([at(m, 0, 0), at(m, 1, 0), at(m, 0, 1), at(m, 1, 1)]);
      if (b[2] - b[0] >= MIN_SIDE && b[3] - b[1] >= MIN_SIDE) found.push(b);
    } else if (fn === OPS.constructPath && FILL_OPS.has(args[0] as number) && dark(fill)) {
      const data = (args[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | null | undefined;
      if (!data) continue;
      for (const b of subpathBoxes(data, then(ctm, toPage))) {
        if (Math.max(b[2] - b[0], b[3] - b[1]) <= MAX_SHAPE) shapes.push(b);
      }
    }
  }
  if (shapes.length >= MIN_SHAPES) found.push(...clusters(shapes).filter(codeLike).map((c) => c.box));
  const padded = found
    .map((b): BBox => [Math.max(0, b[0] - PAD), Math.max(0, b[1] - PAD), Math.min(viewport.width, b[2] + PAD), Math.min(viewport.height, b[3] + PAD)])
    .filter((b) => b[2] - b[0] >= MIN_SIDE && b[3] - b[1] >= MIN_SIDE);
  return merged(padded).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** `boxes` with overlapping ones replaced by their union, until none overlap. */
function merged(boxes: BBox[]): BBox[] {
  const out = [...boxes];
  for (let again = true; again; ) {
    again = false;
    for (let i = 0; i < out.length && !again; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i]!, b = out[j]!;
        if (a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]) {
          out[i] = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
          out.splice(j, 1);
          again = true;
          break;
        }
      }
    }
  }
  return out;
}

/**
 * The sheet of paper on a photo: the paper is lighter than the desk it lies on, so walking in
 * from each edge of the image across the desk, the sheet begins where the grey steps up to
 * paper. Each side's steps lie on a line (fitted robustly: a line of the desk that runs past a
 * corner of the sheet is an outlier); the four lines meet at the sheet's corners, which may lie
 * beyond the image where the sheet runs off it. A scan or a rendered page has no desk: its
 * border is paper, no step is found, and the page is left as it is.
 */
import type { GrayImage } from './gray.js';
import { warpQuad, type Point } from './warp.js';

/** The image is looked at shrunk to about this many pixels on its long side (block means). */
const LOOK_SIDE = 800;
/** The desk is at most this dark relative to the paper (its border grey over the paper's). */
const DESK_BELOW_PAPER = 0.8;
/** The sheet's edge: the grey steps up by at least this factor over the desk walked so far. */
const EDGE_STEP = 1.25;
/** Walking the desk, a pixel brighter than the desk's mean by this factor (and 4 levels) ends it. */
const DESK_SPREAD = 1.15;
/** How far in from the image's edge the desk may reach, as a share of the image across. */
const MAX_DESK_DEPTH = 0.25;
/** A side is seen when its edge was found on at least this share of its scan lines. */
const MIN_SIDE_SHARE = 0.2;
/** Edge points within this many shrunk pixels of a side's line are on it. */
const LINE_TOLERANCE = 1.5;
/** Of the points found on a side, at least this share must lie on its line. */
const MIN_INLIER_SHARE = 0.6;
/** Sides seen (the others are taken to be the image's edges): fewer is a dark band, not a desk. */
const MIN_SIDES = 3;
/** The sheet covers at least this share of the image. */
const MIN_AREA_SHARE = 0.3;
/** A corner of the sheet lies at most this share of the image's size beyond its edge. */
const MAX_CORNER_OUTSIDE = 0.15;
/** The sheet's sides meet at 90° ± this many degrees (a page seen at a moderate slant). */
const MAX_CORNER_SKEW = 20;

/** Share of the sheet's size cut off along its edges when it is straightened. */
const EDGE_INSET = 0.003;

/** Block means of a grey image, `factor`² pixels to one, each worked out when first asked for. */
interface BlockMeans {
  width: number;
  height: number;
  /** The mean of block `i` (row-major in the shrunk image). */
  at(i: number): number;
}

/**
 * The block means of `img` (`factor`² pixels to one), made on demand: a scan or a rendered page,
 * whose border is paper, is decided on its middle and the blocks along its edges, and the rest
 * of the page (most of its pixels) is never summed.
 */
function blockMeans(img: GrayImage, factor: number): BlockMeans {
  const w = Math.floor(img.width / factor);
  const h = Math.floor(img.height / factor);
  const memo = new Int16Array(w * h).fill(-1);
  const n = factor * factor;
  const d = img.data;
  return {
    width: w,
    height: h,
    at(i) {
      const known = memo[i];
      if (known >= 0) return known;
      const y = Math.floor(i / w);
      const x = i - y * w;
      let s = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * img.width + x * factor;
        for (let dx = 0; dx < factor; dx++) s += d[row + dx];
      }
      return (memo[i] = Math.round(s / n));
    },
  };
}

/** The level below which `share` of the values lie. */
function percentile(values: Uint8Array | number[], share: number): number {
  const hist = new Int32Array(256);
  for (const v of values) hist[v]++;
  const want = share * values.length;
  for (let v = 0, seen = 0; v < 256; v++) if ((seen += hist[v]) >= want) return v;
  return 255;
}

/**
 * Where the desk ends on one scan line read from the image's edge inward (`at(k)`, k = 0 at the
 * edge): the sub-pixel position where the grey crosses halfway from the desk to the paper, or
 * null where the line starts on paper or meets no clear step before `maxDepth`.
 */
function deskEnd(at: (k: number) => number, maxDepth: number, paper: number): number | null {
  const first = (at(0) + at(1)) / 2;
  if (first > paper * DESK_BELOW_PAPER) return null;
  let sum = 0;
  for (let k = 0; k < maxDepth; k++) {
    const v = at(k);
    const mean = k ? sum / k : first;
    if (k >= 2 && v >= mean * EDGE_STEP && at(k + 1) >= mean * EDGE_STEP && at(k + 2) >= mean * EDGE_STEP) {
      const mid = (mean + at(k + 2)) / 2;
      const before = at(k - 1);
      // The crossing lies between k − 1 and k + 1 (block means blur the edge over one pixel).
      if (before >= mid) return k - 1;
      if (v >= mid) return k - 1 + (mid - before) / (v - before);
      const after = at(k + 1);
      return k + (mid - v) / Math.max(1, after - v);
    }
    if (v > mean * DESK_SPREAD + 4) return null;
    sum += v;
  }
  return null;
}

/** A line `depth = a·t + b` along one side: t runs along the side, depth in from it. */
interface SideLine {
  a: number;
  b: number;
}

/**
 * The line most edge points lie on (pairs of points tried across the side, the line with most points
 * within `LINE_TOLERANCE`), refitted by least squares on those points; null when too few agree.
 */
function fitSide(ts: number[], ds: number[]): SideLine | null {
  const n = ts.length;
  if (n < 2) return null;
  let best: number[] = [];
  for (let trial = 0; trial < 200; trial++) {
    // Pairs spread over the side in a fixed order: the same image always gives the same sheet.
    const i = (trial * 37) % n;
    const j = (trial * 101 + (n >> 1)) % n;
    if (Math.abs(ts[i] - ts[j]) < n / 8) continue;
    const a = (ds[j] - ds[i]) / (ts[j] - ts[i]);
    const b = ds[i] - a * ts[i];
    const inliers: number[] = [];
    for (let k = 0; k < n; k++) if (Math.abs(a * ts[k] + b - ds[k]) <= LINE_TOLERANCE) inliers.push(k);
    if (inliers.length > best.length) best = inliers;
  }
  if (best.length < MIN_INLIER_SHARE * n || best.length < 10) return null;
  let st = 0, sd = 0, stt = 0, std = 0;
  for (const k of best) {
    st += ts[k];
    sd += ds[k];
    stt += ts[k] * ts[k];
    std += ts[k] * ds[k];
  }
  const m = best.length;
  const den = m * stt - st * st;
  if (den === 0) return null;
  const a = (m * std - st * sd) / den;
  return { a, b: (sd - a * st) / m };
}

/** A line through `p` with direction `d`. */
interface Line {
  p: Point;
  d: Point;
}

function meet(l: Line, k: Line): Point | null {
  const den = l.d[0] * k.d[1] - l.d[1] * k.d[0];
  if (Math.abs(den) < 1e-9) return null;
  const t = ((k.p[0] - l.p[0]) * k.d[1] - (k.p[1] - l.p[1]) * k.d[0]) / den;
  return [l.p[0] + t * l.d[0], l.p[1] + t * l.d[1]];
}

/** Angle between two directions, in degrees (0..180). */
function angleBetween(u: Point, v: Point): number {
  const c = (u[0] * v[0] + u[1] * v[1]) / Math.hypot(...u) / Math.hypot(...v);
  return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
}

/** Area of a polygon (shoelace), positive for clockwise corners in image coordinates. */
function area(q: Point[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    const [x0, y0] = q[i];
    const [x1, y1] = q[(i + 1) % q.length];
    s += x0 * y1 - x1 * y0;
  }
  return s / 2;
}

/**
 * The sheet's corners (top-left, top-right, bottom-right, bottom-left, in the image's pixel
 * coordinates: pixel (i, j) covers [i, i+1) × [j, j+1)) when the image shows a sheet of paper on
 * a darker desk, else null.
 */
export function findSheet(img: GrayImage): Point[] | null {
  const f = Math.max(1, Math.round(Math.max(img.width, img.height) / LOOK_SIDE));
  const small = blockMeans(img, f);
  const { width: w, height: h } = small;
  if (w < 32 || h < 32) return null;
  // The paper's grey: the bright end of the image's middle.
  const middle: number[] = [];
  for (let y = Math.floor(h / 4); y < (3 * h) / 4; y += 2) for (let x = Math.floor(w / 4); x < (3 * w) / 4; x += 2) middle.push(small.at(y * w + x));
  const paper = percentile(middle, 0.9);
  if (paper < 60) return null;
  // Each side: scan lines across it (t along the side), the desk's depth in from the edge.
  const sides = [
    { n: h, across: w, at: (t: number, k: number) => small.at(t * w + k) },
    { n: w, across: h, at: (t: number, k: number) => small.at(k * w + t) },
    { n: h, across: w, at: (t: number, k: number) => small.at(t * w + (w - 1 - k)) },
    { n: w, across: h, at: (t: number, k: number) => small.at((h - 1 - k) * w + t) },
  ];
  const lines: (SideLine | null)[] = sides.map((s) => {
    const maxDepth = Math.floor(s.across * MAX_DESK_DEPTH);
    const ts: number[] = [];
    const ds: number[] = [];
    for (let t = 0; t < s.n; t++) {
      const d = deskEnd((k) => s.at(t, Math.min(s.across - 1, k)), maxDepth, paper);
      if (d !== null) {
        ts.push(t);
        ds.push(d);
      }
    }
    return ts.length >= MIN_SIDE_SHARE * s.n ? fitSide(ts, ds) : null;
  });
  if (lines.filter((l) => l !== null).length < MIN_SIDES) return null;
  // To full-size image coordinates: shrunk pixel k's centre is at (k + 0.5)·f.
  const full = (v: number) => (v + 0.5) * f;
  const W = img.width;
  const H = img.height;
  const edge = (i: number): Line => {
    const l = lines[i] ?? { a: 0, b: -0.5 };
    const at = (t: number): Point => {
      const d = l.a * t + l.b;
      if (i === 0) return [full(d), full(t)];
      if (i === 1) return [full(t), full(d)];
      if (i === 2) return [W - full(d), full(t)];
      return [full(t), H - full(d)];
    };
    const p = at(0);
    const q = at(sides[i].n);
    return { p, d: [q[0] - p[0], q[1] - p[1]] };
  };
  const [left, top, right, bottom] = [0, 1, 2, 3].map(edge);
  const quad = [meet(left, top), meet(top, right), meet(right, bottom), meet(bottom, left)];
  if (quad.some((p) => p === null)) return null;
  const corners = quad as Point[];
  const out = MAX_CORNER_OUTSIDE;
  if (corners.some(([x, y]) => x < -out * W || x > (1 + out) * W || y < -out * H || y > (1 + out) * H)) return null;
  if (area(corners) < MIN_AREA_SHARE * W * H) return null;
  const dirs = [top.d, right.d, bottom.d, left.d];
  for (let i = 0; i < 4; i++) if (Math.abs(angleBetween(dirs[i], dirs[(i + 1) % 4]) - 90) > MAX_CORNER_SKEW) return null;
  return corners;
}

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/**
 * The sheet on a photo cut out of its desk and warped to a rectangle (its perspective and turn
 * undone; sides as long as the sheet's longer opposite side), or null where no sheet on a desk
 * is seen.
 */
export function straightenSheet(img: GrayImage): GrayImage | null {
  const q = findSheet(img);
  if (!q) return null;
  const width = Math.round(Math.max(dist(q[0], q[1]), dist(q[3], q[2])));
  const height = Math.round(Math.max(dist(q[0], q[3]), dist(q[1], q[2])));
  // The sheet's edge is blurred over a pixel or two of the photo; cut inside it.
  const inset = Math.max(2, Math.round(EDGE_INSET * Math.max(width, height)));
  return warpQuad(img, q, width, height, inset);
}

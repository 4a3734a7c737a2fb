/**
 * Uneven light on a photographed sheet: the paper is lit brighter on one side than the other, a
 * smooth fall-off over the whole page. Its brightness is measured block by block (the bright end
 * of each block is paper), a quadratic surface is fitted to it — blocks darker than the surface
 * are fills, pictures or dense print, not paper, and are left out of the next fit — and every
 * pixel is divided by the surface, so paper comes out one grey everywhere and ink keeps its
 * contrast with it.
 */
import type { GrayImage } from './gray.js';
import { solveLinear } from './solve.js';

/** Blocks across the long side of the page. */
const BLOCKS = 24;
/** Paper is the bright end of a block: this share of its pixels is darker. */
const PAPER_SHARE = 0.9;
/** A block whose paper is darker than the fit by this share is not paper. */
const NOT_PAPER = 0.05;
/** Light that varies by less than this factor over the page is left alone. */
const MIN_FALL_OFF = 1.08;

/** Least squares of the six quadratic terms in (x, y) over the points; null when singular. */
function fitQuadratic(xs: number[], ys: number[], zs: number[]): number[] | null {
  const terms = (x: number, y: number) => [1, x, y, x * x, x * y, y * y];
  const a = Array.from({ length: 6 }, () => new Array<number>(7).fill(0));
  for (let i = 0; i < xs.length; i++) {
    const t = terms(xs[i], ys[i]);
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) a[r][c] += t[r] * t[c];
      a[r][6] += t[r] * zs[i];
    }
  }
  return solveLinear(a, 1e-9);
}

const surface = (q: number[], x: number, y: number) => q[0] + q[1] * x + q[2] * y + q[3] * x * x + q[4] * x * y + q[5] * y * y;

/** The page with its light evened out, or the page itself where the light is even. */
export function evenLight(img: GrayImage): GrayImage {
  const { width: w, height: h, data } = img;
  const size = Math.max(8, Math.ceil(Math.max(w, h) / BLOCKS));
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const hist = new Int32Array(256);
  for (let by = 0; by + size <= h; by += size) {
    for (let bx = 0; bx + size <= w; bx += size) {
      hist.fill(0);
      for (let y = by; y < by + size; y++) for (let x = bx, i = y * w + bx; x < bx + size; x++, i++) hist[data[i]]++;
      const want = PAPER_SHARE * size * size;
      let v = 0;
      for (let seen = 0; v < 255 && (seen += hist[v]) < want; v++);
      xs.push((bx + size / 2) / w);
      ys.push((by + size / 2) / h);
      zs.push(v);
    }
  }
  if (xs.length < 12) return img;
  let keep = xs.map((_, i) => i);
  let q: number[] | null = null;
  for (let round = 0; round < 4; round++) {
    q = fitQuadratic(keep.map((i) => xs[i]), keep.map((i) => ys[i]), keep.map((i) => zs[i]));
    if (!q) return img;
    const fit = q;
    const next = xs.map((_, i) => i).filter((i) => zs[i] >= (1 - NOT_PAPER) * surface(fit, xs[i], ys[i]));
    if (next.length < 12) return img;
    keep = next;
  }
  const fit = q!;
  let lo = Infinity;
  let hi = -Infinity;
  for (const i of keep) {
    const s = surface(fit, xs[i], ys[i]);
    lo = Math.min(lo, s);
    hi = Math.max(hi, s);
  }
  if (lo <= 0 || hi / lo < MIN_FALL_OFF) return img;
  // Paper comes out at the level of the best-lit paper.
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const fy = (y + 0.5) / h;
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const s = Math.max(lo, surface(fit, (x + 0.5) / w, fy));
      const v = (data[row + x] * hi) / s;
      out[row + x] = v >= 255 ? 255 : (v + 0.5) | 0;
    }
  }
  return { data: out, width: w, height: h };
}

/**
 * Projective geometry of a photographed sheet: the homography between four point pairs and a
 * warp of a grey image through it with bilinear sampling. sharp has affine transforms only, and
 * a page seen from below (its top edge shorter than its bottom) needs the projective one.
 */
import type { GrayImage } from './gray.js';
import { solveLinear } from './solve.js';

/** A point in pixels. */
export type Point = [number, number];

/**
 * The 3×3 homography (row-major, h33 = 1) taking each `from` point to its `to` point (four
 * pairs, no three of a side collinear).
 */
export function homography(from: Point[], to: Point[]): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  return [...solveLinear(a)!, 1];
}

/** Where the homography `m` takes the point (x, y). */
export function project(m: number[], x: number, y: number): Point {
  const d = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / d, (m[3] * x + m[4] * y + m[5]) / d];
}

/**
 * The quadrilateral `quad` (top-left, top-right, bottom-right, bottom-left, in `img`'s pixels)
 * warped to a `width`×`height` rectangle, less `inset` pixels on every side (the sheet's own
 * edge, blurred into the desk, would read as a rule). Each output pixel is sampled bilinearly
 * where the homography puts it in the source; beyond the source's edge is white paper.
 */
export function warpQuad(img: GrayImage, quad: Point[], width: number, height: number, inset = 0): GrayImage {
  const m = homography([[0, 0], [width, 0], [width, height], [0, height]], quad);
  const { width: sw, height: sh, data: src } = img;
  const ow = Math.max(1, width - 2 * inset);
  const oh = Math.max(1, height - 2 * inset);
  const out = new Uint8Array(ow * oh).fill(255);
  if (sw < 2 || sh < 2) return { data: out, width: ow, height: oh };
  for (let y = 0; y < oh; y++) {
    // Pixel centres: output (x + 0.5, y + 0.5) samples the source at its pixel-centre grid.
    const ox = inset + 0.5;
    const oy = inset + y + 0.5;
    let nx = m[0] * ox + m[1] * oy + m[2];
    let ny = m[3] * ox + m[4] * oy + m[5];
    let d = m[6] * ox + m[7] * oy + m[8];
    const row = y * ow;
    for (let x = 0; x < ow; x++, nx += m[0], ny += m[3], d += m[6]) {
      const sx = nx / d - 0.5;
      const sy = ny / d - 0.5;
      if (sx < 0 || sy < 0 || sx > sw - 1 || sy > sh - 1) continue;
      const x0 = Math.min(sw - 2, sx | 0);
      const y0 = Math.min(sh - 2, sy | 0);
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * sw + x0;
      const top = src[i] + (src[i + 1] - src[i]) * fx;
      const bottom = src[i + sw] + (src[i + sw + 1] - src[i + sw]) * fx;
      out[row + x] = (top + (bottom - top) * fy + 0.5) | 0;
    }
  }
  return { data: out, width: ow, height: oh };
}

/**
 * Makes a clean page render look like a phone photo of a sheet of paper: seen at a slant
 * (a perspective warp moving the top corners inward), lit unevenly (a soft gradient and a
 * vignette), with seeded sensor noise. Pixels are interleaved 8-bit channels.
 */
import { homography } from '../src/extract/raster/warp.js';

/** Seeded xorshift, so regenerating gives the same bytes. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export interface PhotoOptions {
  /** How far the view is tilted, in degrees: the top edge shrinks by tan(slant) of the width. */
  slant: number;
  /** Darkest corner's brightness, 0..1 of the brightest. */
  light: number;
  noise: number;
  seed: number;
}

/** A photo of the page: the same size, paper beyond the sheet in a darker grey. */
export function photograph(src: Uint8Array, w: number, h: number, channels: number, o: PhotoOptions): Uint8Array {
  const inset = Math.tan((o.slant * Math.PI) / 180) * w;
  const margin = 0.03 * w;
  // Where the page's corners land in the photo (top-left, top-right, bottom-right, bottom-left).
  const dest: [number, number][] = [
    [margin + inset, margin],
    [w - margin - inset * 0.6, margin + inset * 0.3],
    [w - margin, h - margin],
    [margin * 0.5, h - margin * 1.2],
  ];
  const corners: [number, number][] = [[0, 0], [w, 0], [w, h], [0, h]];
  const m = homography(dest, corners); // photo pixel → page pixel
  const out = new Uint8Array(w * h * channels);
  const rand = rng(o.seed);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = m[6] * x + m[7] * y + m[8];
      const sx = (m[0] * x + m[1] * y + m[2]) / d;
      const sy = (m[3] * x + m[4] * y + m[5]) / d;
      // Light falls from the top left towards the bottom right, and off at the edges.
      const gx = x / w - 0.3;
      const gy = y / h - 0.3;
      const lit = 1 - (1 - o.light) * Math.min(1, 0.6 * (x / w + y / h) + 0.5 * (gx * gx + gy * gy));
      const n = (rand() + rand() + rand() - 1.5) * o.noise;
      for (let c = 0; c < channels; c++) {
        let v = 90; // the table under the sheet
        if (sx >= 0 && sy >= 0 && sx < w - 1 && sy < h - 1) {
          const x0 = Math.floor(sx);
          const y0 = Math.floor(sy);
          const fx = sx - x0;
          const fy = sy - y0;
          const at = (xx: number, yy: number) => src[(yy * w + xx) * channels + c];
          v = (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
        }
        out[(y * w + x) * channels + c] = Math.max(0, Math.min(255, Math.round(v * lit + n)));
      }
    }
  }
  return out;
}

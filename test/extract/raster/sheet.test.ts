/**
 * The sheet on a photo: found on its desk, straightened, its light evened out; scans and
 * rendered pages left as they are. Inputs are the golden image fixtures
 * (scripts/make-image-fixtures.ts) and photos made here of them with scripts/photo.ts (an
 * independent perspective warp) and sharp (turn, desk, JPEG).
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { findSheet, straightenSheet } from '../../../src/extract/raster/sheet.js';
import { evenLight } from '../../../src/extract/raster/light.js';
import { homography, project, warpQuad, type Point } from '../../../src/extract/raster/warp.js';
import type { GrayImage } from '../../../src/extract/raster/gray.js';
import { extractDocument } from '../../../src/extract/index.js';
import { closeOcr } from '../../../src/extract/raster/index.js';
import { photograph } from '../../../scripts/photo.js';

const FIX = 'test/fixtures/images';

async function grey(input: Buffer | string): Promise<GrayImage> {
  const { data, info } = await sharp(input).grayscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/**
 * The grid invoice fixture photographed: seen from below at `slant`°, lit from one corner,
 * noisy, on a desk (scripts/photo.ts), then turned by `turn`° on the same desk and saved as JPEG.
 */
async function photoOfGrid(slant: number, turn: number): Promise<Buffer> {
  const { data, info } = await sharp(`${FIX}/grid-clean.png`).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const shot = photograph(new Uint8Array(data), info.width, info.height, 3, { slant, light: 0.65, noise: 8, seed: 11 });
  return sharp(shot, { raw: { width: info.width, height: info.height, channels: 3 } })
    .rotate(turn, { background: { r: 90, g: 90, b: 90 } })
    .blur(0.7)
    .jpeg({ quality: 70 })
    .toBuffer();
}

afterAll(closeOcr);

describe('the sheet on a photo', () => {
  it('homography and warp: the quad comes out as the rectangle it was', () => {
    const quad: Point[] = [[10, 20], [110, 15], [118, 140], [5, 130]];
    const m = homography([[0, 0], [100, 0], [100, 120], [0, 120]], quad);
    for (const [p, q] of [[[0, 0], quad[0]], [[100, 120], quad[2]]] as [Point, Point][]) {
      const [x, y] = project(m, p[0], p[1]);
      expect(x).toBeCloseTo(q[0], 6);
      expect(y).toBeCloseTo(q[1], 6);
    }
    // An axis-aligned quad is a crop: pixel (x, y) of the output is pixel (x + 10, y + 20).
    const img: GrayImage = { data: new Uint8Array(200 * 200).map((_, i) => (i * 7) % 251), width: 200, height: 200 };
    const out = warpQuad(img, [[10, 20], [60, 20], [60, 90], [10, 90]], 50, 70);
    expect(out.width).toBe(50);
    expect(out.height).toBe(70);
    for (const [x, y] of [[0, 0], [13, 29], [49, 69]]) expect(out.data[y * 50 + x]).toBe(img.data[(y + 20) * 200 + x + 10]);
  });

  it("finds the phone-photo fixture's sheet at the corners it was put at", async () => {
    const img = await grey(`${FIX}/phone-photo.jpg`);
    // Where scripts/photo.ts put the page's corners (slant 3°, a margin of 3 % of the width).
    const { width: w, height: h } = img;
    const inset = Math.tan((3 * Math.PI) / 180) * w;
    const margin = 0.03 * w;
    const want: Point[] = [
      [margin + inset, margin],
      [w - margin - inset * 0.6, margin + inset * 0.3],
      [w - margin, h - margin],
      [margin * 0.5, h - margin * 1.2],
    ];
    const found = findSheet(img);
    expect(found).not.toBeNull();
    found!.forEach(([x, y], i) => {
      expect(Math.abs(x - want[i][0])).toBeLessThan(4);
      expect(Math.abs(y - want[i][1])).toBeLessThan(4);
    });
  });

  it('leaves scans and rendered pages alone: no desk, no sheet', async () => {
    for (const f of ['grid-clean.png', 'stream-photo.jpg', 'de-invoice.png', 'turned-90.png', 'navy-header.png', 'zebra-rows.png']) {
      expect(findSheet(await grey(`${FIX}/${f}`)), f).toBeNull();
    }
  });

  it('straightens a turned, keystoned photo: its table rules run level and plumb', async () => {
    const img = await grey(await photoOfGrid(4, 3));
    const flat = straightenSheet(img);
    expect(flat).not.toBeNull();
    // The grid page (1240×1754) comes back at about its own size and shape.
    expect(Math.abs(flat!.width / flat!.height - 1240 / 1754)).toBeLessThan(0.02);
    // The table's top rule: the darkest row near it is dark from its left end to its right end.
    const rowInk = (y: number, x0: number, x1: number) => {
      let n = 0;
      for (let x = x0; x < x1; x++) if (flat!.data[y * flat!.width + x] < 128) n++;
      return n / (x1 - x0);
    };
    const s = flat!.width / 1240;
    let best = 0;
    for (let y = Math.round(480 * s); y < Math.round(560 * s); y++) best = Math.max(best, rowInk(y, Math.round(120 * s), Math.round(1120 * s)));
    expect(best).toBeGreaterThan(0.9);
  });

  it('evens out light that falls off across the page, and leaves even light alone', () => {
    const w = 600;
    const h = 800;
    const lit: GrayImage = { data: new Uint8Array(w * h), width: w, height: h };
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) lit.data[y * w + x] = Math.round(240 * (1 - 0.3 * (x / w + y / h) / 2));
    // Text-like marks, darker than their paper by the same share everywhere.
    for (let y = 100; y < 700; y += 40) for (let x = 50; x < 550; x += 30) for (let dy = 0; dy < 12; dy++) for (let dx = 0; dx < 18; dx++) lit.data[(y + dy) * w + x + dx] = Math.round(lit.data[(y + dy) * w + x + dx] * 0.2);
    const even = evenLight(lit);
    expect(even).not.toBe(lit);
    const at = (x: number, y: number) => even.data[y * w + x];
    expect(Math.abs(at(5, 5) - at(595, 795))).toBeLessThan(6);
    expect(at(55, 105)).toBeLessThan(60);
    const flat: GrayImage = { data: new Uint8Array(w * h).fill(235), width: w, height: h };
    expect(evenLight(flat)).toBe(flat);
  });

  it('reads the photographed invoice: every row whole, amounts with their decimals', { timeout: 60_000 }, async () => {
    const r = await extractDocument(await photoOfGrid(4, -2.5));
    expect(r.line_items.map((i) => [i.quantity, i.unit_price, i.amount])).toEqual([
      [4, 23.5, 94],
      [2, 89.9, 179.8],
      [3, 41.25, 123.75],
      [1, 18.75, 18.75],
    ]);
    expect(r.fields.total?.value).toBe(499.56);
  });
});

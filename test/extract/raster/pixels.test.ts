import { describe, expect, it } from 'vitest';
import { binarize, rotateGray, type GrayImage } from '../../../src/extract/raster/gray.js';
import { estimateSkew } from '../../../src/extract/raster/deskew.js';
import { findRulings } from '../../../src/extract/raster/rulings.js';
import { medianGlyphHeight } from '../../../src/extract/raster/text-size.js';

function blank(w: number, h: number): GrayImage {
  return { data: new Uint8Array(w * h).fill(255), width: w, height: h };
}
function fill(img: GrayImage, x0: number, y0: number, x1: number, y1: number, v = 0): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) img.data[y * img.width + x] = v;
}
/** "Text": rows of 20×24 px blocks 8 px apart, like glyphs on lines 60 px apart. */
function textPage(w = 1200, h = 1600): GrayImage {
  const img = blank(w, h);
  for (let y = 100; y + 24 < h - 100; y += 60) for (let x = 100; x + 20 < w - 100; x += 28) fill(img, x, y, x + 20, y + 24, 20);
  return img;
}

describe('pixel analysis', () => {
  it('finds the rulings of a drawn 4×3 grid and not the glyph-like blocks', () => {
    const img = blank(1200, 900);
    for (let r = 0; r <= 4; r++) fill(img, 100, 100 + r * 150, 1101, 103 + r * 150);
    for (let c = 0; c <= 3; c++) fill(img, 100 + c * 333, 100, 103 + c * 333, 703);
    // Text in the cells, bold and tight (2 px apart), must not become rulings.
    for (let x = 130; x < 400; x += 22) fill(img, x, 160, x + 20, 184);
    const { rulings } = findRulings(binarize(img));
    const horiz = rulings.filter((r) => r.y0 === r.y1);
    const vert = rulings.filter((r) => r.x0 === r.x1);
    expect(horiz).toHaveLength(5);
    expect(vert).toHaveLength(4);
    for (const r of horiz) {
      expect(r.x0).toBeLessThanOrEqual(101);
      expect(r.x1).toBeGreaterThanOrEqual(1100);
    }
    expect(horiz.map((r) => Math.round(r.y0)).sort((a, b) => a - b)).toEqual([102, 252, 402, 552, 702]);
  });

  it('bridges small gaps of a dashed line', () => {
    const img = blank(1000, 400);
    for (let x = 50; x < 950; x += 12) fill(img, x, 200, x + 10, 202);
    const { rulings } = findRulings(binarize(img));
    expect(rulings).toHaveLength(1);
    expect(rulings[0].x1 - rulings[0].x0).toBeGreaterThan(880);
  });

  it('estimates a 2° skew both ways and leaves a level page alone', async () => {
    const page = textPage();
    expect(estimateSkew(binarize(page))).toBe(0);
    // rotateGray turns counter-clockwise for positive angles: the lines then rise to the right.
    const up = await rotateGray(page, 2);
    expect(estimateSkew(binarize(up))).toBeCloseTo(2, 0);
    const down = await rotateGray(page, -2);
    const est = estimateSkew(binarize(down));
    expect(Math.abs(est + 2)).toBeLessThan(0.2);
    // Levelling with the estimate gives a level page again.
    expect(Math.abs(estimateSkew(binarize(await rotateGray(down, -est))))).toBeLessThan(0.15);
  });

  it('measures the glyph height', () => {
    expect(medianGlyphHeight(binarize(textPage()))).toBe(24);
    expect(medianGlyphHeight(binarize(blank(500, 500)))).toBeNull();
  });
});

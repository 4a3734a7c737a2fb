import { describe, expect, it } from 'vitest';
import { binarize, grayHistogram, otsuThreshold, type GrayImage } from '../../../src/extract/raster/gray.js';
import { findRulings } from '../../../src/extract/raster/rulings.js';
import { faintRulings } from '../../../src/extract/raster/faint.js';

function blank(w: number, h: number): GrayImage {
  return { data: new Uint8Array(w * h).fill(255), width: w, height: h };
}
function fill(img: GrayImage, x0: number, y0: number, x1: number, y1: number, v: number): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) img.data[y * img.width + x] = v;
}
/** A line of "text" (20×24 px blocks 8 px apart) from x0 to x1 at y. */
function text(img: GrayImage, x0: number, x1: number, y: number): void {
  for (let x = x0; x + 20 < x1; x += 28) fill(img, x, y, x + 20, y + 24, 20);
}

/** The page's ink rulings and its light ones, as the raster path finds them. */
function read(img: GrayImage) {
  const level = otsuThreshold(img, grayHistogram(img));
  return { ink: findRulings(binarize(img), 24).rulings, light: faintRulings(img, level, 24) };
}
const horizontal = (rs: { y0: number; y1: number }[]) => rs.filter((r) => r.y0 === r.y1).map((r) => r.y0).sort((a, b) => a - b);
const vertical = (rs: { x0: number; x1: number }[]) => rs.filter((r) => r.x0 === r.x1).map((r) => r.x0).sort((a, b) => a - b);

describe('light rulings', () => {
  it('finds hairlines in light grey between rows and columns, which the ink misses', () => {
    const img = blank(1200, 900);
    for (const y of [200, 300, 400, 500]) fill(img, 100, y, 1100, y + 2, 232);
    for (const x of [100, 500, 1098]) fill(img, x, 200, x + 2, 502, 232);
    for (const y of [240, 340, 440]) {
      text(img, 130, 450, y);
      text(img, 530, 1050, y);
    }
    const { ink, light } = read(img);
    expect(ink).toHaveLength(0);
    expect(horizontal(light)).toEqual([201, 301, 401, 501]);
    expect(vertical(light)).toEqual([101, 501, 1099]);
  });

  it('takes no tinted band, and no bevel highlight lighter than the grey cell it edges', () => {
    const img = blank(1200, 900);
    fill(img, 100, 200, 1100, 260, 235);
    text(img, 130, 1000, 218);
    // A grey header cell with a one-pixel highlight along its top and left.
    fill(img, 100, 400, 600, 480, 120);
    fill(img, 100, 400, 600, 401, 238);
    fill(img, 100, 400, 101, 480, 238);
    text(img, 130, 550, 430);
    for (let y = 560; y < 800; y += 60) text(img, 100, 1100, y);
    expect(read(img).light).toEqual([]);
  });

  it('adds nothing beside black rules: their grey edges and the tints drawn up to them', () => {
    const img = blank(1200, 900);
    // A black grid whose rules have a grey anti-aliased edge each side, its cells tinted.
    fill(img, 100, 200, 1100, 500, 225);
    for (const y of [200, 350, 500]) {
      fill(img, 100, y - 2, 1100, y + 2, 0);
      fill(img, 100, y - 3, 1100, y - 2, 200);
      fill(img, 100, y + 2, 1100, y + 3, 200);
    }
    for (const x of [100, 600, 1100]) {
      fill(img, x - 2, 198, x + 2, 502, 0);
      fill(img, x - 3, 198, x - 2, 502, 200);
      fill(img, x + 2, 198, x + 3, 502, 200);
    }
    text(img, 130, 550, 260);
    text(img, 630, 1050, 410);
    const { ink, light } = read(img);
    expect(horizontal(ink)).toHaveLength(3);
    expect(vertical(ink)).toHaveLength(3);
    expect(light).toEqual([]);
  });

  it('finds nothing on a white page of text, nor where the paper itself is grey', () => {
    const white = blank(1200, 900);
    for (let y = 100; y < 800; y += 60) text(white, 100, 1100, y);
    expect(read(white).light).toEqual([]);
    const grey = blank(1200, 900);
    grey.data.fill(236);
    for (let y = 100; y < 800; y += 60) text(grey, 100, 1100, y);
    expect(read(grey).light).toEqual([]);
  });
});

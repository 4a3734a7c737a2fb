import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { binarize, grayHistogram, inkDarkness, INK_DARKER, nextInk, rgbToGray, rotateGray, wordsOf, type GrayImage } from '../../../src/extract/raster/gray.js';
import { estimateSkew } from '../../../src/extract/raster/deskew.js';
import { findRulings } from '../../../src/extract/raster/rulings.js';
import { darkFills, invertFills } from '../../../src/extract/raster/fills.js';
import { components, medianGlyphHeight } from '../../../src/extract/raster/text-size.js';
import { figureBoxes, joinAcrossRulings } from '../../../src/extract/raster/figures.js';
import { eraseRulings } from '../../../src/extract/raster/rulings.js';

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
  it("greys 8-bit sRGB as libvips' luminance, darkened by the saturation of dark colours", async () => {
    // Every grey level, then pseudo-random colours (a fixed LCG, so a failure repeats).
    const w = 256;
    const h = 257;
    const rgb = new Uint8Array(w * h * 3);
    for (let v = 0; v < 256; v++) rgb.fill(v, v * 3, v * 3 + 3);
    let seed = 12345;
    for (let i = 256 * 3; i < rgb.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      rgb[i] = seed >>> 24;
    }
    const ref = await sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).grayscale().extractChannel(0).raw().toBuffer();
    const ours = rgbToGray(rgb, 3, w, h).data;
    let same = 0;
    let maxDiff = 0;
    for (let i = 0; i < ref.length; i++) {
      const [r, g, b] = rgb.subarray(i * 3, i * 3 + 3);
      const want = Math.max(0, ref[i] - Math.round(((Math.max(r, g, b) - Math.min(r, g, b)) * (255 - ref[i])) / 255));
      if (ours[i] === want) same++;
      maxDiff = Math.max(maxDiff, Math.abs(ours[i] - want));
    }
    for (let v = 0; v < 256; v++) expect(ours[v]).toBe(v);
    expect(maxDiff).toBeLessThanOrEqual(1);
    expect(same / ref.length).toBeGreaterThan(0.9999);
    // Orange text on white is as dark as mid-grey text; a navy fill is nearly black; pastel shades stay light.
    const px = (r: number, g: number, b: number) => rgbToGray(Uint8Array.from([r, g, b]), 3, 1, 1).data[0];
    expect(px(247, 148, 30)).toBeLessThan(110);
    expect(px(20, 40, 110)).toBeLessThan(30);
    expect(px(255, 255, 255)).toBe(255);
    expect(px(255, 204, 154)).toBeGreaterThan(190);
    expect(px(255, 255, 0)).toBeGreaterThan(230);
  });

  it('greys runs of one colour as each pixel alone, and counts every level of an odd-sized image', () => {
    // Colours in runs, broken by grey pixels and by neighbours one level apart.
    const colours = [
      [247, 148, 30],
      [247, 148, 31],
      [120, 120, 120],
      [20, 40, 110],
      [247, 148, 30],
    ];
    const rgb: number[] = [];
    for (let k = 0; k < 40; k++) for (let r = 0; r < 1 + (k % 4); r++) rgb.push(...colours[(k * 3) % colours.length]);
    const n = rgb.length / 3;
    const alone = (i: number) => rgbToGray(Uint8Array.from(rgb.slice(i * 3, i * 3 + 3)), 3, 1, 1).data[0];
    const greys = rgbToGray(Uint8Array.from(rgb), 3, n, 1).data;
    for (let i = 0; i < n; i++) expect(greys[i]).toBe(alone(i));
    // 7 × 3 pixels: the count in fours leaves a tail of one.
    const img = { data: Uint8Array.from({ length: 21 }, (_, i) => (i * 37) % 5), width: 7, height: 3 };
    const hist = grayHistogram(img);
    for (let v = 0; v < 256; v++) expect(hist[v]).toBe(img.data.filter((p) => p === v).length);
  });

  it('binarises every pixel as the mean of its whole window says, ink at the edges and in the middle alike', () => {
    // The window's mean worked out pixel by pixel, clipped at the image's edges.
    const reference = (img: GrayImage, darker: number, otsu: number) => {
      const { width: w, height: h, data } = img;
      const r = Math.max(4, Math.round(Math.max(w, h) / 64));
      const ceiling = Math.min(250, otsu + 100);
      const out = new Uint8Array(w * h);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const v = data[y * w + x];
          if (v > ceiling) continue;
          let sum = 0;
          let n = 0;
          for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
            for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++, n++) sum += data[yy * w + xx];
          if (v < (sum / n) * (1 - darker)) out[y * w + x] = 1;
        }
      return out;
    };
    // Grey paper (above the ceiling: never ink) with marks touching the left and right edges, marks only in the middle of a
    // row, a faint band, and an image narrower than two windows.
    for (const [w, h] of [
      [640, 200],
      [9, 40],
    ]) {
      const img = blank(w, h);
      for (let i = 0; i < img.data.length; i++) img.data[i] = 225 + ((i * 7919) % 30);
      fill(img, 0, 10, 3, 30, 40);
      fill(img, w - 2, 50, w, 70, 60);
      fill(img, Math.floor(w / 2), 90, Math.floor(w / 2) + 2, 120, 30);
      fill(img, 0, 150, w, 152, 150);
      for (const darker of [INK_DARKER, 0.06]) expect(binarize(img, darker, 100, 120).data).toEqual(reference(img, darker, 120));
    }
  });

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

  it('keeps two ruled grids apart when their edges line up and a title between them starts at the edge', () => {
    const img = blank(1200, 1400);
    const grid = (top: number) => {
      for (let r = 0; r <= 3; r++) fill(img, 100, top + r * 120, 1101, top + 3 + r * 120);
      for (const x of [100, 500, 1098]) fill(img, x, top, x + 3, top + 363);
    };
    grid(100);
    // A title line between the grids (90 px apart: less than the gap a broken rule may have), its
    // first letter's stem on the grids' left edge.
    for (let x = 100; x < 600; x += 22) fill(img, x, 490, x + (x === 100 ? 4 : 16), 514);
    grid(553);
    const vert = findRulings(binarize(img)).rulings.filter((r) => r.x0 === r.x1);
    // Three edges per grid, none running from one grid into the other.
    expect(vert).toHaveLength(6);
    for (const v of vert) expect(v.y0 >= 540 || v.y1 <= 480).toBe(true);
  });

  it('reads light text on a dark fill as ink and the fill as paper, and leaves the white cells beside it', () => {
    const img = textPage(1200, 900);
    // A dark header band with light "glyphs", and under its right half a white row of dark glyphs
    // closed by a grey rule: an L-shaped fill whose white cells must stay as they are.
    fill(img, 100, 300, 1100, 420, 40);
    for (let x = 130; x < 1050; x += 28) fill(img, x, 320, x + 18, 344, 250);
    fill(img, 600, 360, 1100, 420, 255);
    for (let x = 630; x < 1050; x += 28) fill(img, x, 380, x + 18, 404, 20);
    fill(img, 100, 420, 1100, 423, 120);
    const ink = binarize(img);
    const at = (x: number, y: number) => ink.data[y * img.width + x];
    expect(at(300, 310)).toBe(1); // before: the band is a slab of ink
    const found = darkFills(img, 24);
    expect(invertFills(ink, img, found)).toBeGreaterThan(0);
    expect(at(300, 310)).toBe(0); // the fill is paper
    expect(at(135, 330)).toBe(1); // its light glyphs are ink
    expect(at(150, 330)).toBe(0); // the fill between them is paper
    expect(at(635, 390)).toBe(1); // dark glyphs in the white cells are still ink
    expect(at(626, 390)).toBe(0); // and their white paper still paper
  });

  it('finds the short sides of a box two rows high, and no stem between its rules', () => {
    // Two rows 50 px high under rules 1000 px long; their sides 103 px long, under the five glyph
    // heights (120 px) a free-standing rule must run.
    const img = blank(1200, 900);
    for (const y of [100, 150, 200]) fill(img, 100, y, 1101, y + 3);
    for (const x of [100, 700, 900, 1098]) fill(img, x, 100, x + 3, 203);
    // Text in the cells, and a tall stroke (a bracket, 32 px) in the first cell, clear of its rules.
    for (let x = 130; x < 600; x += 28) fill(img, x, 114, x + 20, 138);
    fill(img, 650, 110, 653, 142);
    const vert = findRulings(binarize(img), 24).rulings.filter((r) => r.x0 === r.x1);
    expect(vert.map((r) => Math.round(r.x0)).sort((a, b) => a - b)).toEqual([102, 702, 902, 1100]);
    for (const r of vert) expect(r.y1 - r.y0).toBeGreaterThan(100);
    // A lone short rule with no rules at its ends stays text-like.
    const free = blank(1200, 900);
    fill(free, 400, 300, 403, 403);
    expect(findRulings(binarize(free), 24).rulings).toHaveLength(0);
    // A lone framed box (a chart's legend) keeps its short sides out: it is no row of cells.
    const legend = blank(1200, 900);
    for (const y of [300, 400]) fill(legend, 300, y, 900, y + 3);
    for (const x of [300, 897]) fill(legend, x, 300, x + 3, 403);
    expect(findRulings(binarize(legend), 24).rulings.filter((r) => r.x0 === r.x1)).toHaveLength(0);
    // Framed boxes in a row (a flow chart), their edges level and 60 px apart: each stays a lone box.
    const flow = blank(1200, 900);
    for (const x0 of [100, 400, 700]) {
      for (const y of [300, 400]) fill(flow, x0, y, x0 + 240, y + 3);
      for (const x of [x0, x0 + 237]) fill(flow, x, 300, x + 3, 403);
    }
    expect(findRulings(binarize(flow), 24).rulings.filter((r) => r.x0 === r.x1)).toHaveLength(0);
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

  it('asks less darkness of faint print, so the grey edges of its strokes stay ink', () => {
    // Dark print keeps the usual test.
    expect(inkDarkness(textPage(), binarize(textPage()))).toBe(INK_DARKER);
    // Faded thermal print: glyphs with a core at 175 and a 2 px edge at 200 on paper at 240.
    const img = blank(1200, 1600);
    img.data.fill(240);
    for (let y = 100; y + 24 < 1500; y += 60)
      for (let x = 100; x + 20 < 1100; x += 28) {
        fill(img, x, y, x + 20, y + 24, 200);
        fill(img, x + 2, y + 2, x + 18, y + 22, 175);
      }
    const first = binarize(img);
    const at = (ink: { data: Uint8Array }, x: number, y: number) => ink.data[y * img.width + x];
    expect(at(first, 110, 112)).toBe(1); // the core is ink
    expect(at(first, 100, 112)).toBe(0); // its edge is lost to the 15 % test
    const darker = inkDarkness(img, first);
    expect(darker).toBeLessThan(INK_DARKER);
    expect(darker).toBeGreaterThan(0.05);
    const again = binarize(img, darker);
    expect(at(again, 100, 112)).toBe(1); // the edge is ink
    expect(at(again, 99, 112)).toBe(0); // the paper beside it is not
  });

  it('measures the glyph height', () => {
    expect(medianGlyphHeight(binarize(textPage()))).toBe(24);
    expect(medianGlyphHeight(binarize(blank(500, 500)))).toBeNull();
  });
  it('a curve cut by the erased grid lines of its chart is still one figure', () => {
    // A chart: grid lines 40 px apart across 800 px, a 3 px curve climbing across them.
    const img = blank(1000, 600);
    for (let y = 100; y <= 500; y += 40) fill(img, 100, y, 900, y + 2);
    for (let x = 120; x < 880; x++) {
      const y = Math.round(480 - (x - 120) * 0.45 - 8 * Math.sin(x / 40));
      fill(img, x, y, x + 1, y + 3);
    }
    const ink = binarize(img);
    const found = findRulings(ink, 16);
    expect(found.thick.length).toBe(11);
    eraseRulings(img, found);
    const read = { data: img.data.map((v) => (v < 128 ? 1 : 0)), width: img.width, height: img.height };
    // Erased, the grid cuts the curve into strips no taller than its step.
    expect(figureBoxes(components(read), 16)).toHaveLength(0);
    const figures = figureBoxes(joinAcrossRulings(components(read), found), 16);
    expect(figures).toHaveLength(1);
    expect(figures[0].x1 - figures[0].x0).toBeGreaterThan(700);
  });
  it("a bar chart's hatched bars on their axis are a figure; a shaded band's edges around words are not", () => {
    // Six outlined bars, cross-hatched every 5 px, 70 px wide, standing on a 2 px axis 800 px long.
    const img = blank(1000, 600);
    fill(img, 100, 498, 900, 500);
    [300, 260, 280, 220, 250, 200].forEach((height, i) => {
      const x0 = 120 + i * 130, y0 = 498 - height;
      fill(img, x0, y0, x0 + 70, y0 + 2);
      fill(img, x0, y0, x0 + 2, 498);
      fill(img, x0 + 68, y0, x0 + 70, 498);
      for (let y = y0; y < 498; y++) for (let x = x0; x < x0 + 70; x++) if (x % 5 === 0 || y % 5 === 0) img.data[y * img.width + x] = 0;
    });
    const read = { data: img.data.map((v) => (v < 128 ? 1 : 0)), width: img.width, height: img.height };
    const [bars] = components(read).filter((c) => c.x1 - c.x0 > 700);
    const density = bars.pixels / ((bars.x1 - bars.x0 + 1) * (bars.y1 - bars.y0 + 1));
    expect(density).toBeGreaterThan(0.12);
    expect(density).toBeLessThan(0.3);
    // A value label over each bar leaves it a chart.
    const labels = Array.from({ length: 6 }, (_, i) => ({ x0: 140 + i * 130, y0: 440, x1: 180 + i * 130, y1: 456 }));
    expect(figureBoxes([bars], 16, labels)).toHaveLength(1);
    // Header words across the box (a band's edges around its words): not a figure.
    const header = Array.from({ length: 24 }, (_, i) => ({ x0: 110 + i * 33, y0: 200 + (i % 4) * 70, x1: 140 + i * 33, y1: 230 + (i % 4) * 70 }));
    expect(figureBoxes([bars], 16, header)).toHaveLength(0);
  });
  it('finds the next ink byte as a scan byte by byte does, from and to any offset', () => {
    // A fixed pseudo-random page of sparse ink; offsets on and off word boundaries.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let t = 0; t < 2000; t++) {
      const n = 1 + Math.floor(rand() * 40);
      const d = new Uint8Array(n).map(() => (rand() < 0.1 ? 1 : 0));
      const from = Math.floor(rand() * (n + 1));
      const to = from + Math.floor(rand() * (n - from + 1));
      let want = from;
      while (want < to && d[want] === 0) want++;
      expect(nextInk(d, wordsOf(d), from, to)).toBe(want);
      expect(nextInk(d, null, from, to)).toBe(want);
    }
    // A view starting off a word boundary is scanned byte by byte.
    expect(wordsOf(new Uint8Array(new ArrayBuffer(16), 1, 8))).toBeNull();
  });

  it('keeps a solid fill and drops thin rules from the solid mask, with few dark runs and with many', () => {
    for (const surround of [false, true]) {
      const img = blank(400, 300);
      fill(img, 50, 50, 90, 70); // a fill 40×20
      fill(img, 100, 200, 300, 201); // a rule 1 px thick
      fill(img, 340, 30, 342, 270); // a vertical rule 2 px thick
      // A dark frame round the sheet: most of the page is dark runs, checked column by column.
      if (surround) for (const [x0, y0, x1, y1] of [[0, 0, 400, 20], [0, 280, 400, 300], [0, 0, 20, 300], [380, 0, 400, 300]]) fill(img, x0, y0, x1, y1);
      const { solid } = darkFills(img, 10);
      const at = (x: number, y: number) => solid.data[y * 400 + x];
      expect(at(60, 60)).toBe(1);
      expect(at(150, 200)).toBe(0);
      expect(at(341, 150)).toBe(0);
      expect(at(5, 150)).toBe(surround ? 1 : 0);
    }
  });
});

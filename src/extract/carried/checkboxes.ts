/**
 * Printed checkboxes as key-value pairs (`source: "page"`, `value.selected`): a box glyph of a
 * text layer (☐ □ empty; ☑ ☒ ■ ✓ ✔ ✗ ✘ ticked) with the words after it, and on page images a
 * square outline of ink about a letter's size with its label to the right, ticked when its inside
 * holds ink (a tick or a cross covers more than 8 % of it; an empty box's inside is paper).
 */
import sharp from 'sharp';
import type { GrayImage } from '../raster/gray.js';
import type { BBox, KeyValuePair, PageLayout, Word } from '../types.js';

const EMPTY = new Set(['☐', '□', '❏', '❑']);
const TICKED = new Set(['☑', '☒', '■', '✓', '✔', '✗', '✘', '⊠']);
/** The share of a box's inside covered with ink from which it counts as ticked. */
const TICKED_INK = 0.08;

/** The words right of `box` on its line, up to a gap of two letters' heights or the next box. */
function labelOf(words: Word[], box: BBox, isBox: (w: Word) => boolean): Word[] {
  const cy = (box[1] + box[3]) / 2;
  const h = box[3] - box[1];
  const line = words.filter((w) => w.x0 >= box[2] - 1 && Math.abs((w.y0 + w.y1) / 2 - cy) < h * 0.8).sort((a, b) => a.x0 - b.x0);
  const out: Word[] = [];
  let right = box[2];
  for (const w of line) {
    const gap = w.x0 - right;
    if (isBox(w) || gap > 2 * Math.max(h, w.y1 - w.y0)) break;
    out.push(w);
    right = w.x1;
  }
  return out;
}

function pair(page: number, box: BBox, label: Word[], text: string, selected: boolean, confidence: number): KeyValuePair | null {
  if (!label.length) return null;
  const key = { text: label.map((w) => w.text).join(' '), bbox: [label[0]!.x0, Math.min(...label.map((w) => w.y0)), label[label.length - 1]!.x1, Math.max(...label.map((w) => w.y1))] as BBox };
  const bbox: BBox = [box[0], Math.min(box[1], key.bbox[1]), key.bbox[2], Math.max(box[3], key.bbox[3])];
  return { key, value: { text, bbox: box, selected }, page, bbox, confidence, source: 'page' };
}

/** Checkbox glyphs of text layers (a glyph alone, or starting its word). */
export function glyphCheckboxes(layouts: PageLayout[]): KeyValuePair[] {
  const out: KeyValuePair[] = [];
  const glyph = (w: Word) => [...w.text][0] ?? '';
  const isBox = (w: Word) => EMPTY.has(glyph(w)) || TICKED.has(glyph(w));
  for (const layout of layouts) {
    for (const w of layout.words) {
      if (!isBox(w)) continue;
      const g = glyph(w);
      const rest = w.text.slice(g.length).trim();
      const box: BBox = [w.x0, w.y0, rest ? w.x0 + (w.x1 - w.x0) / [...w.text].length : w.x1, w.y1];
      const label = rest ? [{ ...w, text: rest, x0: box[2] }, ...labelOf(layout.words, [box[0], box[1], w.x1, box[3]], isBox)] : labelOf(layout.words, box, isBox);
      const p = pair(layout.page, box, label, g, TICKED.has(g), w.confidence ?? 1);
      if (p) out.push(p);
    }
  }
  return out;
}

/**
 * Square outlines of ink on an image file's page (`bytes`, read as `layout`): the page decoded
 * grey at the layout's size (its units are the image's pixels), then `checkboxesInInk`.
 */
export async function inkCheckboxes(bytes: Uint8Array, layout: PageLayout): Promise<KeyValuePair[]> {
  if (!layout.words.length) return [];
  const { data, info } = await sharp(bytes, { page: layout.page - 1, limitInputPixels: false }).rotate().resize(Math.round(layout.width), Math.round(layout.height), { fit: 'fill' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return checkboxesInInk({ data, width: info.width, height: info.height }, 1, layout);
}

/**
 * The first x from `from` on the row starting at `row` whose pixel is light (`dark`: false) or
 * dark (true), else `w`. Every pixel of the page passes here, in a function of its own: V8
 * optimises a small function called this often within a few rows, a loop inside the long scan
 * below only late in the page.
 */
function runEdge(data: Uint8Array, row: number, from: number, w: number, dark: boolean): number {
  let x = from;
  if (dark) while (x < w && data[row + x]! < 128) x++;
  else while (x < w && data[row + x]! >= 128) x++;
  return x;
}

/**
 * Square outlines of ink on a page image (`gray`, `scale` pixels a unit of `layout`, the page's
 * reading): each side 0.6–2.5 times the page's median word height, its four edges at least 85 %
 * dark. Boxes are in the layout's units.
 */
export function checkboxesInInk(gray: GrayImage, scale: number, layout: PageLayout): KeyValuePair[] {
  const heights = layout.words.map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  if (!heights.length) return [];
  const { data, width: w, height: h } = gray;
  const dark = (x: number, y: number) => data[y * w + x]! < 128;
  const textH = heights[Math.floor(heights.length / 2)]! * scale;
  const [minSide, maxSide] = [Math.max(6, Math.round(textH * 0.6)), Math.round(textH * 2.5)];
  const taken: BBox[] = [];
  const out: KeyValuePair[] = [];
  const covered = (pts: number, count: (i: number) => boolean) => {
    let n = 0;
    for (let i = 0; i < pts; i++) if (count(i)) n++;
    return n / pts;
  };
  for (let y = 0; y < h - minSide; y++) {
    const row = y * w;
    for (let x = runEdge(data, row, 0, w, false); x < w; x = runEdge(data, row, x, w, false)) {
      const x0 = x;
      x = runEdge(data, row, x, w, true);
      const side = x - 1 - x0;
      if (side < minSide || side > maxSide || y + side >= h) continue;
      if (taken.some((b) => x0 >= b[0] - 2 && x0 <= b[2] && y >= b[1] - 2 && y <= b[3])) continue;
      // Bottom, left and right edges, each looked at only while the ones before held.
      if (covered(side, (i) => dark(x0 + i, y + side) || dark(x0 + i, y + side - 1)) < 0.85) continue;
      if (covered(side, (i) => dark(x0, y + i) || dark(x0 + 1, y + i)) < 0.85) continue;
      if (covered(side, (i) => dark(x0 + side, y + i) || dark(x0 + side - 1, y + i)) < 0.85) continue;
      taken.push([x0, y, x0 + side, y + side]);
      // The inside, a fifth of the side in from each edge.
      const m = Math.max(2, Math.round(side / 5));
      let ink = 0;
      let all = 0;
      for (let yy = y + m; yy <= y + side - m; yy++) for (let xx = x0 + m; xx <= x0 + side - m; xx++, all++) if (dark(xx, yy)) ink++;
      const selected = all > 0 && ink / all > TICKED_INK;
      const box: BBox = [x0 / scale, y / scale, (x0 + side) / scale, (y + side) / scale];
      const p = pair(layout.page, box, labelOf(layout.words, box, () => false), selected ? '☒' : '☐', selected, 0.8);
      if (p) out.push(p);
    }
  }
  return out;
}

/**
 * A second look at ink that the page-level OCR left unread. Tesseract's page layout analysis
 * drops isolated short text — a lone quantity "2" in a table cell — as noise (all three
 * quantities of the grid-exif6 fixture); each such glyph group is cropped and read again as a
 * single word (PSM 8), which costs a few milliseconds a crop.
 */
import type { GrayImage } from './gray.js';
import type { Blob } from './text-size.js';
import type { OcrWord } from './tsv.js';

/** At most this many crops a page: a page with more unread ink is a picture, not missed words. */
const MAX_CROPS = 40;
/** Padding around a crop, in glyph heights (Tesseract wants white space around a word). */
const PAD = 0.6;

/**
 * Groups of unread glyph-sized ink blobs (`blobs`: the page's glyph components, labelled once),
 * merged when closer than half a glyph height.
 */
export function unreadGroups(blobs: Blob[], words: OcrWord[], glyph: number): Blob[] {
  const covered = (b: Blob) =>
    words.some((w) => b.x0 >= w.x0 - 3 && b.x1 <= w.x1 + 3 && b.y0 >= w.y0 - 3 && b.y1 <= w.y1 + 3);
  // Glyph-like only: between 0.6× and 1.6× the median height, so dust and pictures stay out.
  const candidates = blobs.filter((b) => {
    const h = b.y1 - b.y0 + 1;
    return h >= 0.6 * glyph && h <= 1.6 * glyph && !covered(b);
  });
  const groups: Blob[] = [];
  const gap = glyph * 0.5;
  for (const b of candidates.sort((p, q) => p.x0 - q.x0)) {
    const g = groups.find((o) => b.x0 - o.x1 <= gap && o.x0 - b.x1 <= gap && Math.min(o.y1, b.y1) - Math.max(o.y0, b.y0) > 0.3 * glyph);
    if (g) {
      g.x0 = Math.min(g.x0, b.x0);
      g.y0 = Math.min(g.y0, b.y0);
      g.x1 = Math.max(g.x1, b.x1);
      g.y1 = Math.max(g.y1, b.y1);
    } else groups.push({ ...b });
  }
  // Groups that overlap a read word are parts of it (accents, split letters), not missed words.
  // Only short groups (up to ~3 glyphs wide): the lone numbers layout analysis drops. Longer
  // unread ink on ICDAR pages was mostly figure labels, which only added false cells (F1 0.752
  // without the second look, 0.735 with it unrestricted).
  return groups
    .filter((g) => g.x1 - g.x0 + 1 <= 3 * glyph)
    .filter((g) => !words.some((w) => g.x0 < w.x1 && g.x1 > w.x0 && g.y0 < w.y1 && g.y1 > w.y0))
    .slice(0, MAX_CROPS);
}

/** Crops `g` (with padding) out of the OCR image; returns the crop and its offset. */
export function cropFor(img: GrayImage, g: Blob, glyph: number): { crop: GrayImage; dx: number; dy: number } {
  const pad = Math.round(glyph * PAD);
  const x0 = Math.max(0, g.x0 - pad);
  const y0 = Math.max(0, g.y0 - pad);
  const x1 = Math.min(img.width - 1, g.x1 + pad);
  const y1 = Math.min(img.height - 1, g.y1 + pad);
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) data.set(img.data.subarray((y + y0) * img.width + x0, (y + y0) * img.width + x0 + w), y * w);
  return { crop: { data, width: w, height: h }, dx: x0, dy: y0 };
}

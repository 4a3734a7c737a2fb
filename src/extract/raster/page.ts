/**
 * One page image → `PageLayout`: binarise, level small skew, find rulings in the pixels, erase
 * them, OCR the rest, and scale every box to the caller's page units. Shared by image files and
 * PDF pages without a text layer.
 */
import type { ExtractOptions, PageLayout, Ruling, Word } from '../types.js';
import { binarize, resizeGray, rotateGray, toPgm, type GrayImage } from './gray.js';
import { medianGlyphHeight, TARGET_GLYPH_HEIGHT } from './text-size.js';
import { estimateSkew } from './deskew.js';
import { eraseRulings, findRulings } from './rulings.js';
import { recognizeJs } from './ocr-js.js';
import { nativeAvailable, recognizeNative } from './ocr-native.js';
import type { OcrWord } from './tsv.js';
import { cropFor, unreadGroups } from './rescue.js';

/**
 * Page segmentation: 3 (automatic) finds the column blocks of a table page and reads them in
 * order; sparse-text mode (11) lost the word order inside multi-word cells on ICDAR pages.
 */
const PSM = 3;

/** Stray marks Tesseract reads as punctuation when it is unsure (rests of borders, dust). */
const NOISE = /^[|_\-—–~.,:;'"`^°!()[\]{}\\/]+$/;

/** What `layoutFromGray` needs to know besides the pixels. */
export interface PageContext {
  page: number;
  /** Working pixels per output unit (e.g. 300/72 for a PDF page rendered at 300 dpi). */
  unitsScale: number;
  /** Output page size, in output units. */
  width: number;
  height: number;
  /** Resolution of the working image in dots per inch (Tesseract's size heuristics use it). */
  dpi: number;
}

/** Timings of the last page, for the benchmark. */
export const lastPageTimings = { binarizeMs: 0, deskewMs: 0, rulingsMs: 0, ocrMs: 0, skewDegrees: 0, glyphPx: 0, rescale: 1 };

/** Enlarge at most this much: upscaling invents no detail and quadruples OCR's pixels at 2×. */
const MAX_UPSCALE = 2.5;
/** Do not resample for less than ±15 %: Tesseract reads 20–30 px glyphs equally well. */
const RESCALE_SLACK = 0.15;
/** Never work on more than this many pixels on the long side (≈ 400 dpi A4). */
const MAX_WORKING_LONG_SIDE = 4800;

function inkToGray(ink: { data: Uint8Array; width: number; height: number }): GrayImage {
  const data = new Uint8Array(ink.data.length);
  for (let i = 0; i < data.length; i++) data[i] = ink.data[i] ? 0 : 255;
  return { data, width: ink.width, height: ink.height };
}

async function recognize(img: GrayImage, dpi: number, opts: ExtractOptions, psm = PSM): Promise<OcrWord[]> {
  const o = { langs: opts.ocrLangs, psm, dpi };
  const pgm = toPgm(img);
  // Where the program is missing, 'native' falls back to tesseract.js: same words, slower.
  if (opts.ocrEngine === 'native' && nativeAvailable(opts.ocrLangs)) return recognizeNative(pgm, o);
  return recognizeJs(pgm, o);
}

/** Turns a working-resolution grey page into a layout in output units. */
export async function layoutFromGray(img: GrayImage, ctx: PageContext, opts: ExtractOptions): Promise<PageLayout> {
  let t = performance.now();
  let ink = binarize(img);
  let unitsScale = ctx.unitsScale;
  let dpi = ctx.dpi;
  const glyph = medianGlyphHeight(ink);
  let f = glyph ? TARGET_GLYPH_HEIGHT / glyph : 1;
  f = Math.min(f, MAX_UPSCALE, MAX_WORKING_LONG_SIDE / Math.max(img.width, img.height));
  if (Math.abs(f - 1) > RESCALE_SLACK) {
    const w = Math.max(1, Math.round(img.width * f));
    const h = Math.max(1, Math.round(img.height * f));
    f = w / img.width;
    img = await resizeGray(img, w, h);
    ink = binarize(img);
    unitsScale *= f;
    dpi *= f;
  } else f = 1;
  lastPageTimings.glyphPx = glyph ?? 0;
  lastPageTimings.rescale = f;
  const t1 = performance.now();
  lastPageTimings.binarizeMs = t1 - t;
  const skew = estimateSkew(ink);
  if (skew !== 0) {
    img = await rotateGray(img, -skew);
    ink = binarize(img);
  }
  const t2 = performance.now();
  lastPageTimings.deskewMs = t2 - t1;
  lastPageTimings.skewDegrees = skew;
  const found = findRulings(ink);
  // Tesseract gets our adaptive binarisation, not the grey page: its global Otsu threshold let
  // sensor noise through on photo-like pages and it dropped isolated one-digit quantities there
  // (2 of 3 on the stream-photo fixture); the clean ink image also OCRs ~25 % faster.
  img = inkToGray(ink);
  eraseRulings(img, found);
  t = performance.now();
  lastPageTimings.rulingsMs = t - t2;
  const ocr = await recognize(img, dpi, opts);
  const glyphNow = glyph ? glyph * f : TARGET_GLYPH_HEIGHT;
  for (const g of unreadGroups(ink, ocr, glyphNow)) {
    const { crop, dx, dy } = cropFor(img, g, glyphNow);
    // PSM 8: the crop is one word.
    for (const w of await recognize(crop, dpi, opts, 8)) {
      if (w.confidence < 0.5) continue;
      ocr.push({ ...w, x0: w.x0 + dx, x1: w.x1 + dx, y0: w.y0 + dy, y1: w.y1 + dy });
    }
  }
  lastPageTimings.ocrMs = performance.now() - t;

  const k = 1 / unitsScale;
  const words: Word[] = [];
  for (const w of ocr) {
    if (NOISE.test(w.text) && w.confidence < 0.6) continue;
    words.push({
      text: w.text,
      x0: w.x0 * k,
      y0: w.y0 * k,
      x1: w.x1 * k,
      y1: w.y1 * k,
      size: Math.max(1, w.lineHeight) * k,
      confidence: Math.round(w.confidence * 1000) / 1000,
    });
  }
  const rulings: Ruling[] = found.rulings.map((r) => ({ x0: r.x0 * k, y0: r.y0 * k, x1: r.x1 * k, y1: r.y1 * k }));
  return { page: ctx.page, width: ctx.width, height: ctx.height, words, rulings };
}

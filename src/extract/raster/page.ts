/**
 * One page image → `PageLayout`: binarise, level small skew, find rulings in the pixels, erase
 * them, OCR the rest, and scale every box to the caller's page units. Shared by image files and
 * PDF pages without a text layer.
 */
import { UNSURE_WORD, type ExtractOptions, type PageLayout, type Ruling, type Word } from '../types.js';
import { binarize, grayHistogram, inkDarkness, INK_DARKER, INK_MARGIN, otsuThreshold, resizeGray, rotateGray, sharpenGray, toPbm, toPgm, wordsOf, type GrayImage } from './gray.js';
import { components, glyphBlobs, medianHeight, MAX_READABLE_GLYPH, MIN_READABLE_GLYPH, TARGET_GLYPH_HEIGHT, type Blob } from './text-size.js';
import { estimateSkew } from './deskew.js';
import { straightenSheet } from './sheet.js';
import { evenLight } from './light.js';
import { clearSurrounds, darkFills, invertFills } from './fills.js';
import { looksSideways, readsUnsure, turnGray, uprightTurn } from './orientation.js';
import { eraseRulings, findRulings } from './rulings.js';
import { faintRulings } from './faint.js';
import { recognizeJs } from './ocr-js.js';
import { missingLanguages, nativeAvailable, nativeLanguages, recognizeNative, recognizeNativeMany } from './ocr-native.js';
import { missingLanguageError } from './languages.js';
import { addonAvailable, recognizeAddon, recognizeAddonMany } from './ocr-addon.js';
import type { OcrWord } from './tsv.js';
import { closePaddle, paddleAvailable, recognizePaddle } from './ocr-paddle.js';
import { voteFull, voteUnsure } from './ocr-vote.js';
import { paddleReads } from './languages.js';
import { NOISE, secondLook } from './rescue.js';
import { joinCjk } from './cjk.js';
import { agreeDecimalMarks, dashesByLength, dropPhantomMarks, restoreMarks } from './marks.js';
import { figureBoxes, joinAcrossRulings } from './figures.js';
import { splitBars } from './bars.js';
import { inside } from '../geometry.js';

/**
 * Page segmentation: 3 (automatic) finds the column blocks of a table page and reads them in
 * order; sparse-text mode (11) lost the word order inside multi-word cells on ICDAR pages.
 */
const PSM = 3;

/**
 * Font size from an OCR line's box: the box runs from the tallest ascender to the lowest
 * descender actually on the line, which for a row of figures and capitals ("Network cable 5m",
 * no descender) is only about 0.8 of the em a text layer would report. The layout thresholds are
 * in ems; with raw box heights the 2-em row gap of a double-spaced invoice split its table.
 */
const EM_PER_LINE_BOX = 1.15;


/** The confidences of a page's words that are no stray marks. */
const sureOf = (words: readonly { text: string; confidence: number | null }[]) => words.filter((w) => !NOISE.test(w.text)).map((w) => w.confidence ?? 0);

/** The median of the numbers, 0 for none. */
function medianOf(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

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
  /** The page has been turned upright already: no orientation check. */
  upright?: boolean;
  /** The page was cut out of a photo (`straightenSheet`). */
  photo?: boolean;
}

/** The page turned clockwise by `turn`: width and height swap on a quarter turn. */
function turned(ctx: PageContext, turn: number): PageContext {
  const quarter = turn === 90 || turn === 270;
  return { ...ctx, width: quarter ? ctx.height : ctx.width, height: quarter ? ctx.width : ctx.height, upright: true };
}

/** Timings of the last page, for the benchmark. */
export const lastPageTimings = { sheet: false, binarizeMs: 0, deskewMs: 0, rulingsMs: 0, ocrMs: 0, rescueMs: 0, rescued: 0, fills: 0, turn: 0, voted: false, skewDegrees: 0, glyphPx: 0, rescale: 1 };

/** Languages written in Han characters or kana, and the glyph heights they are read at. */
const CJK_LANGS = /(^|\+)(jpn|jpn_vert|chi_sim|chi_tra|chi_sim_vert|chi_tra_vert|kor|kor_vert)(\+|$)/;
const MIN_READABLE_CJK = 24;
const TARGET_CJK_HEIGHT = 32;

/**
 * On a photographed sheet, the darkness asked of ink and the unsharp mask's radius per glyph
 * height (σ 1.5 px on 24 px glyphs). A phone camera's blur spreads each stroke's edge over two
 * or three pixels of grey; at 15 % those count as ink, bold figures swell into each other and
 * swallow the comma between them ("2,20" read "220"). On the 16 photographed dev invoices
 * (fields / line-item F1): 0.69 / 0.37 straightened at 15 %; 0.79 / 0.54 at 30 % (grey italic type fell
 * apart); 0.83 / 0.65 at 25 % on the sharpened photo; 0.77 / 0.63 at 20 % sharpened, 0.74 / 0.57
 * unsharpened; ink cut halfway between the local darkest and brightest grey, 0.78 / 0.58 (its
 * thinner letters split words apart).
 */
const PHOTO_INK_DARKER = 0.25;
const SHARPEN_PER_GLYPH = 1 / 16;

/** Enlarge at most this much: upscaling invents no detail and quadruples OCR's pixels at 2×. */
const MAX_UPSCALE = 2.5;
/** Do not resample for less than ±15 %. */
const RESCALE_SLACK = 0.15;
/** Never work on more than this many pixels on the long side (≈ 400 dpi A4). */
const MAX_WORKING_LONG_SIDE = 4800;

/** Black-and-white grey pixels (0 ink, 255 paper) of binary ink (0 or 1). */
function inkToGray(ink: { data: Uint8Array; width: number; height: number }): GrayImage {
  const data = new Uint8Array(ink.data.length);
  const from = wordsOf(ink.data);
  let i = 0;
  if (from !== null) {
    // Four pixels at a time: a byte of 1 times 255 is 255 with no carry into the next byte.
    const to = new Uint32Array(data.buffer, 0, data.length >> 2);
    for (let k = 0; k < from.length; k++) to[k] = 0xffffffff - from[k] * 255;
    i = from.length << 2;
  }
  for (; i < data.length; i++) data[i] = ink.data[i] ? 0 : 255;
  return { data, width: ink.width, height: ink.height };
}

type Reader = 'addon' | 'program' | 'js' | 'paddle';

/**
 * Which Tesseract reads the page. libtesseract in-process (the addon) first: native code with
 * Debian's "fast" models, the model loaded once per thread. Then the `tesseract` program (the
 * same library, but a process start and model load a run). tesseract.js, the same engine
 * compiled to WebAssembly and about 1.5× slower, where neither has the languages.
 */
function readerFor(opts: ExtractOptions): Reader {
  const e = opts.ocrEngine;
  if (e === 'js') return 'js';
  if (e !== 'program' && addonAvailable(opts.ocrLangs)) return 'addon';
  // The PP-OCR modes read with Tesseract too, picked as `auto` picks it.
  if (e !== 'native' && e !== 'program' && !nativeAvailable(opts.ocrLangs)) {
    // tesseract.js bundles English only: other languages come from Debian's packages.
    const missing = missingLanguages(opts.ocrLangs).filter((l) => l !== 'eng');
    if (missing.length && nativeLanguages() !== null) throw missingLanguageError(missing);
    return 'js';
  }
  // `native` without the addon and `program`: the program, which says what is missing.
  return 'program';
}

/**
 * Reads the black-and-white page (1-bit: Tesseract skips its own thresholding), with PP-OCR
 * alone, Tesseract alone, or both voted (`glyph`: the median glyph height, PP-OCR's scale).
 */
async function recognize(img: GrayImage, dpi: number, glyph: number, opts: ExtractOptions): Promise<OcrWord[]> {
  const e = opts.ocrEngine;
  const paddle = (e === 'paddle' || e === 'vote' || e === 'recheck') && paddleReads(opts.ocrLangs);
  if (paddle && e === 'paddle') return timed('paddle', opts, () => recognizePaddle(img, glyph));
  const o = { langs: opts.ocrLangs, psm: PSM, dpi, deadlineAt: opts.deadlineAt };
  const r = readerFor(opts);
  const words = await timed(r, opts, () => {
    if (r === 'addon') return recognizeAddon(img, o);
    return r === 'program' ? recognizeNative(toPbm(img), o) : recognizeJs(toPbm(img), o);
  });
  if (!paddle) return words;
  const han = /(^|\+)chi_sim(\+|$)/.test(opts.ocrLangs);
  return timed('paddle', opts, () => (e === 'vote' ? voteFull(img, words, glyph, han) : voteUnsure(img, words, han)));
}

/**
 * `auto` reads with Tesseract alone, except a page it reads unsure all over (median confidence
 * of its words below this): there PP-OCR reads the page too and the two readings are voted. On
 * 100 scanned shop receipts, the 19 below 0.8 (dot-matrix and faded thermal print, grey
 * photos) held 41 of the 104 wrong fields, and PP-OCR read 35 of their 39 date and total
 * tokens where Tesseract read 24. Clean pages (ICDAR's eu pages, median 0.9 and more) are
 * never read twice, so there `auto` costs what `fast` costs.
 */
const SECOND_READER_BELOW = 0.8;
/**
 * PP-OCR's second reading costs about this many times Tesseract's reading of the same page
 * (docs/ocr.md: `vote` ≈ 4.8× Tesseract's CPU); with less time than that left before the
 * document's deadline, the page keeps Tesseract's reading rather than fail the document.
 */
const SECOND_READER_COST = 5;

/**
 * Whether `auto` reads the page with PP-OCR as well: Tesseract was unsure of most of its words
 * (stray marks aside; never on fewer than 8, too few to judge), PP-OCR reads its script, and
 * the document has time left for it (`tesseractMs`: what Tesseract's reading of the page took).
 */
export function wantsSecondReader(words: OcrWord[], opts: ExtractOptions, tesseractMs = 0): boolean {
  if (opts.ocrEngine !== 'auto' || !paddleReads(opts.ocrLangs) || !paddleAvailable()) return false;
  if (opts.deadlineAt !== undefined && opts.deadlineAt - Date.now() < SECOND_READER_COST * tesseractMs) return false;
  const sure = words.filter((w) => !NOISE.test(w.text)).map((w) => w.confidence);
  return sure.length >= 8 && medianOf(sure) < SECOND_READER_BELOW;
}

/**
 * PP-OCR's reading of the grey page voted with Tesseract's words. PP-OCR reads the grey page,
 * not our binarisation: the grey edges of faint strokes and the dots of dot-matrix type, which
 * the binarisation keeps thin or apart, read whole there (on those 19 receipts, 268 of 351 field
 * tokens against 248 from the black-and-white page); its words are split and boxed by the ink
 * Tesseract read (`ink`). The sessions are freed after the page, so a slot that meets such a
 * page now and then idles at Tesseract's memory. A PP-OCR failure leaves Tesseract's reading.
 */
async function secondReading(grey: GrayImage, ink: GrayImage, words: OcrWord[], glyph: number, opts: ExtractOptions): Promise<OcrWord[]> {
  try {
    return await timed('paddle', opts, () => voteFull(grey, words, glyph, /(^|\+)chi_sim(\+|$)/.test(opts.ocrLangs), ink));
  } catch {
    return words;
  } finally {
    await closePaddle();
  }
}

/** Runs one OCR call and tells `opts.onOcr` its engine and time. */
async function timed<T>(r: Reader, opts: ExtractOptions, read: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await read();
  } finally {
    opts.onOcr?.(r, performance.now() - t);
  }
}

/** Reads each crop as one word (PSM 8); the program reads them all in one run. */
async function recognizeWords(crops: GrayImage[], dpi: number, opts: ExtractOptions, line = false): Promise<OcrWord[][]> {
  // One word a crop (8), or one line (7).
  const o = { langs: opts.ocrLangs, psm: line ? 7 : 8, dpi, deadlineAt: opts.deadlineAt };
  const r = readerFor(opts);
  return timed(r, opts, async () => {
    if (r === 'addon') return recognizeAddonMany(crops, o);
    if (r === 'program') return recognizeNativeMany(crops.map(toPgm), o);
    const out: OcrWord[][] = [];
    for (const c of crops) out.push(await recognizeJs(toPgm(c), o));
    return out;
  });
}

/**
 * Working pixels per page pixel: 1 for glyphs Tesseract reads as they are, else the factor
 * that brings the median glyph to the target; never beyond the working-size bounds.
 */
function rescaleFactor(glyph: number | null, img: GrayImage, langs: string): number {
  // Han and kana need more pixels than Latin letters: 16 px glyphs (a 150 dpi scan) lost the
  // strokes of 請 and 書 that tell them from their neighbours.
  const cjk = CJK_LANGS.test(langs);
  const min = cjk ? MIN_READABLE_CJK : MIN_READABLE_GLYPH;
  const target = cjk ? TARGET_CJK_HEIGHT : TARGET_GLYPH_HEIGHT;
  let f = glyph && (glyph < min || glyph > MAX_READABLE_GLYPH) ? target / glyph : 1;
  f = Math.min(f, MAX_UPSCALE, MAX_WORKING_LONG_SIDE / Math.max(img.width, img.height));
  return Math.abs(f - 1) > RESCALE_SLACK ? f : 1;
}

/** Turns a working-resolution grey page into a layout in output units. */
export async function layoutFromGray(img: GrayImage, ctx: PageContext, opts: ExtractOptions): Promise<PageLayout> {
  let t = performance.now();
  // A sheet photographed on a desk is read cut out and straightened, in the sheet's own units.
  const sheet = ctx.upright ? null : straightenSheet(img);
  lastPageTimings.sheet = sheet !== null;
  if (sheet) {
    img = evenLight(sheet);
    ctx = { ...ctx, width: sheet.width / ctx.unitsScale, height: sheet.height / ctx.unitsScale, photo: true };
  }
  const page = img;
  // One binarisation and one labelling, redone only when the pixels are resampled or turned;
  // Otsu's level of the pixels (binarisation, dark fills) is worked out once for each.
  const hist = grayHistogram(img);
  let level = otsuThreshold(img, hist);
  let ink = binarize(img, INK_DARKER, INK_MARGIN, level);
  // Faint print is binarised again with a test that suits its contrast, and so is every
  // resampled or turned copy of the page.
  // A camera's blur (and JPEG) spreads every stroke's edge over grey pixels that the darkness
  // test takes for ink: on a photo, ink is asked to be darker.
  const faint = inkDarkness(img, ink, hist);
  const darker = ctx.photo && faint === INK_DARKER ? PHOTO_INK_DARKER : faint;
  if (darker !== INK_DARKER) ink = binarize(img, darker, INK_MARGIN, level);
  let blobs: Blob[] | null = glyphBlobs(ink);
  let unitsScale = ctx.unitsScale;
  let dpi = ctx.dpi;
  const glyph = medianHeight(blobs);
  // A page whose lines run down it is turned a quarter: OSD says which way, and the page is read
  // upright (boxes are in the upright page's pixels).
  const upright = async (anySure = false): Promise<PageLayout | null> => {
    // OSD reads the page's ink as the darkness test made for it finds it: on a straightened photo
    // of a receipt, its thinner photo ink made OSD turn the upright receipt upside down.
    const turn = await uprightTurn(toPbm(inkToGray(binarize(page, faint))), ctx.dpi, anySure ? 0 : undefined);
    lastPageTimings.turn = turn;
    if (!turn) return null;
    const read = await layoutFromGray(turnGray(page, turn), turned(ctx, turn), opts);
    // OSD tells that a page lies on its side surer than which side: a quarter turn that reads
    // unsure all over may have turned the page upside down. The other quarter is read too, and
    // the surer kept.
    if (turn === 180 || !readsUnsure(sureOf(read.words))) return read;
    const other = (turn + 180) % 360;
    const back = await layoutFromGray(turnGray(page, other), turned(ctx, other), opts);
    if (medianOf(sureOf(back.words)) <= medianOf(sureOf(read.words))) return read;
    lastPageTimings.turn = other;
    return back;
  };
  lastPageTimings.turn = 0;
  if (!ctx.upright && looksSideways(ink, glyph)) {
    const done = await upright();
    if (done) return done;
  }
  let f = rescaleFactor(glyph, img, opts.ocrLangs);
  if (f !== 1) {
    const w = Math.max(1, Math.round(img.width * f));
    const h = Math.max(1, Math.round(img.height * f));
    f = w / img.width;
    img = await resizeGray(img, w, h);
    level = otsuThreshold(img);
    ink = binarize(img, darker, INK_MARGIN, level);
    blobs = null;
    unitsScale *= f;
    dpi *= f;
  }
  lastPageTimings.glyphPx = glyph ?? 0;
  lastPageTimings.rescale = f;
  const glyphNow = glyph ? glyph * f : TARGET_GLYPH_HEIGHT;
  if (ctx.photo) {
    // Sharpened, the photo's strokes step from paper to ink as printed (see PHOTO_INK_DARKER).
    img = await sharpenGray(img, SHARPEN_PER_GLYPH * glyphNow);
    level = otsuThreshold(img);
    ink = binarize(img, darker, INK_MARGIN, level);
    blobs = null;
  }
  const t1 = performance.now();
  lastPageTimings.binarizeMs = t1 - t;
  const skew = estimateSkew(ink);
  if (skew !== 0) {
    img = await rotateGray(img, -skew);
    level = otsuThreshold(img);
    ink = binarize(img, darker, INK_MARGIN, level);
    blobs = null;
  }
  const t2 = performance.now();
  lastPageTimings.deskewMs = t2 - t1;
  lastPageTimings.skewDegrees = skew;
  // Light text on dark fills (header rows, shaded cells) becomes ink, the fill paper; the dark
  // surround of a photographed sheet holds no ink at all.
  const fills = darkFills(img, glyphNow, level);
  if (invertFills(ink, img, fills) + clearSurrounds(ink, fills) > 0) blobs = null;
  lastPageTimings.fills = performance.now() - t2;
  const found = findRulings(ink, glyph ? glyphNow : null);
  // Hairlines lighter than ink are rulings of the layout; they are no ink, so OCR never sees them.
  const light = faintRulings(img, level, glyphNow);
  // Tesseract gets our adaptive binarisation, not the grey page: its global Otsu threshold let
  // sensor noise through on photo-like pages and it dropped isolated one-digit quantities there
  // (2 of 3 on the stream-photo fixture); the clean ink image also OCRs ~25 % faster.
  const grey = img;
  // The ink OCR reads: rulings erased, kept binary for the ink components after OCR.
  const read = ink.data.slice();
  eraseRulings({ data: read, width: ink.width, height: ink.height }, found, 0);
  img = inkToGray({ data: read, width: ink.width, height: ink.height });
  t = performance.now();
  lastPageTimings.rulingsMs = t - t2;
  let ocr = await recognize(img, dpi, glyphNow, opts);
  // Unsure words all over the page: it may be upside down. OSD is wrong at times on faint
  // print (an upright receipt turned 180° read as junk), so the turned page is kept only where
  // it reads surer than the page as it was.
  const sure = sureOf(ocr);
  if (!ctx.upright && readsUnsure(sure)) {
    // Small print lying on its side (a table printed sideways, rendered at 150 dpi) may show no
    // sign of it before reading; seen sideways at the working scale, OSD's answer is taken
    // however unsure (1.5 there), each quarter tried.
    const done = await upright(looksSideways(ink, glyphNow));
    if (done && medianOf(sureOf(done.words)) > medianOf(sure)) return done;
  }
  lastPageTimings.voted = wantsSecondReader(ocr, opts, performance.now() - t);
  if (lastPageTimings.voted) ocr = await secondReading(grey, img, ocr, glyphNow, opts);
  const t3 = performance.now();
  // `fast` trades the second reading of unsure words for throughput (docs/ocr.md).
  const second = await secondLook(img, blobs ?? glyphBlobs(ink), ocr, glyphNow, (crops, scale, line) => recognizeWords(crops, dpi * scale, opts, line), opts.ocrEngine !== 'fast');
  ocr = second.words;
  // Decimal points the recogniser dropped, from the ink OCR read (rulings erased).
  const inkParts = components({ data: read, width: img.width, height: img.height });
  ocr = dashesByLength(agreeDecimalMarks(restoreMarks(dropPhantomMarks(ocr, inkParts), inkParts)));
  lastPageTimings.rescued = second.crops;
  lastPageTimings.ocrMs = performance.now() - t;
  lastPageTimings.rescueMs = performance.now() - t3;

  const k = 1 / unitsScale;
  const words: Word[] = [];
  // Bars read from rules too short for the ruling finder are rules, not words.
  const { words: kept, bars } = splitBars(joinCjk(ocr));
  const readWords = kept.filter((w) => !(NOISE.test(w.text) && w.confidence < UNSURE_WORD));
  const figures = figureBoxes(joinAcrossRulings(inkParts, found), glyphNow, readWords);
  for (const w of readWords) {
    words.push({
      text: w.text,
      x0: w.x0 * k,
      y0: w.y0 * k,
      x1: w.x1 * k,
      y1: w.y1 * k,
      size: Math.max(1, w.lineHeight) * EM_PER_LINE_BOX * k,
      confidence: Math.round(w.confidence * 1000) / 1000,
    });
  }
  // A chart's light grid lines are the chart's, not a table's.
  const lightOutside = light.filter((r) => !figures.some((f) => inside(r, [f.x0, f.y0, f.x1 + 1, f.y1 + 1])));
  const rulings: Ruling[] = [...found.rulings, ...lightOutside].map((r) => ({ x0: r.x0 * k, y0: r.y0 * k, x1: r.x1 * k, y1: r.y1 * k }));
  for (const b of bars) rulings.push({ x0: ((b.x0 + b.x1) / 2) * k, y0: b.y0 * k, x1: ((b.x0 + b.x1) / 2) * k, y1: b.y1 * k });
  const layout: PageLayout = { page: ctx.page, width: ctx.width, height: ctx.height, words, rulings, figures: figures.map((f) => [f.x0 * k, f.y0 * k, (f.x1 + 1) * k, (f.y1 + 1) * k]) };
  // Output units per point: working pixels per inch over working pixels per unit, per 72.
  const perPoint = Math.round((dpi / unitsScale / 72) * 1000) / 1000;
  return perPoint === 1 ? layout : { ...layout, unitsPerPoint: perPoint };
}

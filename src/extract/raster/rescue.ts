/**
 * A second look at ink that the page-level OCR left unread or misread. Tesseract's page layout
 * analysis drops isolated short text — a lone quantity "2" in a table cell — as noise (all three
 * quantities of the grid-exif6 fixture), and reads some lone digits as marks or letters; each
 * such glyph group or doubtful word is cropped, enlarged and read again as a single word (PSM 8).
 * The caller reads all of a page's crops in one go (one `tesseract` run on the native engine).
 */
import { cropRect, resizeGray, type GrayImage } from './gray.js';
import { TARGET_GLYPH_HEIGHT, type Blob } from './text-size.js';
import type { OcrWord } from './tsv.js';
import { UNSURE_WORD } from '../types.js';

/** Stray marks Tesseract reads as punctuation when it is unsure (rests of borders, dust). */
export const NOISE = /^[|_\-—–~.,:;'"`^°!()[\]{}\\/]+$/;

/**
 * Words read again enlarged: short and unsure (the "fast" model read a lone 16 px "2" as "N",
 * 0.82), or unsure (`UNSURE_WORD`: "Subtotal" as "Subtotaf", 0.41); at most `MAX_DOUBTFUL` a page.
 */
const DOUBTFUL_LENGTH = 3;
const DOUBTFUL_CONFIDENCE = 0.9;
const MAX_DOUBTFUL = 60;
/** Crops whose glyphs are within 15 % of the target height are read as they are. */
const ENLARGE_SLACK = 0.15;
const EDGE_MARKS = /^[‘’'"`|~_]+|[‘’'"`|~_]+$/g;

/**
 * A date read with a part no calendar has: a month above 12, a day above 31, or a mark where a
 * digit belongs ("29/18/2017", "03/0:/2018" on faded receipts, read at 0.9 and 0.93). The
 * recogniser misread a digit; such a word is read again enlarged whatever its confidence.
 */
const DATE_SHAPE = /^(\d{1,2}|[0-9:;.,]{2})([/.-])(\d{1,2}|[0-9:;.,]{2})\2(\d{2}|\d{4})$/;
export function impossibleDate(text: string): boolean {
  const m = DATE_SHAPE.exec(text.replace(/^[^\d]+|[^\d]+$/g, ''));
  if (!m) return false;
  const [, a, , b] = m;
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return true;
  const x = Number(a);
  const y = Number(b);
  // Day-first or month-first, one of the two orders must fit.
  const fits = (d: number, mo: number) => d >= 1 && d <= 31 && mo >= 1 && mo <= 12;
  return !fits(x, y) && !fits(y, x);
}

/** A date whose parts a calendar has, in one order or the other. */
export function possibleDate(text: string): boolean {
  return DATE_SHAPE.test(text.replace(/^[^\d]+|[^\d]+$/g, '')) && !impossibleDate(text);
}

/**
 * A second look at glyph groups the page OCR left unread or read as stray punctuation (a lone
 * "2" read as "~"), and at short words it was unsure of: each is cropped, enlarged to the target
 * glyph height (a crop is small, so enlarging it is cheap and lets Tesseract see a single digit)
 * and read as one word. A new reading replaces what it overlaps when it is surer. With `unsure`
 * false, of the words read only impossible dates are read again (the `fast` engine: the unsure
 * words are most of the crops on a report page, up to 60 of its 100).
 */
export async function secondLook(
  img: GrayImage,
  blobs: Blob[],
  ocr: OcrWord[],
  glyph: number,
  readWords: (crops: GrayImage[], scale: number) => Promise<OcrWord[][]>,
  unsure = true,
): Promise<{ words: OcrWord[]; crops: number }> {
  const read = ocr.filter((w) => !NOISE.test(w.text));
  const doubtful = read
    .filter((w) => (unsure && (w.confidence < UNSURE_WORD || (w.text.length <= DOUBTFUL_LENGTH && w.confidence < DOUBTFUL_CONFIDENCE))) || impossibleDate(w.text))
    .sort((a, b) => a.confidence - b.confidence)
    .slice(0, MAX_DOUBTFUL);
  const groups = [...unreadGroups(blobs, read, glyph), ...doubtful.map((w) => ({ x0: w.x0, y0: w.y0, x1: w.x1 - 1, y1: w.y1 - 1 }))];
  if (groups.length === 0) return { words: ocr, crops: 0 };
  const up = Math.max(1, TARGET_GLYPH_HEIGHT / glyph);
  const crops = await Promise.all(
    groups.map(async (g) => {
      const { crop, dx, dy } = cropFor(img, g, glyph);
      const big = up > 1 + ENLARGE_SLACK ? await resizeGray(crop, Math.round(crop.width * up), Math.round(crop.height * up)) : crop;
      return { big, dx, dy, s: crop.width / big.width };
    }),
  );
  const overlaps = (a: OcrWord, b: OcrWord) => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;
  const results = await readWords(crops.map((c) => c.big), up);
  let words = ocr;
  results.forEach((found, i) => {
    const { dx, dy, s } = crops[i];
    for (const w of found) {
      // The crop's edges hold rests of neighbouring ink, read as quote marks or bars ("‘Subtotal").
      const text = w.text.replace(EDGE_MARKS, '');
      if (text === '' || NOISE.test(text)) continue;
      const r = { ...w, text, x0: w.x0 * s + dx, x1: w.x1 * s + dx, y0: w.y0 * s + dy, y1: w.y1 * s + dy, lineHeight: w.lineHeight * s };
      const hit = words.filter((o) => overlaps(r, o));
      // An impossible date gives way to a possible one of the same length read in its place,
      // however unsure (the enlarged "03/0:/2018" reads "03/02/2018" at 0.45): one misread digit
      // keeps the count, and a shorter reading has lost one. A surer word beside it that is no
      // impossible date stays. Else stray marks give way, and a real word only to a surer reading.
      const fixesDate = possibleDate(text) && hit.some((o) => impossibleDate(o.text) && o.text.length === text.length);
      if (w.confidence < 0.5 && !fixesDate) continue;
      if (hit.some((o) => !NOISE.test(o.text) && o.confidence >= r.confidence && !(fixesDate && impossibleDate(o.text)))) continue;
      words = [...words.filter((o) => !hit.includes(o)), r];
    }
  });
  return { words, crops: groups.length };
}

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
  return { crop: cropRect(img, x0, y0, g.x1 + pad + 1, g.y1 + pad + 1), dx: x0, dy: y0 };
}

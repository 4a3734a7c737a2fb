/**
 * A second look at ink that the page-level OCR left unread or misread. Tesseract's page layout
 * analysis drops isolated short text — a lone quantity "2" in a table cell — as noise (all three
 * quantities of the grid-exif6 fixture), and reads some lone digits as marks or letters; each
 * such glyph group or doubtful word is cropped, enlarged and read again: unread ink as a line of
 * text (PSM 7), a doubtful word as a single word (PSM 8).
 * The caller reads all of a page's crops in one go (one `tesseract` run on the native engine).
 */
import { cropRect, resizeGray, type GrayImage } from './gray.js';
import { TARGET_GLYPH_HEIGHT, type Blob } from './text-size.js';
import type { OcrWord } from './tsv.js';
import { SURE_WORD, UNSURE_WORD } from '../types.js';

/** Stray marks Tesseract reads as punctuation when it is unsure (rests of borders, dust). */
export const NOISE = /^[|_\-—–~.,:;'"`^°!()[\]{}\\/]+$/;

/**
 * Words read again enlarged: short and not sure (below `SURE_WORD`; the "fast" model read a lone
 * 16 px "2" as "N", 0.82), or unsure (`UNSURE_WORD`: "Subtotal" as "Subtotaf", 0.41); at most `MAX_DOUBTFUL` a page.
 */
const DOUBTFUL_LENGTH = 3;
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
 * "2" read as "~"), at short words it was unsure of, and at words it read across two or more
 * lines: each group or word is cropped, enlarged to the target glyph height (a crop is small, so
 * enlarging it is cheap and lets Tesseract see a single digit) and read as one word; each line of
 * a word read across lines is read as one line. A new reading replaces what it overlaps when it
 * is surer. With `unsure` false, of the words read only impossible dates and words across lines
 * are read again (the `fast` engine: the unsure words are most of the crops on a report page, up
 * to 60 of its 100).
 */
export async function secondLook(
  img: GrayImage,
  blobs: Blob[],
  ocr: OcrWord[],
  glyph: number,
  readWords: (crops: GrayImage[], scale: number, line: boolean) => Promise<OcrWord[][]>,
  unsure = true,
): Promise<{ words: OcrWord[]; crops: number }> {
  const read = ocr.filter((w) => !NOISE.test(w.text));
  const across = acrossLines(ocr, blobs, glyph);
  const lines = across.size > 0 ? lineBoxes([...across], blobs, glyph) : [];
  // Words on the lines read again are not read again alone.
  const inLine = (w: OcrWord) => lines.some((l) => w.x0 <= l.x1 && w.x1 > l.x0 && w.y0 <= l.y1 && w.y1 > l.y0);
  const doubtful = read
    .filter((w) => !across.has(w) && !inLine(w))
    .filter((w) => (unsure && (w.confidence < UNSURE_WORD || (w.text.length <= DOUBTFUL_LENGTH && w.confidence < SURE_WORD))) || impossibleDate(w.text))
    .sort((a, b) => a.confidence - b.confidence)
    .slice(0, MAX_DOUBTFUL);
  // Words across lines stay among the words read, so their ink is no unread group, nor is the ink of the lines read again.
  const covered = [...read, ...lines.map((l) => ({ x0: l.x0, y0: l.y0, x1: l.x1 + 1, y1: l.y1 + 1 }))];
  const unread = unreadGroups(blobs, covered, glyph);
  const groups = [...unread, ...doubtful.map((w) => ({ x0: w.x0, y0: w.y0, x1: w.x1 - 1, y1: w.y1 - 1 }))];
  if (groups.length === 0 && lines.length === 0) return { words: ocr, crops: 0 };
  const up = Math.max(1, TARGET_GLYPH_HEIGHT / glyph);
  const enlarge = async ({ crop, dx, dy }: { crop: GrayImage; dx: number; dy: number }) => {
    const big = up > 1 + ENLARGE_SLACK ? await resizeGray(crop, Math.round(crop.width * up), Math.round(crop.height * up)) : crop;
    return { big, dx, dy, s: crop.width / big.width };
  };
  const wordCrops = await Promise.all(groups.map((g) => enlarge(cropFor(img, g, glyph))));
  const lineCrops = await Promise.all(lines.map((g) => enlarge(cropFor(img, g, glyph, true))));
  const overlaps = (a: OcrWord, b: OcrWord) => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;
  // A reading contests every word of the page it overlaps (a surer one there says the crop took
  // in a neighbour's ink), but of the other crops' readings only those it lies over, not one its
  // crop's padding reached into (its box takes in the edge marks dropped from its text:
  // "‘TOTAL’" over the "T" of the "TTC" read beside it).
  const contests = (a: OcrWord, b: OcrWord) => overlaps(a, b) && Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) >= CONTEST_SHARE * Math.min(a.x1 - a.x0, b.x1 - b.x0);
  const crops = [...wordCrops, ...lineCrops];
  // Unread ink is read as a line of one word: as a word (PSM 8) Debian's fast model drops the
  // point of a short figure ("0.8" read "08,", "12.1" read "121") and reads a lone "0" as "oO".
  // A crop read so as nothing or one character that is no digit is read as a word too, and that
  // reading taken where it holds a digit (tesseract.js's model reads a lone "4" as a line "A",
  // as a word "4"); a lone letter stays ("n" for a sample's size).
  const unreadCrops = wordCrops.slice(0, unread.length).map((c) => c.big);
  const asLines = unreadCrops.length > 0 ? await readWords(unreadCrops, up, true) : [];
  const empty = asLines.flatMap((found, i) => (found.length === 0 || oneCharacter(found) ? [i] : []));
  if (empty.length > 0) {
    const asWords = await readWords(empty.map((i) => unreadCrops[i]), up, false);
    asWords.forEach((found, k) => {
      if (asLines[empty[k]].length === 0 || found.some((w) => /\p{N}/u.test(w.text))) asLines[empty[k]] = found;
    });
  }
  const doubtCrops = wordCrops.slice(unread.length);
  const results = [
    ...asLines,
    ...(doubtCrops.length > 0 ? await readWords(doubtCrops.map((c) => c.big), up, false) : []),
    ...(lineCrops.length > 0 ? await readWords(lineCrops.map((c) => c.big), up, true) : []),
  ];
  // A doubtful word read surely over part of its ink only may be two words the page read as one
  // ("1995-1996" over an erased rule, read back as "1995"): read as a line, it is read again.
  // Only these: a line crop's confidence runs higher than a word crop's, so an unsure word read
  // as a line would win contests its reading should lose.
  const again = groups.map((g, i) => i).filter((i) => i >= unread.length && partial(results[i], (groups[i].x1 - groups[i].x0 + 1) / wordCrops[i].s));
  if (again.length > 0) {
    // Cropped to the word's own ink: read as a line, the padding's rests of the next word are read too.
    const clean = await Promise.all(again.map((i) => enlarge(cropFor(img, groups[i], glyph, true))));
    const lined = await readWords(clean.map((c) => c.big), up, true);
    again.forEach((i, k) => (results[i] = lined[k]));
  }
  let words = ocr.filter((w) => !across.has(w));
  // The line crop each new reading came from: a reading of another line (the one above) does not contest it.
  const fresh = new Map<OcrWord, number>();
  const placed = new Set<OcrWord>();
  const otherLine = (o: OcrWord, i: number) => (fresh.get(o) ?? i) !== i;
  results.forEach((found, i) => {
    const { dx, dy, s } = crops[i];
    for (const w of found) {
      // The crop's edges hold rests of neighbouring ink, read as quote marks or bars ("‘Subtotal").
      const text = w.text.replace(EDGE_MARKS, '');
      if (text === '' || NOISE.test(text)) continue;
      // Unread ink read as one mark, neither letter nor digit (a hatched bar read "€", "="), is a picture's.
      if (i < unread.length && loneMark(found)) continue;
      const r = { ...w, text, x0: w.x0 * s + dx, x1: w.x1 * s + dx, y0: w.y0 * s + dy, y1: w.y1 * s + dy, lineHeight: w.lineHeight * s };
      // A line's reading stands on its line: its box reaches no further up or down than the line's ink.
      const line = lines[i - wordCrops.length];
      if (line) {
        r.y0 = Math.max(r.y0, line.y0);
        r.y1 = Math.min(r.y1, line.y1 + 1);
      }
      const hit = words.filter((o) => (placed.has(o) ? contests(r, o) : overlaps(r, o)) && !otherLine(o, i));
      // An impossible date gives way to a possible one of the same length read in its place,
      // however unsure (the enlarged "03/0:/2018" reads "03/02/2018" at 0.45): one misread digit
      // keeps the count, and a shorter reading has lost one. A surer word beside it that is no
      // impossible date stays. Else stray marks give way, and a real word only to a surer reading.
      const fixesDate = possibleDate(text) && hit.some((o) => impossibleDate(o.text) && o.text.length === text.length);
      if (w.confidence < 0.5 && !fixesDate) continue;
      if (hit.some((o) => !NOISE.test(o.text) && o.confidence >= r.confidence && !(fixesDate && impossibleDate(o.text)))) continue;
      words = [...words.filter((o) => !hit.includes(o)), r];
      placed.add(r);
      if (i >= wordCrops.length) fresh.set(r, i);
    }
  });
  // A word across lines whose lines read as little (new words over less than half its width)
  // stays as it was read, in place of those few.
  for (const w of across) {
    const mine = words.filter((o) => fresh.has(o) && overlaps(o, w));
    const covered = mine.reduce((n, o) => n + Math.max(0, Math.min(o.x1, w.x1) - Math.max(o.x0, w.x0)), 0);
    if (covered < RESTORE_SHARE * (w.x1 - w.x0)) words = [...words.filter((o) => !mine.includes(o)), w];
  }
  return { words, crops: groups.length + lines.length + again.length + empty.length };
}

/** A reading over this share of the narrower word's width, or more, contests it. */
const CONTEST_SHARE = 0.5;
/** One mark that is neither letter nor digit: what hatching and specks read as ("€", "="). */
const LONE_MARK = /^[^\p{L}\p{N}]$/u;
const alone = (found: OcrWord[]) => (found.length === 1 ? found[0].text.replace(EDGE_MARKS, '') : null);
const loneMark = (found: OcrWord[]) => LONE_MARK.test(alone(found) ?? '');
/** A reading of one character that is no digit: as a word the crop may read a digit ("A" as a line, "4" as a word). */
const oneCharacter = (found: OcrWord[]) => /^[^\p{N}]$/u.test(alone(found) ?? '');

/** Grows box `g` to take in box `b`. */
function growBox(g: Blob, b: Blob): void {
  g.x0 = Math.min(g.x0, b.x0);
  g.y0 = Math.min(g.y0, b.y0);
  g.x1 = Math.max(g.x1, b.x1);
  g.y1 = Math.max(g.y1, b.y1);
}

/** A sure reading of a word's crop (a word of it at this confidence) over less than this share of its width read part of it. */
const WHOLE_CONFIDENCE = 0.5;
const WHOLE_SHARE = 0.75;

/** Whether the words read in a crop are a sure reading of part of its `width` (crop pixels) only. */
function partial(found: OcrWord[], width: number): boolean {
  const covered = found.reduce((n, w) => n + (w.x1 - w.x0), 0);
  return found.some((w) => w.confidence >= WHOLE_CONFIDENCE) && covered < WHOLE_SHARE * width;
}

/** A word across lines is read again where its lines' new words cover this share of its width. */
const RESTORE_SHARE = 0.5;
/** A word at least this many glyph heights tall may hold more than one line. */
const ACROSS_HEIGHT = 2;
/** Blobs one under another with at least this gap (× glyph height) stand on separate lines: rows of a table and lines of a cell stand 0.5 glyph heights apart and more. */
const LINE_GAP = 0.3;
/**
 * Upright glyphs are this many times as high as wide or more, at the median: letters and digits
 * 1–2; those of text turned a quarter (an axis label of a chart, read as one tall word) 0.5–0.7.
 */
const UPRIGHT_ASPECT = 0.9;
/** Lines of neighbouring words this close (× glyph height) are read as one crop. */
const LINE_JOIN = 0.6;
/** At most this many line crops a page. */
const MAX_LINES = 40;
/** Scripts written down a page as well as across it: their tall words are real. */
const VERTICAL_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Whether `blobs` are upright glyphs, not turned ones (`UPRIGHT_ASPECT`). */
function upright(blobs: Blob[]): boolean {
  const aspects = blobs.map((b) => (b.y1 - b.y0 + 1) / (b.x1 - b.x0 + 1)).sort((a, b) => a - b);
  return aspects.length > 0 && aspects[Math.floor(aspects.length / 2)] >= UPRIGHT_ASPECT;
}

/**
 * A line of text is this high (× glyph height): the pieces of one large word whose glyphs broke
 * apart (the top bar of a thermal receipt's big "5" over the rest of "538.00") are not.
 */
const LINE_HIGH: readonly [number, number] = [0.6, 1.6];
const lineHigh = (l: Blob[], glyph: number) => {
  const h = Math.max(...l.map((b) => b.y1)) - Math.min(...l.map((b) => b.y0)) + 1;
  return h >= LINE_HIGH[0] * glyph && h <= LINE_HIGH[1] * glyph;
};

/** Lines one under another overlap across by this share of the narrower's width at least. */
const UNDER_SHARE = 0.25;

/**
 * Whether line `b` stands under line `a`, not beside it (`UNDER_SHARE`). A slanted line of a
 * skewed receipt falls apart into pieces lower and lower to the right, none under another.
 */
function underneath(a: Blob[], b: Blob[]): boolean {
  const x0 = (l: Blob[]) => Math.min(...l.map((g) => g.x0));
  const x1 = (l: Blob[]) => Math.max(...l.map((g) => g.x1));
  const overlap = Math.min(x1(a), x1(b)) - Math.max(x0(a), x0(b));
  return overlap >= UNDER_SHARE * Math.min(x1(a) - x0(a), x1(b) - x0(b));
}

/** Blobs this high (× glyph height) or more are letters and digits; points, accents and specks are less. */
const LETTER_HEIGHT = 0.5;
const lettered = (b: Blob, glyph: number) => b.y1 - b.y0 + 1 >= LETTER_HEIGHT * glyph;

/** The letter blobs inside `w`'s box, in lines top to bottom. */
function linesIn(w: OcrWord, blobs: Blob[], glyph: number): Blob[][] {
  const inside = blobs.filter((b) => lettered(b, glyph) && b.x0 >= w.x0 - 3 && b.x1 <= w.x1 + 3 && b.y0 >= w.y0 - 3 && b.y1 <= w.y1 + 3).sort((a, b) => a.y0 - b.y0);
  const out: Blob[][] = [];
  let bottom = -Infinity;
  for (const b of inside) {
    if (b.y0 - bottom >= LINE_GAP * glyph) out.push([]);
    out[out.length - 1].push(b);
    bottom = Math.max(bottom, b.y1);
  }
  return out;
}

/**
 * Words Tesseract read across lines instead of along one: in a table whose cells set their lines
 * at other heights than their neighbours' (a two-line reference beside a one-line amount), page
 * layout analysis joins pieces of two lines into one word ("Croat" for "# ligne BC: 3" over
 * "C_FO:", 0.26), and a narrow column of one-digit cells becomes one tall word read downwards
 * ("eee" over three rows of "1"). Such a word is at least two glyph heights tall, read below
 * `SURE_WORD`, and the upright letter blobs inside its box stand on two or more lines of
 * text height, each under the one above. A tall word of one line (a heading in large type) is
 * none; nor is text turned a quarter, a slanted line, one large word whose glyphs broke apart, or
 * a word of a script written downwards.
 */
export function acrossLines(words: OcrWord[], blobs: Blob[], glyph: number): Set<OcrWord> {
  const out = new Set<OcrWord>();
  for (const w of words) {
    if (w.y1 - w.y0 < ACROSS_HEIGHT * glyph || w.confidence >= SURE_WORD || VERTICAL_SCRIPT.test(w.text)) continue;
    const lines = linesIn(w, blobs, glyph);
    if (lines.length >= 2 && upright(lines.flat()) && lines.every((l, k) => lineHigh(l, glyph) && (k === 0 || underneath(lines[k - 1], l)))) out.add(w);
  }
  return out;
}

/**
 * The boxes of the lines of ink inside the words read across lines (`across`), each reaching over
 * the letters on its line that stand next to it (the rest of a word whose piece went into the
 * word across lines, the "le" of a "Samp" over "unit", is read again with it), pieces of one line
 * side by side joined.
 */
export function lineBoxes(across: OcrWord[], blobs: Blob[], glyph: number): Blob[] {
  const sameLine = (o: Blob, b: Blob) => Math.min(o.y1, b.y1) - Math.max(o.y0, b.y0) > 0.5 * Math.min(o.y1 - o.y0, b.y1 - b.y0);
  const near = (o: Blob, b: Blob) => sameLine(o, b) && b.x0 - o.x1 <= LINE_JOIN * glyph && o.x0 - b.x1 <= LINE_JOIN * glyph;
  const boxes = across
    .flatMap((w) => linesIn(w, blobs, glyph))
    .map((bs) => ({ x0: Math.min(...bs.map((b) => b.x0)), y0: Math.min(...bs.map((b) => b.y0)), x1: Math.max(...bs.map((b) => b.x1)), y1: Math.max(...bs.map((b) => b.y1)) }))
    .sort((a, b) => a.x0 - b.x0);
  const out: Blob[] = [];
  for (const b of boxes) {
    const g = out.find((o) => near(o, b));
    if (g) growBox(g, b);
    else out.push({ ...b });
  }
  const beside = blobs.filter((b) => lettered(b, glyph));
  for (const g of out) {
    const taken = new Set<Blob>();
    const onLine = beside.filter((b) => sameLine(g, b));
    for (let more = true; more; ) {
      more = false;
      for (const w of onLine) {
        if (taken.has(w) || !near(g, w)) continue;
        taken.add(w);
        growBox(g, w);
        more = true;
      }
    }
  }
  return out.slice(0, MAX_LINES);
}

/**
 * At most this many crops a page: a page with more unread ink is a picture, not missed words…
 * unless the ink stands on the lines of words read (a table's column of figures that page layout
 * analysis dropped whole: 77 groups on a 150 dpi statistics page), where up to `MAX_ROW_CROPS` are read.
 */
const MAX_CROPS = 40;
const MAX_ROW_CROPS = 120;
/** Two groups of unread glyphs this close (× glyph height) with a point or comma between them are one number. */
const MARK_GAP = 1;
/** Unread groups on a line of words read may be this wide (× glyph height): a word or number of up to about eight characters. */
const ROW_GROUP_WIDTH = 6;
/** A line's crop keeps this much (× glyph height) above and below its glyphs' box. */
const MARK_REACH = 0.3;
/** Padding around a crop, in glyph heights (Tesseract wants white space around a word). */
const PAD = 0.6;

/**
 * Groups of unread glyph-sized ink blobs (`blobs`: the page's glyph components, labelled once),
 * merged when closer than half a glyph height.
 */
export function unreadGroups(blobs: Blob[], words: readonly Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'>[], glyph: number): Blob[] {
  const covered = (b: Blob) =>
    words.some((w) => b.x0 >= w.x0 - 3 && b.x1 <= w.x1 + 3 && b.y0 >= w.y0 - 3 && b.y1 <= w.y1 + 3);
  // Glyph-like only: between 0.6× and 1.6× the median height, so dust and pictures stay out.
  const candidates = blobs.filter((b) => {
    const h = b.y1 - b.y0 + 1;
    return h >= 0.6 * glyph && h <= 1.6 * glyph && !covered(b);
  });
  const groups: Blob[] = [];
  const gap = glyph * 0.5;
  const sameLine = (o: Blob, b: Blob) => Math.min(o.y1, b.y1) - Math.max(o.y0, b.y0) > 0.3 * glyph;
  for (const b of candidates.sort((p, q) => p.x0 - q.x0)) {
    const g = groups.find((o) => b.x0 - o.x1 <= gap && o.x0 - b.x1 <= gap && sameLine(o, b));
    if (g) growBox(g, b);
    else groups.push({ ...b });
  }
  // A decimal point or comma between two groups of digits joins them: the mark is no glyph-sized
  // blob, and the gap across it ("76,30") is wider than a letter's.
  const marks = blobs.filter((b) => b.y1 - b.y0 + 1 < 0.6 * glyph && b.x1 - b.x0 + 1 <= 0.5 * glyph && !covered(b));
  for (let i = 0; i < groups.length; i++) {
    const a = groups[i];
    const j = groups.findIndex((b, k) => k !== i && b.x0 > a.x1 && b.x0 - a.x1 <= MARK_GAP * glyph && sameLine(a, b) && marks.some((m) => m.x0 >= a.x1 && m.x1 <= b.x0 && m.y1 >= a.y1 - 0.3 * glyph && m.y0 <= a.y1 + 0.3 * glyph));
    if (j < 0) continue;
    growBox(a, groups[j]);
    groups.splice(j, 1);
    i = -1;
  }
  // On a line of words read: its middle within the height of a word of text size.
  const onRow = (g: Blob) => {
    const cy = (g.y0 + g.y1) / 2;
    return words.some((w) => cy > w.y0 && cy < w.y1 && w.y1 - w.y0 <= 2 * glyph);
  };
  // Groups that overlap a read word are parts of it (accents, split letters), not missed words.
  // Only short groups (up to ~3 glyphs wide): the lone numbers layout analysis drops. Longer
  // unread ink on ICDAR pages was mostly figure labels, which only added false cells (F1 0.752
  // without the second look, 0.735 with it unrestricted). On a line of words read, a column
  // that layout analysis dropped whole holds longer words too (a "Cargo" heading over "2.150,00").
  const found = groups
    .filter((g) => g.x1 - g.x0 + 1 <= 3 * glyph || (g.x1 - g.x0 + 1 <= ROW_GROUP_WIDTH * glyph && onRow(g)))
    .filter((g) => !words.some((w) => g.x0 < w.x1 && g.x1 > w.x0 && g.y0 < w.y1 && g.y1 > w.y0));
  if (found.length <= MAX_CROPS) return found;
  const rows = found.filter(onRow).slice(0, MAX_ROW_CROPS);
  return [...rows, ...found.filter((g) => !onRow(g)).slice(0, Math.max(0, MAX_CROPS - rows.length))];
}

/**
 * Crops `g` (with padding) out of the OCR image; returns the crop and its offset. With `clean`,
 * the padding is paper: a line's crop holds no rests of the lines above and below it.
 */
export function cropFor(img: GrayImage, g: Blob, glyph: number, clean = false): { crop: GrayImage; dx: number; dy: number } {
  const pad = Math.round(glyph * PAD);
  const x0 = Math.max(0, g.x0 - pad);
  const y0 = Math.max(0, g.y0 - pad);
  const crop = cropRect(img, x0, y0, g.x1 + pad + 1, g.y1 + pad + 1);
  if (clean) {
    // Marks below and above the line's glyphs (an underscore, a comma's tail) stay.
    const reach = Math.round(glyph * MARK_REACH);
    for (let y = 0; y < crop.height; y++) {
      const inside = y + y0 >= g.y0 - reach && y + y0 <= g.y1 + reach;
      for (let x = 0; x < crop.width; x++) if (!inside || x + x0 < g.x0 || x + x0 > g.x1) crop.data[y * crop.width + x] = 255;
    }
  }
  return { crop, dx: x0, dy: y0 };
}

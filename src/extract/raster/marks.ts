/**
 * Points and commas Tesseract drops. At 150–200 dpi the point of "7.9" is a blob of a few pixels,
 * and the recogniser often reads the number as "79" (or "n.a." as "na.") although the dot is
 * there in the ink. A word whose glyph blobs match its letters and digits one for one, and whose
 * box holds one more small blob on the baseline between two glyphs than the word has marks
 * there, gets that mark back: a point, or a comma when the blob reaches below the glyphs. Words
 * of digits (with a trailing `%`) qualify when they hold no mark yet (a number has one at most,
 * and a second blob beside it is a speck); words with letters only when they already hold a mark
 * (an abbreviation that lost one of its points), since a plain word has none to lose.
 *
 * A mark is ink of a point's size standing in the gap between two glyphs, with paper above it: a
 * speck of a pixel or two is smaller than a point, and a piece of a glyph that the binarisation
 * cut off (the lower end of the `3` of "138", which read "1.38", or of a `5`) shares its columns
 * with the rest of the glyph.
 */
import type { Component } from './text-size.js';
import type { OcrWord } from './tsv.js';

/** A mark is at most this share of the glyphs' height across, and (a comma with its tail) down. */
const MAX_MARK_WIDTH = 0.35;
const MAX_MARK_HEIGHT = 0.5;
/**
 * A mark is at least this share of the glyphs' height across and down: a point of 10 pt type at
 * 200 dpi is 3 px square against 19 px digits (0.16); specks of 1 px read as points.
 */
const MIN_MARK_SIZE = 0.1;
/** A mark's top is in the lower part of the glyphs: below this share of their height. */
const MARK_TOP = 0.55;
/** A comma reaches at least this share of the glyphs' height below their baseline. */
const COMMA_DROP = 0.12;

const MARK = /[.,]/;
const DIGIT_WORD = /^\d+%?$/;
const ABBREVIATION = /^(?=.*\p{L})[\p{L}\p{N}][\p{L}\p{N}.,]*$/u;
/**
 * Letters the recogniser reads for digits of figures whose point it missed (`4.7` read `AT`,
 * `7.4` read `7A`): a word of such letters and digits whose ink holds a decimal point is that
 * number.
 */
const DIGIT_FOR: Record<string, string> = { O: '0', o: '0', I: '1', l: '1', Z: '2', A: '4', S: '5', G: '6', T: '7', B: '8' };
const MISREAD_NUMBER = /^(?=.*[OoIlZASGTB])[\dOoIlZASGTB]+%?$/;

type Kind = 'number' | 'misread' | 'abbreviation';

function kindOf(text: string): Kind | null {
  const hasMark = MARK.test(text);
  if (DIGIT_WORD.test(text)) return hasMark ? null : 'number';
  if (MISREAD_NUMBER.test(text)) return 'misread';
  return ABBREVIATION.test(text) && hasMark ? 'abbreviation' : null;
}

/** The words, with points and commas restored where the ink shows one the text lacks. */
export function restoreMarks(words: OcrWord[], comps: Component[]): OcrWord[] {
  const byX = [...comps].sort((a, b) => a.x0 - b.x0);
  return words.map((w) => {
    const kind = kindOf(w.text);
    if (!kind) return w;
    const chars = [...w.text];
    const glyphCount = chars.filter((c) => !MARK.test(c)).length;
    const inside = boxIn(byX, w);
    // Glyphs by the tallest blob, not the box: some boxes reach far above or below the type.
    const h = Math.max(0, ...inside.map((c) => c.y1 - c.y0 + 1));
    const glyphs = inside.filter((c) => c.y1 - c.y0 + 1 >= 0.6 * h).sort((a, b) => a.x0 - b.x0);
    // A point the recogniser read as a digit ("1.1" read "141"): one glyph blob fewer than the
    // number's characters, none of them two figures wide, and a point in a gap.
    const pointRead = kind === 'number' && glyphs.length === glyphCount - 1 && glyphs.length >= 2 && !twoWide(glyphs);
    const units = pointRead ? glyphs.map(() => 1) : glyphUnits(glyphs, glyphCount, kind !== 'abbreviation');
    if (!units) return w;
    const top = Math.min(...glyphs.map((d) => d.y0));
    const base = Math.max(...glyphs.map((d) => d.y1));
    const dh = base - top + 1;
    const centre = (c: Component) => (c.x0 + c.x1) / 2;
    // Nothing but paper above or below a point: the lower end of a "5" cut off its bowl is a
    // blob of a point's size on the baseline too, but under the 5's top stroke.
    const speck = (c: Component) => c.x1 - c.x0 + 1 < MIN_MARK_SIZE * dh || c.y1 - c.y0 + 1 < MIN_MARK_SIZE * dh;
    const inGap = (m: Component) => inside.every((c) => c === m || speck(c) || Math.min(m.x1, c.x1) < Math.max(m.x0, c.x0));
    const isComma = (m: Component) => m.y1 >= base + COMMA_DROP * dh;
    // Marks between two glyphs, by how many glyphs stand before them; a number may begin with
    // its point (".2%").
    const first = kind === 'abbreviation' ? 1 : 0;
    const inkMarks = inside
      .filter((c) => {
        const cw = c.x1 - c.x0 + 1;
        const ch = c.y1 - c.y0 + 1;
        return cw <= MAX_MARK_WIDTH * dh && ch <= MAX_MARK_HEIGHT * dh && cw >= MIN_MARK_SIZE * dh && ch >= MIN_MARK_SIZE * dh && c.y0 >= top + MARK_TOP * dh && !glyphs.includes(c) && inGap(c);
      })
      .map((m) => ({ m, after: glyphs.reduce((n, d, i) => n + (centre(d) < centre(m) ? units[i] : 0), 0) }))
      .filter((k) => k.after >= first && k.after < glyphCount && !(k.after === 0 && isComma(k.m)));
    const textMarks: number[] = [];
    let before = 0;
    for (const c of chars) {
      if (!MARK.test(c)) before++;
      else if (before > 0 && before < glyphCount) textMarks.push(before);
    }
    if (pointRead) {
      const inner = inkMarks.filter((k) => k.after > 0 && k.after < glyphs.length);
      if (inkMarks.length !== 1 || inner.length !== 1 || !/\d/.test(chars[inner[0].after])) return w;
      const { m, after } = inner[0];
      return { ...w, text: chars.slice(0, after).join('') + (isComma(m) ? ',' : '.') + chars.slice(after + 1).join('') };
    }
    if (inkMarks.length !== textMarks.length + 1) return w;
    const missing = inkMarks.filter((k) => {
      const i = textMarks.indexOf(k.after);
      if (i < 0) return true;
      textMarks.splice(i, 1);
      return false;
    });
    if (missing.length !== 1) return w;
    const { m, after } = missing[0];
    const mark = isComma(m) ? ',' : '.';
    const read = kind === 'misread' ? chars.map((c) => DIGIT_FOR[c] ?? c) : chars;
    let seen = 0;
    const at = after === 0 ? -1 : read.findIndex((c) => !MARK.test(c) && ++seen === after);
    return { ...w, text: read.slice(0, at + 1).join('') + mark + read.slice(at + 1).join('') };
  });
}

/** A word that ends in a point or a comma after a letter, a figure or a closing sign. */
const TRAILING_MARK = /^(.*[\p{L}\p{N}%)])[.,]$/u;
/** A trailing mark stands within this share of the glyphs' height after the last glyph. */
const MARK_AFTER = 0.6;
/** A trailing mark's centre may stand this share of the glyphs' height inside the last glyph's box (an italic or kerned comma under the arm of a "T"). */
const MARK_OVERHANG = 0.15;
/**
 * A trailing comma is at most this share of the glyphs' height across and down: an italic comma
 * at 200 dpi is 5 px by 6 after capitals 14 px high, and 6 px high after lowercase letters 11 px high.
 */
const TRAILING_MARK_WIDTH = 0.5;
const TRAILING_MARK_HEIGHT = 0.7;

/**
 * The words, without a point or comma at their end where the ink shows none. Read enlarged or
 * in bold, the recogniser ends some figures with a mark that is not printed ("1993" of a
 * heading read "1993,", "2000" read "2000,"). Where the word's glyph blobs account for its
 * characters one for one (two touching figures as two), its last mark needs ink after the last
 * glyph, in the lower part of the line, no larger than a mark: a speck will do (a faded
 * receipt's decimal point is 2 px by 1, "85." of "85.54" read as two words); with none, it goes.
 */
export function dropPhantomMarks(words: OcrWord[], comps: Component[]): OcrWord[] {
  const byX = [...comps].sort((a, b) => a.x0 - b.x0);
  return words.map((w) => {
    const m = TRAILING_MARK.exec(w.text);
    if (!m || MARK.test(m[1].slice(-1))) return w;
    const count = [...m[1]].filter((c) => !MARK.test(c)).length;
    const own = boxIn(byX, w);
    const h = Math.max(0, ...own.map((c) => c.y1 - c.y0 + 1));
    const glyphs = own.filter((c) => c.y1 - c.y0 + 1 >= 0.6 * h).sort((a, b) => a.x0 - b.x0);
    const figures = /^[\d.,%]+$/.test(m[1]);
    if (glyphs.length === 0 || !(figures ? glyphUnits(glyphs, count, true) : glyphs.length === count)) return w;
    const top = Math.min(...glyphs.map((d) => d.y0));
    const base = Math.max(...glyphs.map((d) => d.y1));
    const dh = base - top + 1;
    // Glyphs much lower than the word's line are no letters to judge by.
    if (dh < 0.5 * w.lineHeight) return w;
    const last = glyphs[glyphs.length - 1];
    // Letter-sized ink right of the last glyph blob: the blobs did not account for the word after all.
    if (own.some((c) => !glyphs.includes(c) && c.x0 > last.x1 && c.y1 - c.y0 + 1 >= 0.4 * h)) return w;
    // The mark may stand just past the box the reading gave; the next word's glyphs are no mark.
    const mark = boxIn(byX, { ...w, x1: w.x1 + MARK_AFTER * dh }).some((c) => {
      const cw = c.x1 - c.x0 + 1;
      const ch = c.y1 - c.y0 + 1;
      return ch < 0.6 * h && (c.x0 + c.x1) / 2 > last.x1 - MARK_OVERHANG * dh && c.x0 <= last.x1 + MARK_AFTER * dh && cw <= TRAILING_MARK_WIDTH * dh && ch <= TRAILING_MARK_HEIGHT * dh && c.y0 >= top + MARK_TOP * dh;
    });
    return mark ? w : { ...w, text: m[1] };
  });
}

/**
 * How many characters each glyph blob holds: one each when they match the word's count; two
 * figures that touch ("44" of "44.3" as one blob) hold as many as their width makes of the
 * word's mean glyph width (`split`: figures, which are set on equal widths). Null when the
 * blobs do not account for the word's characters.
 */
function glyphUnits(glyphs: Component[], count: number, split: boolean): number[] | null {
  if (glyphs.length === count) return glyphs.map(() => 1);
  if (!split || glyphs.length === 0 || glyphs.length > count || !twoWide(glyphs)) return null;
  const widths = glyphs.map((g) => g.x1 - g.x0 + 1);
  const mean = widths.reduce((a, b) => a + b, 0) / count;
  const units = widths.map((x) => Math.max(1, Math.round(x / mean)));
  if (widths.some((x, i) => Math.abs(x / mean - units[i]) > SPLIT_SLACK)) return null;
  return units.reduce((a, b) => a + b, 0) === count ? units : null;
}

/** A blob this much wider than the narrowest glyph beside it is two figures that touch. */
const TWO_WIDE = 1.6;
/** A blob's width is within this share of a glyph of a whole number of glyphs. */
const SPLIT_SLACK = 0.3;

/** Whether one of the blobs is two figures wide (a lone blob is judged by nothing). */
function twoWide(glyphs: Component[]): boolean {
  const widths = glyphs.map((g) => g.x1 - g.x0 + 1);
  return widths.some((x, i) => widths.some((y, j) => j !== i && x >= TWO_WIDE * y));
}

/**
 * Dashes by their length. Tesseract reads the en dash of a range ("Q2 2006 – Q1 2010") as an em
 * dash at 200 dpi, where the two differ by a dozen pixels: an en dash is half an em, an em dash
 * a whole one, and a text line's box is 0.7 to 1 em high (digits and capitals up to ascenders
 * and descenders), so a dash word narrower than 0.85 of its line is an en dash, a wider one an
 * em dash. Only a dash read on its own, whose box is its ink, and on a line much taller than it.
 */
const EN_DASH_MAX = 0.85;
const DASH = /^[–—]$/;
export function dashesByLength(words: OcrWord[]): OcrWord[] {
  return words.map((w) => {
    if (!DASH.test(w.text) || w.lineHeight < 3 * (w.y1 - w.y0 + 1)) return w;
    const text = w.x1 - w.x0 < EN_DASH_MAX * w.lineHeight ? '–' : '—';
    return text === w.text ? w : { ...w, text };
  });
}

/** A number with one mark and one or two digits after it: the mark can only be a decimal one. */
const DECIMAL = /^([^\d.,]{0,2}\d+)([.,])(\d{1,2}[^\d.,]{0,4})$/;
/** The page's decimal mark: at least this many such numbers, and this share of them agree. */
const MIN_DECIMALS = 6;
const AGREE = 0.8;

/**
 * At 150–200 dpi a point and a comma differ by a few pixels of tail, and the recogniser reads
 * some points of a page as commas ("17,1" among "24.7" and "40.5"). A page prints its decimals
 * one way, so where most of its decimals agree, the few others take the page's mark. Thousands
 * separators are left alone: they have three digits after them.
 */
export function agreeDecimalMarks<T extends { text: string }>(words: T[]): T[] {
  const marks = words.map((w) => DECIMAL.exec(w.text)?.[2]);
  const points = marks.filter((m) => m === '.').length;
  const commas = marks.filter((m) => m === ',').length;
  if (points + commas < MIN_DECIMALS) return words;
  const mark = points >= AGREE * (points + commas) ? '.' : commas >= AGREE * (points + commas) ? ',' : null;
  if (!mark) return words;
  return words.map((w, i) => (marks[i] && marks[i] !== mark ? { ...w, text: w.text.replace(DECIMAL, `$1${mark}$3`) } : w));
}

/** Components whose box lies within the word's box (a pixel of slack; below, room for a comma's tail). */
function boxIn(byX: Component[], w: OcrWord): Component[] {
  const below = w.y1 + Math.max(2, 0.4 * (w.y1 - w.y0));
  let lo = 0;
  let hi = byX.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byX[mid].x0 < w.x0 - 1) lo = mid + 1;
    else hi = mid;
  }
  const out: Component[] = [];
  for (let i = lo; i < byX.length && byX[i].x0 <= w.x1; i++) {
    const c = byX[i];
    if (c.x1 <= w.x1 + 1 && c.y0 >= w.y0 - 1 && c.y1 <= below) out.push(c);
  }
  return out;
}

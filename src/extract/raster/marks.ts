/**
 * Points and commas Tesseract drops. At 150–200 dpi the point of "7.9" is a blob of a few pixels,
 * and the recogniser often reads the number as "79" (or "n.a." as "na.") although the dot is
 * there in the ink. A word whose glyph blobs match its letters and digits one for one, and whose
 * box holds one more small blob on the baseline between two glyphs than the word has marks
 * there, gets that mark back: a point, or a comma when the blob reaches below the glyphs. Words
 * of digits (with a trailing `%`) qualify when they hold no mark yet (a number has one at most,
 * and a second blob beside it is a speck); words with letters only when they already hold a mark
 * (an abbreviation that lost one of its points), since a plain word has none to lose.
 */
import type { Component } from './text-size.js';
import type { OcrWord } from './tsv.js';

/** A mark is at most this share of the glyphs' height across, and (a comma with its tail) down. */
const MAX_MARK_WIDTH = 0.35;
const MAX_MARK_HEIGHT = 0.5;
/** A mark's top is in the lower part of the glyphs: below this share of their height. */
const MARK_TOP = 0.55;
/** A comma reaches at least this share of the glyphs' height below their baseline. */
const COMMA_DROP = 0.12;

const MARK = /[.,]/;
const DIGIT_WORD = /^\d+%?$/;
const ABBREVIATION = /^(?=.*\p{L})[\p{L}\p{N}][\p{L}\p{N}.,]*$/u;

/** The words, with points and commas restored where the ink shows one the text lacks. */
export function restoreMarks(words: OcrWord[], comps: Component[]): OcrWord[] {
  const byX = [...comps].sort((a, b) => a.x0 - b.x0);
  return words.map((w) => {
    const hasMark = MARK.test(w.text);
    if (DIGIT_WORD.test(w.text) ? hasMark : !(ABBREVIATION.test(w.text) && hasMark)) return w;
    const chars = [...w.text];
    const glyphCount = chars.filter((c) => !MARK.test(c)).length;
    const inside = boxIn(byX, w);
    const h = w.y1 - w.y0;
    const glyphs = inside.filter((c) => c.y1 - c.y0 + 1 >= 0.6 * h);
    if (glyphs.length !== glyphCount) return w;
    const top = Math.min(...glyphs.map((d) => d.y0));
    const base = Math.max(...glyphs.map((d) => d.y1));
    const dh = base - top + 1;
    const centre = (c: Component) => (c.x0 + c.x1) / 2;
    // Marks between two glyphs, by how many glyphs stand before them.
    const inkMarks = inside
      .filter((c) => c.x1 - c.x0 + 1 <= MAX_MARK_WIDTH * dh && c.y1 - c.y0 + 1 <= MAX_MARK_HEIGHT * dh && c.y0 >= top + MARK_TOP * dh && !glyphs.includes(c))
      .map((m) => ({ m, after: glyphs.filter((d) => centre(d) < centre(m)).length }))
      .filter((k) => k.after > 0 && k.after < glyphCount);
    const textMarks: number[] = [];
    let before = 0;
    for (const c of chars) {
      if (!MARK.test(c)) before++;
      else if (before > 0 && before < glyphCount) textMarks.push(before);
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
    const mark = m.y1 >= base + COMMA_DROP * dh ? ',' : '.';
    let seen = 0;
    const at = chars.findIndex((c) => !MARK.test(c) && ++seen === after);
    return { ...w, text: chars.slice(0, at + 1).join('') + mark + chars.slice(at + 1).join('') };
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

/**
 * Decimal marks Tesseract drops. At 150–200 dpi the point of "7.9" is a blob of a few pixels, and
 * the recogniser often reads the number as "79" although the dot is there in the ink. A word of
 * digits only whose box holds, between two of its digit blobs, one small blob sitting on the
 * baseline gets its mark back: a point, or a comma when the blob reaches below the digits.
 */
import type { Component } from './text-size.js';
import type { OcrWord } from './tsv.js';

/** A mark is at most this share of the digits' height across, and (a comma with its tail) down. */
const MAX_MARK_WIDTH = 0.35;
const MAX_MARK_HEIGHT = 0.5;
/** A mark's top is in the lower part of the digits: below this share of their height. */
const MARK_TOP = 0.55;
/** A comma reaches at least this share of the digits' height below their baseline. */
const COMMA_DROP = 0.12;

/** The words, with points and commas restored in digit-only words where the ink shows one. */
export function restoreMarks(words: OcrWord[], comps: Component[]): OcrWord[] {
  const byX = [...comps].sort((a, b) => a.x0 - b.x0);
  return words.map((w) => {
    if (!/^\d{2,}$/.test(w.text)) return w;
    const inside = boxIn(byX, w);
    const h = w.y1 - w.y0;
    const digits = inside.filter((c) => c.y1 - c.y0 + 1 >= 0.6 * h);
    if (digits.length !== w.text.length) return w;
    const top = Math.min(...digits.map((d) => d.y0));
    const base = Math.max(...digits.map((d) => d.y1));
    const dh = base - top + 1;
    const marks = inside.filter(
      (c) => c.x1 - c.x0 + 1 <= MAX_MARK_WIDTH * dh && c.y1 - c.y0 + 1 <= MAX_MARK_HEIGHT * dh && c.y0 >= top + MARK_TOP * dh && !digits.includes(c),
    );
    if (marks.length !== 1) return w;
    const m = marks[0];
    const after = digits.filter((d) => (d.x0 + d.x1) / 2 < (m.x0 + m.x1) / 2).length;
    if (after === 0 || after === digits.length) return w;
    const mark = m.y1 >= base + COMMA_DROP * dh ? ',' : '.';
    return { ...w, text: w.text.slice(0, after) + mark + w.text.slice(after) };
  });
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

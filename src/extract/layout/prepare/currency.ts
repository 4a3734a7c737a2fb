/**
 * A currency sign set apart from its amount ("$    443", the sign flush left in its column and
 * the figure right-aligned) is part of the amount's cell, not a cell or a column of its own, and
 * not the end of the label before it ("Net income $"). Such a sign alone as a word joins the
 * figure that follows it on its line.
 */
import type { Word } from '../../types.js';
import { isCurrencySign } from '../../locale/numbers.js';
/** An amount: a figure, a bracketed or signed one, or a dash standing for nothing. */
const AMOUNT = /^([(\-–—−]?\d|[-–—]$)/u;
/**
 * The sign stands at most this far (× font size) left of its amount: a short figure at the right of
 * a wide column of a statement stands 4-5 em from its sign (`$` flush left, `3,533` flush right).
 */
const SIGN_GAP_EM = 8;

/** The words with each lone currency sign joined to the amount after it. */
export function withSignsJoined(words: Word[]): Word[] {
  const joined = new Map<Word, Word>();
  const used = new Set<Word>();
  for (const s of words) {
    if (!isCurrencySign(s.text)) continue;
    const cy = (s.y0 + s.y1) / 2;
    let next: Word | null = null;
    for (const w of words) {
      if (w === s || w.x0 < s.x1 - 0.1 * s.size || cy < w.y0 || cy > w.y1) continue;
      if (!next || w.x0 < next.x0) next = w;
    }
    if (!next || used.has(next) || !AMOUNT.test(next.text) || next.x0 - s.x1 > SIGN_GAP_EM * Math.max(s.size, next.size)) continue;
    used.add(next);
    joined.set(s, {
      ...next,
      text: `${s.text} ${next.text}`,
      x0: s.x0,
      y0: Math.min(s.y0, next.y0),
      y1: Math.max(s.y1, next.y1),
      confidence: s.confidence === null || next.confidence === null ? null : Math.min(s.confidence, next.confidence),
    });
  }
  return words.flatMap((w) => (used.has(w) ? [] : [joined.get(w) ?? w]));
}

/**
 * Relative glyph widths for placing words inside a text run. pdf.js gives a run's total advance
 * but not its glyphs', and merges neighbouring draws into one run ("001342 AB" from two cells
 * 4 pt apart). Spreading the advance by typical proportions — Helvetica's advance widths, the
 * metric most Latin text fonts stay near — puts word edges within a fraction of a point where
 * an even spread is off by several points beside narrow glyphs (".", "1", "i").
 */

// Helvetica advance widths (1/1000 em) of U+0020..U+007E.
const ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** A character's typical advance width in em. */
export function relativeWidth(ch: string): number {
  const code = ch.codePointAt(0) ?? 0x20;
  if (code >= 0x20 && code <= 0x7e) return ASCII[code - 0x20] / 1000;
  if (/\s/u.test(ch)) return 0.278;
  // CJK, kana and full-width forms are square.
  if (/[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch)) return 1;
  return 0.556;
}

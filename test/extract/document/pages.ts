/** Pages of words laid out as text lines (5 pt a character, 14 pt a line), for the document tests. */
import type { PageLayout, Word } from '../../../src/extract/types.js';

/** A page whose lines are given as text; `  ` (two spaces or more) is a wide gap, `|x|` a column at x. */
export function textPage(lines: string[], page = 1): PageLayout {
  const words: Word[] = [];
  lines.forEach((line, i) => {
    let x = 50;
    for (const part of line.split(/( {2,})/)) {
      if (/^ {2,}$/.test(part)) {
        x += part.length * 10;
        continue;
      }
      for (const t of part.split(' ').filter(Boolean)) {
        words.push({ text: t, x0: x, y0: 40 + i * 14, x1: x + t.length * 5, y1: 50 + i * 14, size: 10, confidence: null });
        x += t.length * 5 + 3;
      }
    }
  });
  return { page, width: 595, height: 842, words, rulings: [] };
}

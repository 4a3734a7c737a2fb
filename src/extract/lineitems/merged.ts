/**
 * Two or more item lines the table detector put in one row: each figure cell holds one number a
 * line (`10.00\n10.00`) and no cell reads as one number. Such a row is split into one row per
 * figure; the text cells' lines go to the figure they stand beside on the page, or, without the
 * page's words, one line each when the counts agree.
 */
import type { BBox, PageLayout, Word } from '../types.js';
import { textLines, unionBox } from '../locale/lines.js';

/** One row of texts (one per column) and the boxes its cells cover. */
export interface SplitRow {
  texts: string[];
  boxes: BBox[];
}

const linesOf = (t: string) => t.split('\n').map((l) => l.trim()).filter(Boolean);

/**
 * `texts` split into one row per line of its figure column `key`, or null when the row is not
 * several items: the key cell must hold two numbers or more, one a line, and every other figure
 * cell as many or none. `words` are the page's words; `cellBox(c)` the box of column c's cell.
 */
export function splitMergedRow(
  texts: string[],
  key: number,
  figureCols: number[],
  isNumber: (text: string, col: number) => boolean,
  cellBox: (col: number) => BBox | null,
  page: PageLayout | undefined,
): SplitRow[] | null {
  const keyLines = linesOf(texts[key] ?? '');
  const k = keyLines.length;
  if (k < 2 || isNumber(texts[key]!, key) || !keyLines.every((l) => isNumber(l, key))) return null;
  for (const c of figureCols) {
    const n = linesOf(texts[c] ?? '');
    if (n.length && (n.length !== k || !n.every((l) => isNumber(l, c)))) return null;
  }
  // The tops of the figure lines on the page, when the page's words show them.
  const keyBox = cellBox(key);
  const keyWords = keyBox && page ? lineWords(page.words, keyBox) : [];
  const tops = keyWords.length === k ? keyWords.map((l) => Math.min(...l.map((w) => w.y0))) : null;
  const out: SplitRow[] = Array.from({ length: k }, () => ({ texts: texts.map(() => ''), boxes: [] }));
  texts.forEach((t, c) => {
    const lines = linesOf(t);
    if (!lines.length) return;
    const box = cellBox(c);
    const own = box && page ? lineWords(page.words, box) : [];
    if (tops && own.length === lines.length) {
      // Each line goes to the last figure line that starts above it (half a line of slack).
      for (const lw of own) {
        const y = Math.min(...lw.map((w) => w.y0));
        const h = Math.max(...lw.map((w) => w.y1 - w.y0));
        let i = 0;
        while (i + 1 < k && tops[i + 1]! <= y + h / 2) i++;
        const r = out[i]!;
        const text = lw.map((w) => w.text).join(' ');
        r.texts[c] = r.texts[c] ? `${r.texts[c]}\n${text}` : text;
        r.boxes.push(unionBox(lw.map(boxOf)));
      }
      return;
    }
    // Without positions: one line each when the counts agree, else in order, the first item taking the remainder.
    const per = Math.floor(lines.length / k);
    const extra = lines.length - per * k;
    let at = 0;
    for (let i = 0; i < k; i++) {
      const n = per + (i === 0 ? extra : 0);
      out[i]!.texts[c] = lines.slice(at, at + n).join('\n');
      at += n;
      if (box && n) out[i]!.boxes.push(box);
    }
  });
  return out;
}

const boxOf = (w: Word): BBox => [w.x0, w.y0, w.x1, w.y1];

/** The words whose centre lies in `box`, as lines top to bottom. */
function lineWords(words: Word[], box: BBox): Word[][] {
  const inside = words.filter((w) => {
    const cx = (w.x0 + w.x1) / 2;
    const cy = (w.y0 + w.y1) / 2;
    return cx >= box[0] - 0.5 && cx <= box[2] + 0.5 && cy >= box[1] - 0.5 && cy <= box[3] + 0.5;
  });
  return textLines(inside);
}

/**
 * Chinese and Japanese are written without spaces, but Tesseract returns a line of them as
 * several "words" (「コピ」「ー」「用」「紙」), a fragment sometimes boxed a few pixels higher than
 * its neighbours. Joined with spaces, or sorted as an earlier line, they make "クラ デス イト" of
 * デスクライト. Here neighbouring CJK fragments on one line become one word again.
 */
import type { OcrWord } from './tsv.js';

/** Han, kana (with the prolonged sound mark), CJK punctuation and full-width forms. */
const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/** Fragments up to a line height apart are one word (Tesseract boxes some kana short by half a glyph); cells are further apart. */
const MAX_GAP_LINES = 1;

const overlapY = (a: OcrWord, b: OcrWord) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0);

/** The words with neighbouring CJK fragments of a line joined, left to right. */
export function joinCjk(words: OcrWord[]): OcrWord[] {
  if (!words.some((w) => CJK.test(w.text))) return words;
  const sorted = [...words].sort((a, b) => a.x0 - b.x0);
  const out: OcrWord[] = [];
  const open: OcrWord[] = [];
  for (const w of sorted) {
    const prev = CJK.test(w.text[0]) ? open.find((o) => o.image === w.image && overlapY(o, w) && CJK.test(o.text[o.text.length - 1])) : undefined;
    if (prev && w.x0 - prev.x1 <= MAX_GAP_LINES * Math.max(prev.lineHeight, w.lineHeight)) {
      prev.text += w.text;
      prev.x1 = Math.max(prev.x1, w.x1);
      prev.y0 = Math.min(prev.y0, w.y0);
      prev.y1 = Math.max(prev.y1, w.y1);
      prev.confidence = Math.min(prev.confidence, w.confidence);
      prev.lineHeight = Math.max(prev.lineHeight, w.lineHeight);
      continue;
    }
    const copy = { ...w };
    // A word further right on the same line closes the run it would have continued.
    for (let i = open.length - 1; i >= 0; i--) if (open[i].image === w.image && overlapY(open[i], w)) open.splice(i, 1);
    open.push(copy);
    out.push(copy);
  }
  return out;
}

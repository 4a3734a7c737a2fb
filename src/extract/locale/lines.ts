/**
 * The one way words become text lines, for every reader of the document (fields, line items,
 * summary rows): words whose vertical centres fall within one another's extent, left to right;
 * with each line's normalised lower-case text and where each word starts in it.
 */
import type { BBox, PageLayout, Word } from '../types.js';
import { normalizeText } from './numbers.js';

/** The box around `boxes` (all zero for none). */
export function unionBox(boxes: BBox[]): BBox {
  if (boxes.length === 0) return [0, 0, 0, 0];
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** Text lines of `words`: words whose vertical centres fall within one another's extent, left to right. */
export function textLines(words: Word[]): Word[][] {
  const sorted = [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  const lines: { y0: number; y1: number; words: Word[] }[] = [];
  for (const w of sorted) {
    const mid = (w.y0 + w.y1) / 2;
    const line = lines.find((l) => mid >= l.y0 && mid <= l.y1);
    if (line) {
      line.words.push(w);
      line.y0 = Math.min(line.y0, w.y0);
      line.y1 = Math.max(line.y1, w.y1);
    } else lines.push({ y0: w.y0, y1: w.y1, words: [w] });
  }
  return lines.map((l) => l.words.sort((a, b) => a.x0 - b.x0));
}

/** One text line: its words left to right, their text joined by single spaces (lower-cased, NFKC), and where each word starts in it. */
export interface TextLine {
  page: number;
  /** Index of the line on its page, top to bottom. */
  index: number;
  words: Word[];
  /** Normalised, lower-cased text of the line. */
  lower: string;
  starts: number[];
  bbox: BBox;
}

/** Lines of every page, top to bottom, pages in order. */
export function documentLines(pages: PageLayout[]): TextLine[] {
  const out: TextLine[] = [];
  for (const p of pages) {
    textLines(p.words).forEach((words, index) => {
      const starts: number[] = [];
      let lower = '';
      for (const w of words) {
        if (lower) lower += ' ';
        starts.push(lower.length);
        lower += normalizeText(w.text).toLowerCase();
      }
      out.push({ page: p.page, index, words, lower, starts, bbox: box(words) });
    });
  }
  return out;
}

export const box = (words: Word[]): BBox => unionBox(words.map((w) => [w.x0, w.y0, w.x1, w.y1]));

/** How surely OCR read `words`: their mean confidence (1 on a text layer, where none has one). */
export function inkOf(words: Word[]): number {
  const c = words.filter((w) => w.confidence !== null).map((w) => w.confidence!);
  return c.length ? c.reduce((a, b) => a + b, 0) / c.length : 1;
}

/** The text of `words` joined by spaces, normalised. */
export function joinWords(words: Word[]): string {
  return normalizeText(words.map((w) => w.text).join(' '));
}

/** Runs of words of `l` with no gap wider than twice the type size: a two-column head's blocks. */
export function blocks(l: TextLine): Word[][] {
  const out: Word[][] = [];
  for (const w of l.words) {
    const last = out[out.length - 1];
    const prev = last?.[last.length - 1];
    if (prev && w.x0 - prev.x1 <= 2 * Math.max(w.size, prev.size)) last!.push(w);
    else out.push([w]);
  }
  return out;
}

/**
 * The text lines of a document with their words' boxes, and the words that follow a label on
 * its line (or, when nothing does, below it): what every field reader works on.
 */
import type { BBox, PageLayout, Word } from '../types.js';
import { textLines } from '../lineitems/summary.js';
import { normalizeText } from '../lineitems/numbers.js';
import { unionBox } from '../lineitems/grid.js';

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

/** The words of `line` from its character offset `from` up to `to` (a word cut at `from` keeps its tail). */
function wordsBetween(line: TextLine, from: number, to: number): Word[] {
  const out: Word[] = [];
  line.words.forEach((w, i) => {
    const s = line.starts[i]!;
    if (s >= to) return;
    const text = normalizeText(w.text);
    if (s >= from) out.push(w);
    else if (s + text.length > from) out.push({ ...w, text: text.slice(from - s), x0: w.x0 + ((w.x1 - w.x0) * (from - s)) / text.length });
  });
  return out;
}

/** Punctuation and number words that sit between a label and its value (`:`, `#`, `No.`, `Nº`). */
const LEAD = /^([:：#.\-–]+|n[º°o]\.?|nr\.?|no\.?|num\.?|number|nummer|número|numéro)$/i;

/**
 * The value words after a label that ends at character `end` of `line`: up to the next label
 * (`stops`, character offsets) or a gap wider than three letters; when the label (from `start`)
 * ends its line, the words below it on the next line.
 */
export function valueAfter(line: TextLine, start: number, end: number, stops: number[], lines: TextLine[]): { words: Word[]; below: boolean } {
  const next = Math.min(...stops.filter((s) => s >= end), Infinity);
  let words = wordsBetween(line, end, next).map((w) => ({ ...w, text: w.text.replace(/^[:：]\s*/, '') })).filter((w) => w.text);
  while (words.length && LEAD.test(words[0]!.text)) words = words.slice(1);
  const cut: Word[] = [];
  for (const w of words) {
    const prev = cut[cut.length - 1];
    if (prev && w.x0 - prev.x1 > 3 * Math.max(w.size, prev.size) * 0.5) break;
    cut.push(w);
  }
  if (cut.length) return { words: cut, below: false };
  const labelWords = line.words.filter((w, i) => line.starts[i]! < end && line.starts[i]! + normalizeText(w.text).length > start);
  const x0 = labelWords.length ? labelWords[0]!.x0 : line.bbox[0];
  const under = lines.find((l) => l.page === line.page && l.index === line.index + 1);
  if (!under || under.bbox[1] - line.bbox[3] > 2 * (line.bbox[3] - line.bbox[1])) return { words: [], below: true };
  const below: Word[] = [];
  for (const w of under.words) {
    if (w.x1 < x0 - 2) continue;
    const prev = below[below.length - 1];
    if (prev && w.x0 - prev.x1 > 1.5 * w.size) break;
    if (!prev && w.x0 > x0 + 120) break;
    below.push(w);
  }
  return { words: below, below: true };
}

/** The text of `words` joined by spaces, normalised. */
export function joinWords(words: Word[]): string {
  return normalizeText(words.map((w) => w.text).join(' '));
}

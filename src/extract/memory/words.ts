/**
 * The page words vendor memory works on: kept compact beside a result (`StoredPage`), and
 * grouped into lines here, apart from the field readers' own line code, so what a memory learned
 * from stored words reads the same on a new document's pages.
 */
import { DATE_FIELDS, MONEY_FIELDS, type BBox, type PageLayout, type StoredPage, type ValueKind } from '../types.js';
import { editDistance } from '../edit-distance.js';

export interface MWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One line of a page: its words left to right. */
export interface MLine {
  page: number;
  /** 0-based, top to bottom. */
  index: number;
  words: MWord[];
}

/** Pages a correction may point at: the first and the last (a field is in the head or the foot). */
export function keepWords(layouts: PageLayout[]): StoredPage[] {
  const picked = layouts.length > 1 ? [layouts[0]!, layouts[layouts.length - 1]!] : layouts;
  const r = (v: number) => Math.round(v * 10) / 10;
  return picked.map((p) => ({
    page: p.page,
    width: r(p.width),
    height: r(p.height),
    words: p.words.filter((w) => !w.rotation).map((w) => [w.text, r(w.x0), r(w.y0), r(w.x1), r(w.y1)] as [string, number, number, number, number]),
  }));
}

/** Lower-case letters and digits, every other run one space. */
export const norm = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The page's words in lines: a word joins the line its vertical middle falls in. */
export function pageLines(p: StoredPage): MLine[] {
  const words = p.words.map(([text, x0, y0, x1, y1]) => ({ text, x0, y0, x1, y1 })).sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const lines: { y0: number; y1: number; words: MWord[] }[] = [];
  for (const w of words) {
    const mid = (w.y0 + w.y1) / 2;
    const line = lines.find((l) => mid >= l.y0 && mid <= l.y1 && Math.abs(l.y1 - l.y0 - (w.y1 - w.y0)) < 2 * Math.max(l.y1 - l.y0, w.y1 - w.y0));
    if (line) {
      line.words.push(w);
      line.y0 = Math.min(line.y0, w.y0);
      line.y1 = Math.max(line.y1, w.y1);
    } else lines.push({ y0: w.y0, y1: w.y1, words: [w] });
  }
  lines.sort((a, b) => a.y0 - b.y0);
  return lines.map((l, index) => ({ page: p.page, index, words: l.words.sort((a, b) => a.x0 - b.x0) }));
}

/** A piece of an amount OCR split at the printer's wide spacing (`1 6 . 00`). */
const AMOUNT_PIECE = /^[\d.,]{1,3}$/;
const SPLIT_AMOUNT = /^\d{1,4}[.,]\d{2}$/;

/**
 * The lines with an amount that OCR read as pieces (`TOTAL 1 6 . 00`, `CHANGE 0 . 00`) made one
 * word again: two or more short runs of digits and marks, less than a line's height apart, that
 * together read as an amount with its cents.
 */
export function joinSplitAmounts(lines: MLine[]): MLine[] {
  return lines.map((line) => {
    const out: MWord[] = [];
    const ws = line.words;
    for (let i = 0; i < ws.length; i++) {
      let joined: MWord | null = null;
      for (let j = i + 1; j < ws.length && AMOUNT_PIECE.test(ws[j]!.text) && AMOUNT_PIECE.test(ws[i]!.text); j++) {
        if (ws[j]!.x0 - ws[j - 1]!.x1 > Math.max(ws[j]!.y1 - ws[j]!.y0, ws[j - 1]!.y1 - ws[j - 1]!.y0)) break;
        const text = ws.slice(i, j + 1).map((w) => w.text).join('');
        if (SPLIT_AMOUNT.test(text)) {
          joined = { text, x0: ws[i]!.x0, y0: Math.min(...ws.slice(i, j + 1).map((w) => w.y0)), x1: ws[j]!.x1, y1: Math.max(...ws.slice(i, j + 1).map((w) => w.y1)) };
          i = j;
          break;
        }
      }
      out.push(joined ?? ws[i]!);
    }
    return out.length === ws.length ? line : { ...line, words: out };
  });
}

export const boxOf = (words: MWord[]): BBox => [Math.min(...words.map((w) => w.x0)), Math.min(...words.map((w) => w.y0)), Math.max(...words.map((w) => w.x1)), Math.max(...words.map((w) => w.y1))];

const NUMBERS: ReadonlySet<string> = new Set(MONEY_FIELDS);
const DATES: ReadonlySet<string> = new Set(DATE_FIELDS);

/** The kind of a field key (`total`, `custom.po_number`), custom ones by their declared type (`amount` is a number). */
export function kindOf(key: string, customType?: string): ValueKind {
  if (customType) return customType === 'number' || customType === 'amount' ? 'number' : customType === 'date' ? 'date' : 'text';
  return NUMBERS.has(key) ? 'number' : DATES.has(key) ? 'date' : 'text';
}

/** Edit-distance similarity 0–1 of two normalised strings. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!a.length || !b.length) return 0;
  return 1 - editDistance(a, b) / Math.max(a.length, b.length);
}

/** The character trigrams of words, each word padded with a space: what two OCR readings of the same words mostly share when whole words differ (`sdn`/`son`). */
export function trigrams(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words) {
    const p = ` ${w} `;
    for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3));
  }
  return out;
}

/** How many of `a` are in `b`, over the size of `a` (0 when `a` is empty). */
export function containment(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return a.size ? n / a.size : 0;
}

/** Jaccard similarity of two sets. */
export function jaccard(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n / Math.max(1, a.size + b.size - n);
}

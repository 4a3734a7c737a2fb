/**
 * Text lines and chunks. A line is words that overlap vertically; a chunk is a run of words in a
 * line separated by less than a column gap. Both table detectors work on chunks.
 */
import type { TextBox, Word } from '../../types.js';
import { endsInLeader } from './leaders.js';
import { median } from '../../geometry.js';
import { pass } from '../../passes.js';

/** A gap wider than this (× font size) separates chunks: word spaces, even justified, stay under ~0.5 em. */
export const CHUNK_GAP_EM = 0.6;

/** A run of a line's words closer than a column gap: its box and its words' median size. */
export interface Chunk extends TextBox {
  words: Word[];
  text: string;
}

/** Words on one line (vertical spans overlapping), left to right, and their chunks. */
export interface TextLine extends TextBox {
  words: Word[];
  chunks: Chunk[];
}

function chunkOf(words: Word[]): Chunk {
  return {
    words,
    text: words.map((w) => w.text).join(' '),
    x0: Math.min(...words.map((w) => w.x0)),
    y0: Math.min(...words.map((w) => w.y0)),
    x1: Math.max(...words.map((w) => w.x1)),
    y1: Math.max(...words.map((w) => w.y1)),
    size: median(words.map((w) => w.size)),
  };
}

/** Column gaps this wide (× font size) always separate chunks, however spaced the line is. */
const WIDE_GAP_EM = 1.5;
/** A gap must also be this many times the line's narrowest word gap: justification stretches all gaps alike. */
const STRETCH = 1.6;

/** A run of this many words or more… */
const FIGURE_RUN_WORDS = 3;
/** …this share of which hold a digit is a run of figures ("CAFE EXPRESSO 10.00 2 20.00" is not). */
const FIGURE_RUN_SHARE = 0.75;

/** Words that are a run of figures, not a phrase: "15 24 34 45 56 67", "3 (33) (4384 BF 90 104". */
export const figureRun = (words: Word[]) => words.length >= FIGURE_RUN_WORDS && words.filter((w) => /\d/.test(w.text)).length >= FIGURE_RUN_SHARE * words.length;

/**
 * Splits a line's words (sorted by x) into chunks at column-sized gaps. A justified line spaces
 * every word ~0.7 em apart, so a gap splits only when it is also well above the line's narrowest
 * gap (a table row's word spaces stay ~0.3 em while its column gaps can be 0.9 em: an 8 pt gap
 * at 9 pt in the German invoice fixture); gaps over 1.5 em always split. A line with a dot
 * leader is not justified: its column gaps split, and so does any gap after the leader. Gaps are
 * measured against `minSize` at least.
 */
export function chunksOf(words: Word[], gapEm = CHUNK_GAP_EM, minSize = 0): Chunk[] {
  const out: Chunk[] = [];
  let cur: Word[] = [];
  const sizeOf = (a: Word, b: Word) => Math.max(a.size, b.size, minSize, 0.01);
  const gaps = words.slice(1).map((w, i) => (w.x0 - words[i].x1) / sizeOf(w, words[i]));
  const positive = gaps.filter((g) => g > 0.05);
  const narrowest = positive.length ? Math.min(...positive) : 0;
  // A line with a dot leader is a row or a contents line, never justified prose; nor is a line
  // of figures (a wide table's row whose column gaps are all alike: "17 27 38 50 62 76 91").
  const em = words.some(endsInLeader) || figureRun(words) ? gapEm : Math.min(WIDE_GAP_EM, Math.max(gapEm, STRETCH * narrowest));
  for (const w of words) {
    const prev = cur[cur.length - 1];
    // A leader runs up to the next column, however close that stands.
    if (prev && (w.x0 - prev.x1 > em * sizeOf(prev, w) || (endsInLeader(prev) && w.x0 > prev.x1))) {
      out.push(chunkOf(cur));
      cur = [];
    }
    cur.push(w);
  }
  if (cur.length) out.push(chunkOf(cur));
  return out;
}

/** An OCR'd line's gaps are measured against this share of the page's median text size at least. */
const OCR_SIZE_FLOOR = 0.85;

/** Words of one line may overlap by this much (× font size) and still stand side by side. */
const TOUCH_EM = 0.15;

/**
 * A word standing within this share of its height inside a taller word's height, and at least
 * `LEVEL_HEIGHTS` as tall, is level with it: OCR boxes a word with the stroke after it
 * ("Consumer" taking in the "/" of "Consumer / Food", which it gives as a word of its own too),
 * and the two overlap across though they stand side by side. Lines set tight overlap in height
 * by half at most; a word read across two lines is twice as tall as a word of either.
 */
const LEVEL_INSIDE = 0.9;
const LEVEL_HEIGHTS = 0.55;

function level(a: Word, b: Word): boolean {
  const ha = a.y1 - a.y0, hb = b.y1 - b.y0;
  const lo = Math.min(ha, hb);
  return lo > LEVEL_HEIGHTS * Math.max(ha, hb) && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) >= LEVEL_INSIDE * lo;
}

/** Whether `w` overlaps a word of `line` by more than `slack` across, and is not level with it. */
function stacked(line: Word[], w: Word, slack: number): boolean {
  for (const o of line) if (o.x0 < w.x1 - slack && w.x0 < o.x1 - slack && !level(o, w)) return true;
  return false;
}

/**
 * Groups words into lines: a word joins the line whose vertical span it overlaps by more than
 * half of the smaller height (superscripts and mixed sizes share a line; stacked lines do not).
 */
export function textLines(words: Word[]): TextLine[] {
  return pass('text lines', () => linesOf(words));
}

interface Group {
  y0: number;
  y1: number;
  words: Word[];
  /** The smallest font size among `words`. */
  size: number;
}

function linesOf(words: Word[]): TextLine[] {
  // Sorted by centre, then left edge; the centres worked out once, not at each comparison.
  const keyed: { w: Word; c: number }[] = [];
  for (const w of words) if (w.text.trim() !== '') keyed.push({ w, c: (w.y0 + w.y1) / 2 });
  keyed.sort((a, b) => a.c - b.c || a.w.x0 - b.w.x0);
  const groups: Group[] = [];
  for (const { w } of keyed) {
    let best: Group | null = null;
    // Only the last few lines can overlap a word sorted by its centre.
    for (let k = groups.length - 1; k >= Math.max(0, groups.length - 4); k--) {
      const g = groups[k];
      const ov = Math.min(g.y1, w.y1) - Math.max(g.y0, w.y0);
      const h = Math.min(g.y1 - g.y0, w.y1 - w.y0);
      if (!(ov > 0.5 * h)) continue;
      // Words side by side on one line may touch or overlap a little (an OCR box taking in an
      // italic or kerned neighbour's edge: "of" into "things"); stacked words overlap more.
      const slack = Math.max(0.5, TOUCH_EM * Math.min(w.size, g.size));
      if (!stacked(g.words, w, slack)) {
        best = g;
        break;
      }
    }
    if (best) {
      best.words.push(w);
      best.y0 = Math.min(best.y0, w.y0);
      best.y1 = Math.max(best.y1, w.y1);
      best.size = Math.min(best.size, w.size);
    } else groups.push({ y0: w.y0, y1: w.y1, words: [w], size: w.size });
  }
  // An OCR'd line's size is read from its box, which a line of capitals or figures (no ascender
  // or descender) draws a quarter shorter than its type: its gaps are measured against the
  // page's usual text size at least (worked out when a line's chunks are first asked for).
  let floor: number | undefined;
  const minSize = () => {
    if (floor === undefined) {
      const read = keyed.filter(({ w }) => w.confidence !== null);
      floor = read.length ? OCR_SIZE_FLOOR * median(read.map(({ w }) => w.size)) : 0;
    }
    return floor;
  };
  return groups
    .map((g) => {
      const ws = g.words.sort((a, b) => a.x0 - b.x0);
      const ocr = ws.some((w) => w.confidence !== null);
      return new Line(ws, Math.min(...ws.map((w) => w.x0)), g.y0, Math.max(...ws.map((w) => w.x1)), g.y1, median(ws.map((w) => w.size)), ocr ? minSize : () => 0);
    })
    .sort((a, b) => a.y0 - b.y0);
}

/** A text line whose chunks are split on first use: many readers (a cell's text, a band's rows) need only its words. */
class Line implements TextLine {
  #chunks: Chunk[] | undefined;
  constructor(
    readonly words: Word[],
    readonly x0: number,
    readonly y0: number,
    readonly x1: number,
    readonly y1: number,
    readonly size: number,
    /** The least size its gaps are measured against. */
    private readonly minSize: () => number,
  ) {}

  get chunks(): Chunk[] {
    return (this.#chunks ??= chunksOf(this.words, CHUNK_GAP_EM, this.minSize()));
  }
}

/** A cell's text that breaks off mid-phrase: after a comma, a hyphen, an open bracket or a joining word. */
const BREAKS_OFF = /([,&/(]|\p{L}-|\b(and|or|of|the|in|for|with|to|by|on|at|from|a|an))$/iu;
const openBracket = (t: string) => (t.match(/\(/g)?.length ?? 0) > (t.match(/\)/g)?.length ?? 0);

/** Whether a cell's line breaks off mid-phrase, so the line under it goes on with it. */
export const breaksOff = (upper: string) => BREAKS_OFF.test(upper.trim()) || openBracket(upper);

/** Whether `lower`, a cell's next line, goes on the phrase `upper`: it starts in lower case, or `upper` breaks off. */
export function goesOnFrom(upper: string, lower: string): boolean {
  return /^\p{Ll}/u.test(lower.trim()) || breaksOff(upper);
}

/** Cell text: words grouped into lines, joined by spaces, lines by newlines. */
export function cellText(words: Word[]): string {
  return textLines(words)
    .map((l) => l.words.map((w) => w.text).join(' '))
    .join('\n');
}

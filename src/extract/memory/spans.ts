/**
 * Spans of words on a line — where a value may stand — and what surrounds one: the words left of
 * it on its line (its label, usually), the line above, the words right of it, and its place on
 * the page. A vendor memory stores that context; reading matches it again.
 */
import type { Anchor, BBox, DateOrder, StoredPage, ValueKind } from '../types.js';
import { boxOf, joinSplitAmounts, norm, pageLines, similarity, type MLine, type MWord } from './words.js';
import { wholeDate } from '../locale/dates.js';
import { looseNumber } from '../locale/numbers.js';

export interface Span {
  page: number;
  line: MLine;
  start: number;
  end: number;
  words: MWord[];
  text: string;
  bbox: BBox;
}

const MAX_SPAN = 4;
const MAX_CONTEXT = 40;

/** Every span of up to `max` words on the page's lines (those `take` takes, when given), with its page's lines. */
export function* spans(p: StoredPage, lines: MLine[], max = MAX_SPAN, take?: (line: MLine, start: number, end: number) => boolean): Generator<Span> {
  for (const line of lines) {
    for (let start = 0; start < line.words.length; start++) {
      for (let end = start + 1; end <= Math.min(line.words.length, start + max); end++) {
        if (take && !take(line, start, end)) continue;
        const words = line.words.slice(start, end);
        yield { page: p.page, line, start, end, words, text: words.map((w) => w.text).join(' '), bbox: boxOf(words) };
      }
    }
  }
}

const clip = (s: string) => (s.length > MAX_CONTEXT ? s.slice(s.length - MAX_CONTEXT) : s);

/** The context of a span on its page. */
export function anchorOf(s: Span, lines: MLine[], p: StoredPage, at: 'first' | 'last'): Anchor {
  const above = lines[s.line.index - 1];
  return {
    at,
    left: clip(norm(s.line.words.slice(Math.max(0, s.start - 4), s.start).map((w) => w.text).join(' '))),
    above: above ? norm(above.words.map((w) => w.text).join(' ')).slice(0, MAX_CONTEXT) : '',
    right: norm(s.line.words.slice(s.end, s.end + 2).map((w) => w.text).join(' ')).slice(0, MAX_CONTEXT),
    x: round((s.bbox[0] + s.bbox[2]) / 2 / p.width),
    y: round((s.bbox[1] + s.bbox[3]) / 2 / p.height),
    n: s.end - s.start,
  };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** How well a span's surroundings match an anchor: its label counts most, then the line above, then its place. */
export function anchorScore(a: Anchor, c: Anchor): number {
  const label = a.left ? similarity(a.left, c.left.slice(Math.max(0, c.left.length - a.left.length - 2))) : c.left ? 0.5 : 1;
  return 3 * label + similarity(a.above, c.above) + 0.5 * similarity(a.right, c.right) - 2 * Math.abs(a.y - c.y) - Math.abs(a.x - c.x);
}

/** The span's value when it reads as the kind (the date in `order`), else null. */
export function valueOf(kind: ValueKind, text: string, order: DateOrder): string | number | null {
  if (kind === 'number') return looseNumber(text);
  if (kind === 'date') return wholeDate(text, order);
  return norm(text) ? text.trim() : null;
}

/**
 * Whether a span's text is the value (numbers to the cent, dates in either order, text by
 * similarity); `normValue` is a text value normalised, when the caller has it.
 */
export function matches(kind: ValueKind, text: string, value: string | number, normValue?: string): { order?: DateOrder; score: number } | null {
  if (kind === 'number') {
    const n = looseNumber(text);
    return n !== null && Math.abs(n - Number(value)) < 0.005 ? { score: 1 } : null;
  }
  if (kind === 'date') {
    for (const order of ['dmy', 'mdy', 'ymd'] as const) if (wholeDate(text, order) === value) return { order, score: 1 };
    return null;
  }
  const a = norm(text);
  const b = normValue ?? norm(String(value));
  // Lengths more than a fifth apart take more than a fifth of edits: below 0.8 without measuring
  // (a value of 1,000 characters against each span of a page's lines cost seconds).
  if (Math.abs(a.length - b.length) > 0.2 * Math.max(a.length, b.length)) return null;
  const s = similarity(a, b);
  return s >= 0.8 ? { score: s } : null;
}

export interface Occurrence {
  span: Span;
  anchor: Anchor;
  order?: DateOrder;
  score: number;
}

/** Where `value` is printed on the pages, best first: a text value's closest span, a number's or date's labelled ones first. */
export function occurrences(pages: StoredPage[], kind: ValueKind, value: string | number): Occurrence[] {
  const out: Occurrence[] = [];
  const normValue = kind === 'text' ? norm(String(value)) : undefined;
  const n = normValue !== undefined ? Math.min(12, normValue.split(' ').length + 2) : 3;
  pages.forEach((p, i) => {
    const lines = kind === 'number' ? joinSplitAmounts(pageLines(p)) : pageLines(p);
    for (const s of spans(p, lines, n, normValue === undefined ? undefined : nearLength(normValue.length))) {
      const m = matches(kind, s.text, value, normValue);
      if (!m) continue;
      const anchor = anchorOf(s, lines, p, i === 0 ? 'first' : 'last');
      // A value printed after a label is the one to learn from (`TOTAL 80.90`, not `CASH 80.90` further down).
      out.push({ span: s, anchor, order: m.order, score: m.score + (/\p{L}/u.test(anchor.left) ? 0.1 : 0) });
    }
  });
  // The same words matched by a longer span as well: keep the tightest, best-scoring ones first.
  return out.sort((a, b) => b.score - a.score || a.span.words.length - b.span.words.length || a.span.page - b.span.page || a.span.line.index - b.span.line.index);
}

/**
 * Spans whose normalised text is within a fifth of `length` long, the only ones `matches` can take
 * for a text value, told from their words' normalised lengths without making their text: the norm
 * of words joined by spaces is their non-empty norms joined by single spaces. A value of 1,000
 * characters made every span of up to 12 words of a page be normalised and measured (seconds).
 */
function nearLength(length: number): (line: MLine, start: number, end: number) => boolean {
  const sums = new Map<MLine, { chars: number[]; words: number[] }>();
  return (line, start, end) => {
    let sum = sums.get(line);
    if (!sum) {
      sum = { chars: [0], words: [0] };
      for (const w of line.words) {
        const k = norm(w.text).length;
        sum.chars.push(sum.chars[sum.chars.length - 1]! + k);
        sum.words.push(sum.words[sum.words.length - 1]! + (k > 0 ? 1 : 0));
      }
      sums.set(line, sum);
    }
    const n = sum.chars[end]! - sum.chars[start]! + Math.max(0, sum.words[end]! - sum.words[start]! - 1);
    return Math.abs(n - length) <= 0.2 * Math.max(n, length);
  };
}

/** Where a value stands on the pages (for a corrected field's page and box), or null. */
export function locateValue(pages: StoredPage[], value: string | number, kind: ValueKind): { page: number; bbox: BBox; text: string } | null {
  const best = occurrences(pages, kind, value)[0];
  return best ? { page: best.span.page, bbox: best.span.bbox, text: best.span.text } : null;
}

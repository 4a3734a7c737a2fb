/**
 * Key-value pairs (API.md §4): every label the document prints with its value — on the label's
 * line (`Invoice No.: 4711`, `TOTAL : 4.90`), under it (`Datum` over `20.03.2023`), or a row of
 * labels over a row of values (`TOTAL HT  TOTAL TVA  TOTAL TTC` over `100,00  4,90  104,90`).
 * A label is a known field label, a summary word (total, tax, …) or any short text ending in a
 * colon; its value is never a label itself.
 */
import type { BBox, KeyValuePair, Word } from '../types.js';
import { summaryKind } from '../lineitems/vocabulary.js';
import { blocks, box, inkOf, joinWords, type TextLine } from '../locale/lines.js';
import { parseNumber } from '../locale/numbers.js';
import { labelMatches } from './labelled.js';
import { valueAfter } from './lines.js';

/** A pair with the words it came from, for the field readers. */
export interface Pair {
  key: Word[];
  value: Word[];
  line: TextLine;
  /** How the value sits: on the label's line, under it, or in a row of values under a row of labels. */
  how: 'inline' | 'below' | 'row';
}

/** Confidence of a pair by how the value sits. */
const HOW_CONFIDENCE: Record<Pair['how'], number> = { inline: 0.9, below: 0.8, row: 0.8 };

const COLON_LABEL = /^[\p{L}][\p{L}\p{N} .'/()#&%-]{0,40}[:：]$/u;

/** Character ranges of the labels on a line: known labels, a summary word opening a block, text ending in a colon. */
function labelSpans(line: TextLine): { start: number; end: number }[] {
  const spans = labelMatches(line).map((m) => ({ start: m.start, end: m.end }));
  const at = (w: Word) => line.starts[line.words.indexOf(w)]!;
  for (const b of blocks(line)) {
    // `Total Rounded 26.60`, `TOTAL : 4.90`: a summary label up to the first number.
    const firstNum = b.findIndex((w) => /\d/.test(w.text) && parseNumber(w.text) !== null);
    const head = firstNum > 0 ? b.slice(0, firstNum) : [];
    if (head.length && head.length <= 6 && summaryKind(joinWords(head))) spans.push({ start: at(head[0]!), end: at(head[head.length - 1]!) + head[head.length - 1]!.text.length });
    // `Cashier:`, `Table No :` — any short text that ends in a colon.
    for (let i = 0; i < b.length && i < 6; i++) {
      const w = b[i]!;
      const text = joinWords(b.slice(0, i + 1));
      const colonNext = b[i + 1] && /^[:：]$/.test(b[i + 1]!.text);
      if (COLON_LABEL.test(colonNext ? text + ':' : text)) {
        spans.push({ start: at(b[0]!), end: at(w) + w.text.length + (colonNext ? 2 : 0) });
        break;
      }
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: { start: number; end: number }[] = [];
  for (const s of spans) if (!kept.length || s.start >= kept[kept.length - 1]!.end) kept.push(s);
  return kept;
}

/** Words of `line` inside the character range. */
function wordsIn(line: TextLine, start: number, end: number): Word[] {
  return line.words.filter((w, i) => line.starts[i]! >= start && line.starts[i]! < end);
}

/** Whether a block of words is a label only (a summary word or a known label, and no digit). */
function isLabelBlock(line: TextLine, b: Word[]): boolean {
  const text = joinWords(b);
  if (/\d/.test(text) || !/\p{L}{2}/u.test(text)) return false;
  if (summaryKind(text)) return true;
  const from = line.starts[line.words.indexOf(b[0]!)]!;
  return labelMatches(line).some((m) => m.start === from);
}

/**
 * A row of two or more label blocks over the values under each of them: one pair per label. The
 * values may sit a few lines down (a left column's text lines interleave), but within the labels' span.
 */
function rowPairs(line: TextLine, next: TextLine[]): Pair[] {
  const all = blocks(line);
  // The line's label blocks, after any text a left column prints on the same line (`taux
  // d'intérêt légal.   TOTAL HT   TOTAL TVA   TOTAL TTC`).
  let from = all.length;
  while (from > 0 && isLabelBlock(line, all[from - 1]!)) from--;
  const bs = all.slice(from);
  // Blocks of labels separated by a wide gap, or one block of several summary labels (`TOTAL HT TOTAL TVA TOTAL TTC`).
  const labels = bs.length >= 2 ? bs : splitSummaryLabels(bs[0] ?? []);
  if (labels.length < 2) return [];
  const h = line.bbox[3] - line.bbox[1];
  const out: Pair[] = [];
  for (const b of labels) {
    const [x0, x1] = [b[0]!.x0, b[b.length - 1]!.x1];
    for (const under of next) {
      if (under.page !== line.page || under.bbox[1] - line.bbox[3] > 3 * h) break;
      const value = under.words.filter((w) => w.x1 > x0 - 2 && w.x0 < x1 + 2 && /\d/.test(w.text));
      if (value.length) {
        out.push({ key: b, value, line, how: 'row' });
        break;
      }
    }
  }
  return out.length === labels.length ? out : [];
}

/** `TOTAL HT TOTAL TVA TOTAL TTC` as three labels: a new label wherever the block's first word comes again. */
function splitSummaryLabels(b: Word[]): Word[][] {
  if (b.length < 3) return [];
  const first = b[0]!.text.toLowerCase();
  const out: Word[][] = [];
  for (const w of b) {
    if (w.text.toLowerCase() === first) out.push([w]);
    else out[out.length - 1]!.push(w);
  }
  return out;
}

/** The key-value pairs of a document, in reading order, with their words. */
export function findPairs(lines: TextLine[]): Pair[] {
  const out: Pair[] = [];
  lines.forEach((line, i) => {
    const row = rowPairs(line, lines.slice(i + 1, i + 5));
    if (row.length) {
      out.push(...row);
      return;
    }
    const spans = labelSpans(line);
    const starts = spans.map((x) => x.start);
    for (const s of spans) {
      const key = wordsIn(line, s.start, s.end);
      const { words, below } = valueAfter(line, s.start, s.end, starts, lines);
      if (!key.length || !words.length) continue;
      // A value that is itself a label (`Bill to:` over `Ship to:`) is no value.
      const under = below ? lines.find((l) => l.page === line.page && l.words.includes(words[0]!)) : undefined;
      if (under && labelSpans(under).some((x) => x.start === under.starts[under.words.indexOf(words[0]!)])) continue;
      out.push({ key, value: words, line, how: below ? 'below' : 'inline' });
    }
  });
  return out;
}


/** Pairs as the API shows them. */
export function keyValuePairs(pairs: Pair[]): KeyValuePair[] {
  return pairs.map((p) => {
    const [k, v]: [BBox, BBox] = [box(p.key), box(p.value)];
    return {
      key: { text: joinWords(p.key).replace(/\s*[:：]$/, ''), bbox: k },
      value: { text: joinWords(p.value), bbox: v },
      page: p.line.page,
      bbox: box([...p.key, ...p.value]),
      confidence: Math.round(HOW_CONFIDENCE[p.how] * inkOf([...p.key, ...p.value]) * 100) / 100,
    };
  });
}

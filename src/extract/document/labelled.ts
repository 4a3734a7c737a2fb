/**
 * Label matches on text lines and the values printed after them: `Invoice No. INV-7`,
 * `Date: 30.11.2026   Due: 30.12.2026` (two labels, two values), a label with its value on
 * the line below.
 */
import { allMatches } from '../matches.js';
import type { Field, Word } from '../types.js';
import { DETERMINER, labelRegex, TITLE_WORD, type LabelField } from '../locale/labels.js';
import { box, inkOf, joinWords, type TextLine } from '../locale/lines.js';
import { valueAfter } from './lines.js';
import { DATE_SHAPED } from '../locale/dates.js';

export const LABEL_FIELDS: LabelField[] = [
  'invoice_number',
  'issue_date',
  'due_date',
  'order_number',
  'vendor_tax_id',
  'customer_name',
  'payment_terms',
  'account_number',
  'iban',
  'period',
  'currency',
  'amount_due',
  'other_date',
];

export interface LabelMatch {
  field: LabelField;
  start: number;
  end: number;
}

const matchCache = new WeakMap<TextLine, LabelMatch[]>();

/** The labels on `line`, left to right; where two overlap, the one starting first (then the longer) wins. */
export function labelMatches(line: TextLine): LabelMatch[] {
  const cached = matchCache.get(line);
  if (cached) return cached;
  const all: LabelMatch[] = [];
  for (const field of LABEL_FIELDS) {
    for (const m of allMatches(labelRegex(field), line.lower)) {
      // A label's word inside an address (`www.shop.com/terms`, `invoice@shop.com`) labels nothing.
      if (m.index > 0 && /[/@]/.test(line.lower[m.index - 1]!)) continue;
      all.push({ field, start: m.index, end: m.index + m[0].length });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: LabelMatch[] = [];
  for (const m of all) if (!kept.length || m.start >= kept[kept.length - 1]!.end) kept.push(m);
  matchCache.set(line, kept);
  return kept;
}

/** Whether `word` on the line under `line` starts a label of its own (`INVOICE` over `Invoice No.: 7`): then it is no value. */
function startsLabel(lines: TextLine[], line: TextLine, word: Word): boolean {
  const under = lines.find((l) => l.page === line.page && l.index === line.index + 1);
  const i = under ? under.words.indexOf(word) : -1;
  return i >= 0 && labelMatches(under!).some((m) => m.start === under!.starts[i]);
}

/** A value found after a label: its words, its line, and whether it sat below the label. */
export interface Candidate {
  words: Word[];
  line: TextLine;
  below: boolean;
  labelStart: number;
}

/** Every value printed after a label of `field`, in reading order. */
export function candidates(lines: TextLine[], field: LabelField): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    const ms = labelMatches(line);
    const starts = ms.map((x) => x.start);
    for (const m of ms) {
      if (m.field !== field) continue;
      if (TITLE_WORD.test(line.lower.slice(m.start, m.end)) && DETERMINER.test(line.lower.slice(0, m.start))) continue;
      const { words, below } = valueAfter(line, m.start, m.end, starts, lines);
      if (words.length && !(below && startsLabel(lines, line, words[0]!))) out.push({ words, line, below, labelStart: m.start });
    }
  }
  return out;
}

/** A Field of `value` read from `words` on `page`; OCR'd words bring their own confidence down into it (their mean). */
export function field<T extends string | number>(value: T, words: Word[], page: number, confidence: number, text = joinWords(words)): Field {
  return { value, text, confidence: Math.round(confidence * inkOf(words) * 100) / 100, page, bbox: box(words) };
}

/** Confidence of a labelled value: on the label's line, or below it. */
export const labelledConfidence = (c: Candidate) => (c.below ? 0.8 : 0.9);

/** The first candidate of `field` that `read` turns into a value. */
export function firstLabelled(lines: TextLine[], name: LabelField, read: (c: Candidate) => Field | null): Field | null {
  for (const c of candidates(lines, name)) {
    const f = read(c);
    if (f) return f;
  }
  return null;
}

/** A word of letters that names something of its own (`Keizersgracht`, `Tel`, `Kundennummer`): a number after it is that thing's. */
const NAMING_WORD = /^\p{L}[\p{L}'’.-]*$/u;
/** A code's letters (`INV`, `RE`, `FA`): capitals, at most four. */
const CODE_LETTERS = /^[A-Z]{1,4}$/;

/**
 * An identifier (`INV-2026-0142`, `2026/0457`, `55102`): the first value word with a digit that
 * is not a date or an amount. A number after a word that names something else (`Factuur
 * Keizersgracht 12`: a street; `Invoice address: 4 Main St`) or a short bare number followed by
 * words (`12 rue de Paris`, `1012 AB Amsterdam`: a house number, a postcode) is not the
 * identifier the label names.
 */
export function readIdentifier(c: Candidate): Field | null {
  const lineText = joinWords(c.line.words);
  const words = c.words.slice(0, 3);
  for (const [i, w] of words.entries()) {
    const t = w.text.replace(/[,;:)]+$/, '').replace(/^[(#:]+/, '');
    // A key of its own (`Références sur la facture   GLN : 123…`): the number is that key's.
    if (/^\p{L}{2,}$/u.test(t) && new RegExp(`(?:^|\\s)${t}\\s*[:：]`, 'u').test(lineText)) return null;
    if (NAMING_WORD.test(t) && /\p{L}{3}/u.test(t) && !CODE_LETTERS.test(t)) return null;
    // A key of its own after the label (`… facture   ID : PRIVATE_ID`, `GLN : 3654…`): what follows is that key's.
    // OCR reads a colon `;` at times.
    if (/[:：;]$/.test(w.text) || /^[:：;]$/.test(c.words[i + 1]?.text ?? '')) return null;
    if (!/\d/.test(t) || t.length > 32 || !/^[\p{L}\p{N}][\p{L}\p{N}/._-]*$/u.test(t)) continue;
    if (DATE_SHAPED.test(t) || /^\d{4}-\d{2}-\d{2}$/.test(t)) continue;
    if (/^\d{1,3}([.,]\d{3})*[.,]\d{2}$/.test(t)) continue;
    const next = c.words[i + 1]?.text ?? '';
    if (/^\d{1,5}[A-Za-z]?$/.test(t) && /^\p{L}{2,}/u.test(next)) return null;
    return field(t, [w], c.line.page, labelledConfidence(c), t);
  }
  return null;
}

/** The words of `block` (on `l`) before the first label that starts inside it. */
export function beforeLabel(l: TextLine, block: Word[]): Word[] {
  const at = (w: Word) => l.starts[l.words.indexOf(w)]!;
  const [from, to] = [at(block[0]!), at(block[block.length - 1]!) + block[block.length - 1]!.text.length];
  const label = labelMatches(l).find((m) => m.start >= from && m.start < to);
  return label ? block.filter((w) => at(w) + w.text.length <= label.start) : block;
}

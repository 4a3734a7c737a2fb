/**
 * The money fields (subtotal, tax, total, amount due, opening and closing balance) from the
 * document's summary lines: a summary label (lineitems/vocabulary.ts) followed by one number
 * at the end of the line.
 */
import type { Field, Word } from '../types.js';
import { cents, normalizeText, parseNumber, type Convention } from '../locale/numbers.js';
import { summaryKind, type SummaryKind } from '../lineitems/vocabulary.js';
import { labelRegex } from '../locale/labels.js';
import { field } from './labelled.js';
import { joinWords, type TextLine } from '../locale/lines.js';

/** One summary line: what it says it is, its value, and the words of label and value. */
export interface MoneyLine {
  kind: SummaryKind;
  due: boolean;
  value: number;
  currency: string | null;
  label: Word[];
  number: Word[];
  line: TextLine;
}

/** A money figure in a label (`Total station rental 2 100.00`) makes it an item, not a summary line. */
const FIGURE = /\d[.,]\d{2}(?!\d)|\d{4,}/;

/** The summary line `line` is, or null. The number is the longest run of up to four words at the end that reads as one. */
export function moneyLine(line: TextLine, conv: Convention | null): MoneyLine | null {
  const words = line.words;
  for (let k = Math.min(4, words.length - 1); k >= 1; k--) {
    const number = words.slice(words.length - k);
    const parsed = parseNumber(number.map((w) => w.text).join(' '), conv);
    if (!parsed || parsed.percent) continue;
    const label = words.slice(0, words.length - k);
    const text = joinWords(label);
    const withoutRates = text.replace(/\d+(?:[.,]\d+)?\s*%/g, '');
    if (FIGURE.test(withoutRates)) return null;
    const lower = normalizeText(text).toLowerCase();
    const kind = summaryKind(lower);
    const due = labelRegex('amount_due').test(lower);
    if (!kind && !due) return null;
    return { kind: kind ?? 'total', due, value: parsed.value, currency: parsed.currency, label, number, line };
  }
  return null;
}

/** The money fields of a document from its lines. */
export function moneyFields(lines: TextLine[], conv: Convention | null): Record<'subtotal' | 'tax' | 'total' | 'amount_due' | 'opening_balance' | 'closing_balance', Field | null> {
  const found = lines.map((l) => moneyLine(l, conv)).filter((m): m is MoneyLine => m !== null);
  const one = (m: MoneyLine | undefined, confidence = 0.9) => (m ? field(m.value, m.number, m.line.page, confidence) : null);
  const taxes = found.filter((m) => m.kind === 'tax');
  // Several tax lines (7 % and 19 %) add up to the tax.
  let tax: Field | null = null;
  if (taxes.length) {
    const words = taxes.flatMap((m) => (m.line.page === taxes[0]!.line.page ? m.number : []));
    const value = cents(taxes.reduce((s, m) => s + m.value, 0));
    tax = field(value, words, taxes[0]!.line.page, taxes.length > 1 ? 0.85 : 0.9, taxes.map((m) => joinWords(m.number)).join(' + '));
  }
  const total = found.find((m) => m.kind === 'total' && !/^(amount|balance) due/i.test(joinWords(m.label))) ?? found.find((m) => m.kind === 'total');
  return {
    subtotal: one(found.find((m) => m.kind === 'subtotal')),
    tax,
    total: one(total),
    amount_due: one(found.find((m) => m.due)),
    opening_balance: one(found.find((m) => m.kind === 'balance_open')),
    closing_balance: one(found.find((m) => m.kind === 'balance_close')),
  };
}

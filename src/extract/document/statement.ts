/**
 * A statement's account and period: the account after `Account` / `Konto` / `Rekening` /
 * `口座番号` (else its IBAN), and the period after `Period` / `Zeitraum` or in the title line
 * (`Account statement 1 - 30 November 2026`, `Kontoauszug 11/2026`, `noviembre 2026`).
 */
import type { Field, Word } from '../types.js';
import { findPeriod, type DateOrder } from '../locale/dates.js';
import { candidates, field, labelledConfidence } from './labelled.js';
import { joinWords, type TextLine } from '../locale/lines.js';

/** Account: up to six code-like words (`NL12 RABO 0123 4567 89`, `12-3456-7890123`) with five digits or more. */
export function accountNumber(lines: TextLine[]): Field | null {
  for (const c of candidates(lines, 'account_number')) {
    const words: Word[] = [];
    for (const w of c.words.slice(0, 6)) {
      if (!/^[A-Z0-9][A-Z0-9-]*$/i.test(w.text) || (!/\d/.test(w.text) && !(words.length && /^[A-Z]{1,4}$/.test(w.text)))) break;
      words.push(w);
    }
    const text = joinWords(words);
    if ((text.match(/\d/g) ?? []).length >= 5) return field(text, words, c.line.page, labelledConfidence(c), text);
  }
  return null;
}

const STATEMENT_TITLE =
  /(?<![\p{L}])(statement|kontoauszug|relevé|extracto|rekeningafschrift|afschrift|estratto|extrato)(?![\p{L}])|入出金明細|取引明細/iu;

/** The period as two fields (start, end), from its label or the statement's title line. */
export function statementPeriod(lines: TextLine[], order: DateOrder): { start: Field; end: Field } | null {
  const tries: { words: Word[]; line: TextLine; confidence: number }[] = candidates(lines, 'period').map((c) => ({
    words: c.words,
    line: c.line,
    confidence: labelledConfidence(c),
  }));
  for (const l of lines.slice(0, 12)) if (STATEMENT_TITLE.test(joinWords(l.words))) tries.push({ words: l.words, line: l, confidence: 0.75 });
  for (const t of tries) {
    const p = findPeriod(joinWords(t.words), order);
    if (!p) continue;
    return {
      start: field(p.start, t.words, t.line.page, t.confidence, p.raw),
      end: field(p.end, t.words, t.line.page, t.confidence, p.raw),
    };
  }
  return null;
}

/**
 * Every field of API.md §4 from a document's lines: labelled values in each language, then
 * what position tells (the vendor at the top, an unlabelled date under it, an IBAN anywhere).
 */
import { FIELD_NAMES, type Field, type Fields, type Word } from '../types.js';
import type { Convention } from '../locale/numbers.js';
import { findDate, type DateOrder } from '../locale/dates.js';
import { findIbans } from './iban.js';
import { field, firstLabelled, labelledConfidence, readIdentifier, type Candidate } from './labelled.js';
import { joinWords, type TextLine } from '../locale/lines.js';
import { moneyFields } from './money.js';
import { customerName, vendorAddress, vendorName, vendorTaxId } from './parties.js';
import { accountNumber, statementPeriod } from './statement.js';

/** What reading fields needs to know of the document. */
export interface ReadContext {
  conv: Convention | null;
  order: DateOrder;
  currency: Field | null;
  /** Top of the first table on page 1 (the head of the document is above it). */
  tableTop: number;
}

/** Fields all null. */
export function emptyFields(): Fields {
  return Object.fromEntries(FIELD_NAMES.map((n) => [n, null])) as Fields;
}

function readDate(order: DateOrder) {
  return (c: Candidate): Field | null => {
    const words = c.words.slice(0, 5);
    const d = findDate(joinWords(words), order);
    if (!d) return null;
    const used = words.filter((w) => d.raw.includes(w.text.replace(/[,.]$/, '')) || w.text.includes(d.raw));
    return field(d.iso, used.length ? used : words, c.line.page, labelledConfidence(c), d.raw);
  };
}

/** A date printed in the head of the first page without a label (`30.11.2026 14:32` on a receipt). */
function unlabelledDate(lines: TextLine[], ctx: ReadContext): Field | null {
  for (const l of lines) {
    if (l.page !== lines[0]!.page || l.bbox[1] >= ctx.tableTop) break;
    const d = findDate(joinWords(l.words), ctx.order);
    if (d) {
      const used = l.words.filter((w) => d.raw.includes(w.text));
      return field(d.iso, used.length ? used : l.words, l.page, 0.6, d.raw);
    }
  }
  return null;
}

const TERMS = /(?<![\p{L}])(net \d+|due (?:within|in) \d+ days|payable (?:within|in) \d+ days|zahlbar (?:innerhalb|binnen|sofort|bis)|zahlungsziel|payable à|à \d+ jours|a \d+ días|binnen \d+ dagen|entro \d+ giorni|em \d+ dias)/iu;

function paymentTerms(lines: TextLine[]): Field | null {
  // `Terms and conditions` is a heading, not terms.
  const read = (c: Candidate) => {
    const t = joinWords(c.words);
    return /\p{L}{2}|\d/u.test(t) && !/^(and|&|und|et|y|en|e)\s+(conditions|bedingungen|condiciones|voorwaarden|condizioni|condições)/i.test(t) ? field(t, c.words, c.line.page, labelledConfidence(c)) : null;
  };
  const labelled = firstLabelled(lines, 'payment_terms', read);
  if (labelled) return labelled;
  for (const l of lines) {
    const t = joinWords(l.words);
    if (TERMS.test(t)) return field(t, l.words, l.page, 0.7);
  }
  return null;
}

function iban(lines: TextLine[]): Field | null {
  for (const l of lines) {
    const found = findIbans(joinWords(l.words));
    if (!found.length) continue;
    const { iban: value, raw } = found[0]!;
    const parts = raw.split(' ');
    const at = l.words.findIndex((w) => w.text.toUpperCase().startsWith(parts[0]!));
    const words: Word[] = at >= 0 ? l.words.slice(at, at + parts.length) : l.words;
    return field(value, words, l.page, 0.95, raw);
  }
  return null;
}

/** Every field found in `lines`. */
export function readFields(lines: TextLine[], ctx: ReadContext): Fields {
  const f = emptyFields();
  f.invoice_number = firstLabelled(lines, 'invoice_number', readIdentifier);
  f.order_number = firstLabelled(lines, 'order_number', readIdentifier);
  f.issue_date = firstLabelled(lines, 'issue_date', readDate(ctx.order)) ?? unlabelledDate(lines, ctx);
  f.due_date = firstLabelled(lines, 'due_date', readDate(ctx.order));
  if (f.due_date && f.issue_date && f.due_date.value === f.issue_date.value && f.due_date.bbox.join() === f.issue_date.bbox.join()) f.due_date = null;
  f.currency = ctx.currency;
  Object.assign(f, moneyFields(lines, ctx.conv));
  f.customer_name = customerName(lines);
  const vendor = vendorName(lines, ctx.tableTop);
  if (vendor && vendor.field.value !== f.customer_name?.value) {
    f.vendor_name = vendor.field;
    f.vendor_address = vendorAddress(lines, vendor);
  }
  f.vendor_tax_id = vendorTaxId(lines);
  f.iban = iban(lines);
  f.payment_terms = paymentTerms(lines);
  f.account_number = accountNumber(lines);
  const period = statementPeriod(lines, ctx.order);
  if (period) [f.period_start, f.period_end] = [period.start, period.end];
  // The issue date of a statement is not its period's first day.
  if (period && f.issue_date && f.issue_date.confidence < 0.7) f.issue_date = null;
  return f;
}

/**
 * Every field of API.md §4 from a document's lines: labelled values in each language, then
 * what position tells (the vendor at the top, an unlabelled date under it, an IBAN anywhere).
 */
import { FIELD_NAMES, MONEY_FIELDS, type Field, type Fields, type Word } from '../types.js';
import type { Convention } from '../locale/numbers.js';
import { candidate, choose, chosen, externalCandidates, type ExternalCandidates, type FieldCandidate } from './choose.js';
import type { Pair } from './kv.js';
import { findDate, repairDate, type DateOrder } from '../locale/dates.js';
import { findIbans } from './iban.js';
import { candidates, field, firstLabelled, labelledConfidence, labelMatches, readIdentifier, type Candidate } from './labelled.js';
import { joinWords, type TextLine } from '../locale/lines.js';
import { moneyCandidates, type Paid } from './money.js';
import { customerName, vendorTaxId } from './parties.js';
import { vendorName } from './vendor.js';
import { vendorAddress } from './address.js';
import { accountNumber, statementPeriod } from './statement.js';

/** What reading fields needs to know of the document. */
export interface ReadContext {
  conv: Convention | null;
  order: DateOrder;
  currency: Field | null;
  /** Top of the first table on page 1 (the head of the document is above it). */
  tableTop: number;
  /** The document's key-value pairs. */
  pairs: Pair[];
  /** What a till receipt says was paid in cash or by card, and given back (`cashAndChange`). */
  paid: Paid;
  /** Candidates from outside the engine (vendor memory), tried first. */
  external?: ExternalCandidates;
  /** Filled with the fields chosen by where they stand, not by a label naming them. */
  placed?: Set<keyof Fields>;
}

/** Fields all null. */
export function emptyFields(): Fields {
  return Object.fromEntries(FIELD_NAMES.map((n) => [n, null])) as Fields;
}

/** A year a document can be dated: from 1990 to next year (`17/04/2078`, `RC11-23-42` are misread or no dates). */
const plausible = (iso: string) => {
  const y = Number(iso.slice(0, 4));
  return y >= 1990 && y <= new Date().getUTCFullYear() + 1;
};

/** The date in `text`, plausible as read (sure 1) or once a misread digit is read again (sure 0.7). */
function datedOrRepaired(text: string, order: DateOrder): { iso: string; raw: string; sure: number } | null {
  const d = findDate(text, order);
  if (d && plausible(d.iso)) return { ...d, sure: 1 };
  const r = repairDate(text, order, plausible);
  return r ? { ...r, sure: 0.7 } : null;
}

function readDate(order: DateOrder) {
  return (c: Candidate): Field | null => {
    const words = c.words.slice(0, 5);
    const d = datedOrRepaired(joinWords(words), order);
    if (!d) return null;
    const used = words.filter((w) => d.raw.includes(w.text.replace(/[,.]$/, '')) || w.text.includes(d.raw));
    return field(d.iso, used.length ? used : words, c.line.page, labelledConfidence(c) * d.sure, d.raw);
  };
}

/** Dates printed without a label on page 1 (`30.11.2026 14:32` on a receipt), the first surest. */
function unlabelledDates(lines: TextLine[], ctx: ReadContext): FieldCandidate[] {
  const out: FieldCandidate[] = [];
  // A date after another date's label (`DATE DE LIVRAISON : 28/01/2026`, `Due: …`) is that date.
  const named = new Set((['other_date', 'due_date'] as const).flatMap((n) => candidates(lines, n).flatMap((c) => c.words.map((w) => `${c.line.page}:${w.x1}:${w.y0}`))));
  for (const l of lines) {
    if (l.page !== lines[0]!.page || out.length >= 3) break;
    const d = datedOrRepaired(joinWords(l.words), ctx.order);
    if (!d) continue;
    const used = l.words.filter((w) => d.raw.includes(w.text));
    if (used.length && used.every((w) => named.has(`${l.page}:${w.x1}:${w.y0}`))) continue;
    const f = field(d.iso, used.length ? used : l.words, l.page, d.sure, d.raw);
    // Under the first table a date is less sure: it may be an item's or a booking's.
    out.push({ field: f, score: (l.bbox[1] < ctx.tableTop ? 0.6 : 0.5) * f.confidence - out.length * 0.02, via: 'position' });
  }
  return out;
}

/** A labelled date on its label's line read this surely (0.9 × OCR's confidence) is clean ink. */
const CLEAN_DATE = 0.85;
/** A competing reading this sure keeps a date's doubt. */
const CONTENDER = 0.5;

/**
 * A date after its label on the same line, read in clean ink (`CLEAN_DATE`), that no other
 * reading of the field contests (every candidate at `CONTENDER` or more says the same day):
 * OCR's small doubt about its digits is answered by the calendar it fits and the label it
 * follows, and it stands at the label's 0.9. So does an invoice number after a label that
 * names the number (`grounds`: the candidates that may lift it).
 */
function uncontested(f: Field | null, cands: FieldCandidate[], grounds = cands, floor = CLEAN_DATE): Field | null {
  if (!f || f.source === 'vendor_memory' || f.confidence >= 0.9 || f.confidence < floor) return f;
  const mine = grounds.find((c) => c.field.value === f.value && c.via === 'label');
  if (!mine || cands.some((c) => c.field.value !== f.value && c.score >= CONTENDER)) return f;
  return { ...f, confidence: 0.9 };
}

/** A reading of an identifier in murkier ink than `CLEAN_DATE` that the page prints a second time. */
const READ_TWICE = 0.75;

/**
 * Whether an identifier's characters are printed again elsewhere on its page, as a word or inside
 * one (the payment reference `F20260025BUYER`): two readings of the same characters agree, so the
 * OCR did not make it up; five characters at least, with a digit, so that a chance match is rare.
 */
function printedTwice(f: Field | null, lines: TextLine[]): boolean {
  const v = f ? String(f.value).toLowerCase() : '';
  if (v.length < 5 || !/\d/.test(v)) return false;
  const [x0, y0, x1, y1] = f!.bbox;
  return lines.some((l) => l.page === f!.page && l.words.some((w) => !(w.x0 >= x0 - 1 && w.x1 <= x1 + 1 && w.y0 >= y0 - 1 && w.y1 <= y1 + 1) && w.text.toLowerCase().includes(v)));
}

/** Every labelled reading of a label field, scored by how the value sits and by `rate` (0 drops it). */
function labelled(lines: TextLine[], name: Parameters<typeof candidates>[1], read: (c: Candidate) => Field | null, rate: (f: Field, c: Candidate) => number = () => 1): FieldCandidate[] {
  const out: FieldCandidate[] = [];
  for (const c of candidates(lines, name)) {
    const f = read(c);
    if (!f) continue;
    const r = rate(f, c);
    if (r > 0) out.push({ field: f, score: f.confidence * r - out.length * 0.01, via: 'label' });
  }
  return out;
}

/** A label that names the number itself (`Invoice No.`, `Rechnungsnummer`, `N° de facture`), not a title alone (`INVOICE`, `Factuur`). */
const NAMES_NUMBER = /^(?:\S+\s+)?(?:n[º°o]\.?|nr\.?|no\.?|#|number|num\.?|numéro|número|numero)|nummer|-nr|番号/u;

/**
 * An identifier's plausibility: a bare house number or a single digit is a poor invoice number
 * (`A-17`, `2026/0457` are fine); after a title alone (`INVOICE`, `Factuur`) a little less sure
 * than after a label that names the number, so `Factuurnummer: 2024-17` wins over a number
 * printed beside the title.
 */
function identifierRate(f: Field, c: Candidate): number {
  const v = String(f.value);
  const digits = (v.match(/\d/g) ?? []).length;
  const rate = digits >= 3 || /[\p{L}/_-]/u.test(v) ? 1 : digits === 2 ? 0.8 : 0.6;
  return namesNumber(c) ? rate : rate * 0.97;
}

/** Whether the candidate's label names the number itself, not a title alone. */
function namesNumber(c: Candidate): boolean {
  const label = labelMatches(c.line).find((m) => m.start === c.labelStart);
  return !!label && NAMES_NUMBER.test(c.line.lower.slice(label.start, label.end));
}

const TERMS = /(?<![\p{L}])(net \d+|due (?:within|in) \d+ days|payable (?:within|in) \d+ days|zahlbar (?:innerhalb|binnen|sofort|bis)|zahlungsziel|payable à|à \d+ jours|a \d+ días|binnen \d+ dagen|entro \d+ giorni|em \d+ dias)/iu;

/**
 * A label in running prose (`…; payment terms of net 30 days were the rule.`): a word of the
 * sentence, in the same run of words as the one before it and not followed by a colon.
 */
function inProse(c: Candidate): boolean {
  const i = c.line.starts.indexOf(c.labelStart);
  const before = c.line.words[i - 1];
  const at = c.line.words[i];
  if (i <= 0 || !before || !at || at.x0 - before.x1 > 2 * Math.max(at.size, before.size) || !/\p{Ll}/u.test(before.text)) return false;
  const label = labelMatches(c.line).find((m) => m.start === c.labelStart);
  return !label || !/^\s*[:：]/.test(c.line.lower.slice(label.end));
}

/** Terms after their label, else a line that states a term (`Net 30`, `zahlbar innerhalb 14 Tagen`) by itself. */
function paymentTerms(lines: TextLine[]): FieldCandidate[] {
  // `Terms and conditions` is a heading, not terms.
  const read = (c: Candidate) => {
    const t = joinWords(c.words);
    return /\p{L}{2}|\d/u.test(t) && !inProse(c) && !/^(and|&|und|et|y|en|e)\s+(conditions|bedingungen|condiciones|voorwaarden|condizioni|condições)/i.test(t) ? field(t, c.words, c.line.page, labelledConfidence(c)) : null;
  };
  const labelled = firstLabelled(lines, 'payment_terms', read);
  if (labelled) return candidate(labelled, 'label');
  for (const l of lines) {
    const t = joinWords(l.words);
    if (TERMS.test(t)) return candidate(field(t, l.words, l.page, 0.7), 'position');
  }
  return [];
}

/** A term of days on a payment line (`30 jours net`, `Net 30`, `zahlbar innerhalb 14 Tagen`, `binnen 30 dagen`). */
export const DAYS_TERM = /(?<![\p{L}\d])(?:net\s+(\d{1,3})(?=\s*(?:$|[,;)]|days?\b))|(\d{1,3})\s*(?:days?|jours?|j\.?(?=\s+net)|tagen?|tage|dagen|d[ií]as|giorni|dias)(?![\p{L}]))/iu;
/** A line about payment: where a term of days is the payment's, not a delivery's or a warranty's. */
const PAYMENT_LINE = /(?<![\p{L}])(payment|payable|pay|terms|zahlbar|zahlung|zahlungsziel|paiement|règlement|reglement|payable|échéance|betaling|betalen|pago|pagamento|pagar|scadenza)(?![\p{L}])/iu;

/**
 * The due date a payment term sets from the issue date (`Payment: 30 days net` after
 * `Date: 31/01/2022` is 2022-03-02): less sure than a printed one (0.75), since some terms
 * count from the end of the month or the delivery.
 */
function dueFromTerms(lines: TextLine[], issue: Field | null): Field | null {
  if (!issue) return null;
  for (const l of lines) {
    const text = joinWords(l.words);
    if (!PAYMENT_LINE.test(text) || /fin de mois|end of month|monatsende|einde maand/i.test(text)) continue;
    const m = DAYS_TERM.exec(text);
    const days = m ? Number(m[1] ?? m[2]) : 0;
    if (!days || days > 180) continue;
    const due = new Date(Date.parse(`${String(issue.value)}T00:00:00Z`) + days * 864e5).toISOString().slice(0, 10);
    return field(due, l.words, l.page, Math.min(0.75, issue.confidence), m![0]);
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

/** Every field found in `lines`: for each, the best of its candidates (outside ones first). */
export function readFields(lines: TextLine[], ctx: ReadContext): Fields {
  const f = emptyFields();
  const ext = (n: keyof Fields) => externalCandidates(ctx.external, n);
  const pick = (n: keyof Fields, ...cands: FieldCandidate[][]) => {
    const all = [...ext(n), ...cands.flat()];
    f[n] = choose(all);
    if (chosen(all)?.via === 'position') ctx.placed?.add(n);
    else ctx.placed?.delete(n);
  };
  const numberCands = labelled(lines, 'invoice_number', readIdentifier, identifierRate);
  pick('invoice_number', numberCands);
  const named = labelled(lines, 'invoice_number', readIdentifier, (v, c) => (namesNumber(c) ? identifierRate(v, c) : 0));
  f.invoice_number = uncontested(f.invoice_number, numberCands, named, printedTwice(f.invoice_number, lines) ? READ_TWICE : CLEAN_DATE);
  pick('order_number', labelled(lines, 'order_number', readIdentifier));
  const issueCands = [...labelled(lines, 'issue_date', readDate(ctx.order)), ...unlabelledDates(lines, ctx)];
  pick('issue_date', issueCands);
  f.issue_date = uncontested(f.issue_date, issueCands);
  const dueCands = labelled(lines, 'due_date', readDate(ctx.order));
  pick('due_date', dueCands);
  f.due_date = uncontested(f.due_date, dueCands);
  if (f.due_date && f.issue_date && f.due_date.value === f.issue_date.value && f.due_date.bbox.join() === f.issue_date.bbox.join()) f.due_date = null;
  // A due date before the issue date, or years away from it, is another date.
  if (f.due_date && f.issue_date && (f.due_date.value < f.issue_date.value || Math.abs(Date.parse(String(f.due_date.value)) - Date.parse(String(f.issue_date.value))) > 400 * 864e5)) f.due_date = { ...f.due_date, confidence: Math.round(f.due_date.confidence * 60) / 100 };
  pick('currency', candidate(ctx.currency, 'position'));
  const money = moneyCandidates(lines, ctx.pairs, ctx.conv, ctx.paid);
  for (const n of MONEY_FIELDS) pick(n, money[n]);
  pick('customer_name', candidate(customerName(lines), 'label'));
  const vendor = vendorName(lines, ctx.tableTop);
  if (vendor && vendor.field.value !== f.customer_name?.value) {
    pick('vendor_name', candidate(vendor.field, 'position'));
    pick('vendor_address', candidate(vendorAddress(lines, vendor), 'position'));
  } else {
    pick('vendor_name');
    pick('vendor_address');
  }
  pick('vendor_tax_id', candidate(vendorTaxId(lines, f.vendor_name), 'label'));
  pick('iban', candidate(iban(lines), 'position'));
  pick('payment_terms', paymentTerms(lines));
  if (!f.due_date) pick('due_date', candidate(dueFromTerms(lines, f.issue_date), 'position'));
  pick('account_number', candidate(accountNumber(lines), 'label'));
  const period = statementPeriod(lines, ctx.order);
  if (period) [f.period_start, f.period_end] = [choose(candidate(period.start, 'label')), choose(candidate(period.end, 'label'))];
  // The issue date of a statement is not its period's first day.
  if (period && f.issue_date && f.issue_date.confidence < 0.7) f.issue_date = null;
  return f;
}

/**
 * Evidence weighed once every field is read. A field's confidence is what its place earned (its
 * label, its position) times how surely OCR read its characters. Where the characters are proven
 * by something other than the OCR's own score, that doubt is answered and the field keeps what its
 * place earned: an IBAN's check digits, a due date that is the issue date plus the payment term
 * printed on the page. Amounts that agree by arithmetic settle both their reading and their roles:
 * subtotal + tax = total read from three separate lines, or a tax that is its printed rate of the
 * subtotal (or, tax included, of the total). Where a check fails (a VAT id whose check digits
 * disagree), the field is held below 0.7.
 */
import type { Field, Fields, Totals } from '../types.js';
import { inkOf, joinWords, type TextLine } from '../locale/lines.js';
import { digitsApart, parseNumber, sameAmount, withinACent, type Convention } from '../locale/numbers.js';
import { DAYS_TERM } from './fields.js';
import { summaryKind } from '../lineitems/vocabulary.js';
import { vatIdChecks } from './vat-id.js';
import type { Paid } from './money.js';

/** What a reading proven by arithmetic or check digits can stand at (a text layer's labelled IBAN stands at 0.95). */
const PROVEN = 0.95;
/** Where a field that fails a check is held ("below 0.7", API.md §4). */
const FAILED = 0.6;
/** Where a figure read otherwise than printed (made to fit the others) is held. */
const CHOSEN_AGAINST = 0.69;

const num = (f: Field | null) => (f && typeof f.value === 'number' ? f.value : null);

/**
 * Whether `b` is `a` with one or two of its digits read otherwise (`812,85` taken as 312,85),
 * signs aside: a figure made to fit the others may differ from its print in two digits, where a
 * totals row's repair (`oneDigitApart`) allows one.
 */
function misreadDigits(a: number, b: number): boolean {
  const apart = digitsApart(Math.abs(a).toFixed(2), Math.abs(b).toFixed(2));
  return apart !== null && apart >= 1 && apart <= 2;
}

/** The mean OCR confidence of the words inside `f`'s box (1 on a text layer). */
function inkAt(f: Field, lines: TextLine[]): number {
  const [x0, y0, x1, y1] = f.bbox;
  const inside = lines
    .filter((l) => l.page === f.page)
    .flatMap((l) => l.words)
    .filter((w) => w.confidence !== null && (w.x0 + w.x1) / 2 >= x0 - 1 && (w.x0 + w.x1) / 2 <= x1 + 1 && (w.y0 + w.y1) / 2 >= y0 - 1 && (w.y0 + w.y1) / 2 <= y1 + 1);
  return Math.max(0.05, inkOf(inside));
}

/** `f` with the OCR's doubt answered: its confidence divided by its ink's, up to `ceiling`. */
function proven(f: Field, lines: TextLine[], ceiling = PROVEN): Field {
  const lifted = Math.min(ceiling, f.confidence / inkAt(f, lines));
  return lifted > f.confidence ? { ...f, confidence: Math.round(lifted * 100) / 100 } : f;
}

/**
 * `f` settled by arithmetic: sure, unless its place left it below 0.7 before OCR's doubt (an
 * amount without a label, chosen against another reading), which a sum does not undo.
 */
function settled(f: Field, lines: TextLine[]): Field {
  return f.confidence / inkAt(f, lines) >= 0.7 ? { ...f, confidence: Math.max(f.confidence, PROVEN) } : f;
}

/** The terms of days printed on the page (`30 jours fin de mois` counts too: the date still follows from it when it does). */
function printedTerms(lines: TextLine[]): Set<number> {
  const out = new Set<number>();
  for (const l of lines) for (const m of joinWords(l.words).matchAll(new RegExp(DAYS_TERM.source, 'giu'))) out.add(Number(m[1] ?? m[2]));
  return out;
}

/** The tax rates printed on tax lines (`GST @6%`, `TVA 20,00 %`, `MwSt. 19%`). */
function printedRates(lines: TextLine[]): number[] {
  const out = new Set<number>();
  for (const l of lines) {
    if (!l.lower.includes('%') || summaryKind(l.lower) !== 'tax') continue;
    for (const m of l.lower.matchAll(/(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/g)) {
      const r = Number(m[1]!.replace(',', '.'));
      if (r > 0 && r <= 30) out.add(r);
    }
  }
  return [...out];
}

/** Whether `tax` is a printed rate of `base` (tax excluded) or of `total` (tax included), to the cent. */
function taxAtRate(tax: number, base: number | null, total: number | null, rates: number[]): boolean {
  return rates.some((r) => (base !== null && withinACent(base * (r / 100), tax)) || (total !== null && withinACent(total * (r / (100 + r)), tax)));
}

/** Whether a till receipt says `total` was paid: cash tendered less the change, or a card payment. */
function paidAs(total: number, p: Paid): boolean {
  return (p.cash !== null && p.change !== null && p.change > 0 && sameAmount(p.cash - p.change, total)) || (p.card !== null && sameAmount(p.card, total));
}

/**
 * `fields` with the confidences their evidence earns (in place): the money fields when they add
 * up (`totals` has no `total_mismatch`), the dates when the term agrees, the IBAN by its check
 * digits, the vendor's VAT id held down when its check digits fail. `paid` is what the till
 * receipt says was paid (`cashAndChange`, as the money fields were read with).
 */
export function weighEvidence(fields: Fields, totals: Totals | null, lines: TextLine[], conv: Convention | null, paid: Paid, itemsAdd: boolean): void {
  const [subtotal, tax, total] = [num(fields.subtotal), num(fields.tax), num(fields.total)];
  // A figure made to fit the others (a printed number with a look-alike digit read otherwise)
  // has used the arithmetic up: the sum proves nothing then.
  const made = (f: Field | null) => {
    const printed = f && /^\S+$/.test(f.text.trim()) ? parseNumber(f.text, conv) : null;
    return !!printed && typeof f!.value === 'number' && misreadDigits(printed.value, f!.value);
  };
  const repaired = (['subtotal', 'tax', 'total'] as const).some((n) => made(fields[n]));
  // Chosen against what the page prints, a figure is a guess however well it fits.
  for (const n of ['subtotal', 'tax', 'total', 'amount_due'] as const) if (made(fields[n])) fields[n] = { ...fields[n]!, confidence: Math.min(fields[n]!.confidence, CHOSEN_AGAINST) };
  const adds = !repaired && !totals?.flags.includes('total_mismatch');
  const rates = printedRates(lines);
  const atRate = { subtotal: tax !== null && tax > 0 && taxAtRate(tax, subtotal, null, rates), total: tax !== null && tax > 0 && taxAtRate(tax, null, total, rates) };
  if (adds && subtotal !== null && tax !== null && total !== null && tax !== 0 && sameAmount(subtotal + tax, total) && !sameAmount(subtotal, total)) {
    // Three amounts read apart that add up: an OCR slip in any of them would break the sum, and
    // a figure in the wrong role would too, whatever the label's reading said of it.
    for (const n of ['subtotal', 'tax', 'total'] as const) fields[n] = settled(fields[n]!, lines);
  } else if (adds && (atRate.subtotal || atRate.total)) {
    // The tax is its printed rate of the amount it is charged on: the two figures agree.
    fields.tax = settled(fields.tax!, lines);
    if (atRate.subtotal) fields.subtotal = settled(fields.subtotal!, lines);
    if (atRate.total) fields.total = settled(fields.total!, lines);
  } else if (total !== null && total > 0 && paidAs(total, paid)) {
    // The till's own arithmetic: what was tendered less the change given back, or the amount a
    // card was charged, is the total read under its label.
    fields.total = settled(fields.total!, lines);
  } else if (itemsAdd && adds) {
    // The items add up to the subtotal (or, without one, to the total): a second reading of that figure.
    const n = subtotal !== null ? 'subtotal' : 'total';
    if (fields[n]) fields[n] = proven(fields[n]!, lines);
  }
  if (fields.iban && fields.iban.source !== 'vendor_memory') fields.iban = proven(fields.iban, lines);
  const { issue_date: issue, due_date: due } = fields;
  // A due date computed from the term itself (its text is the term) proves nothing.
  if (issue && due && !DAYS_TERM.test(due.text)) {
    const days = Math.round((Date.parse(String(due.value)) - Date.parse(String(issue.value))) / 864e5);
    if (days > 0 && printedTerms(lines).has(days)) {
      fields.issue_date = proven(issue, lines, 0.9);
      fields.due_date = proven(due, lines, 0.9);
    }
  }
  const vat = fields.vendor_tax_id;
  if (vat && vatIdChecks(String(vat.value)) === false) fields.vendor_tax_id = { ...vat, confidence: Math.min(vat.confidence, FAILED) };
}

/**
 * Fields checked against each other and against the items: subtotal + tax = total
 * (`total_mismatch`), the items add up to the subtotal, or to the total (`items_sum_mismatch`).
 * A check that fails is a flag on the totals and lowers the confidence of the fields involved.
 */
import type { Fields, LineItem, Totals } from '../types.js';
import { cents } from '../locale/numbers.js';

const num = (f: Fields[keyof Fields]) => (f && typeof f.value === 'number' ? f.value : null);
const near = (a: number, b: number) => Math.abs(cents(a) - cents(b)) <= 0.011;

/** The flags the fields earn, and lowered confidences on the fields that disagree. */
export function checkFields(fields: Fields, items: LineItem[]): string[] {
  const flags: string[] = [];
  const [subtotal, tax, total] = [num(fields.subtotal), num(fields.tax), num(fields.total)];
  const doubt = (...names: (keyof Fields)[]) => {
    for (const n of names) if (fields[n]) fields[n] = { ...fields[n]!, confidence: Math.round(fields[n]!.confidence * 60) / 100 };
  };
  if (subtotal !== null && tax !== null && total !== null && !near(subtotal + tax, total)) {
    flags.push('total_mismatch');
    doubt('subtotal', 'tax', 'total');
  }
  const amounts = items.map((i) => i.amount);
  if (amounts.length && amounts.every((a) => a !== null)) {
    const sum = cents(amounts.reduce((s: number, a) => s + a!, 0));
    const ok = subtotal !== null ? near(sum, subtotal) : total === null || near(sum, total) || (tax !== null && near(sum, total - tax));
    if (!ok) {
      flags.push('items_sum_mismatch');
      doubt(subtotal !== null ? 'subtotal' : 'total');
    }
  }
  return flags;
}

/** The totals of a document: those found by the item table, else the fields' own; with every flag of both. */
export function mergeTotals(totals: Totals | null, fields: Fields, flags: string[]): Totals | null {
  const base: Totals | null =
    totals ??
    (fields.total || fields.subtotal || fields.tax
      ? { subtotal: num(fields.subtotal), tax: num(fields.tax), total: num(fields.total), currency: (fields.currency?.value as string | undefined) ?? null, flags: [] }
      : null);
  if (!base) return null;
  return { ...base, flags: [...new Set([...base.flags, ...flags])] };
}

/**
 * Fields checked against each other and against the items: subtotal + tax = total
 * (`total_mismatch`), the items add up to the subtotal, or to the total (`items_sum_mismatch`),
 * with the document's own allowances and charges (`REMISE : … -5,00`, `CHARGE : … 10,00`)
 * where the items alone do not. A check that fails is a flag on the totals and lowers the
 * confidence of the fields involved.
 */
import type { Fields, LineItem, Totals } from '../types.js';
import { CENT_TOLERANCE, ENDS_WITH_CENTS, cents, itemsAddUp, parseNumber, sameAmount, type Convention } from '../locale/numbers.js';
import type { TextLine } from '../locale/lines.js';
import { printedAt } from './amounts.js';
import { field } from './labelled.js';

/** A document-level allowance or charge line opens with its kind and a colon (Factur-X prints `95  REMISE :`, `FC  CHARGE :`, after a reason code). */
const ADJUSTS = /^(?:[\p{L}\d]{1,6}\s+)?(remise|rabais|escompte|allowance|discount|rabatt|nachlass|abschlag|descuento|sconto|korting|charge|surcharge|frais|zuschlag|recargo|maggiorazione|toeslag)\s*[:：]/iu;
const ALLOWANCE = /^(?:[\p{L}\d]{1,6}\s+)?(remise|rabais|escompte|allowance|discount|rabatt|nachlass|abschlag|descuento|sconto|korting)/iu;

/** The amounts of the document's allowance (negative) and charge (positive) lines: the last amount on each that is not a rate. */
export function documentAdjustments(lines: TextLine[], conv: Convention | null): number[] {
  const out: number[] = [];
  for (const l of lines) {
    if (!ADJUSTS.test(l.lower)) continue;
    for (let i = l.words.length - 1; i >= 0; i--) {
      const t = l.words[i]!.text;
      const n = ENDS_WITH_CENTS.test(t) ? parseNumber(t, conv) : null;
      if (!n || n.percent) continue;
      out.push(ALLOWANCE.test(l.lower) && n.value > 0 ? -n.value : n.value);
      break;
    }
  }
  return out;
}

const num = (f: Fields[keyof Fields]) => (f && typeof f.value === 'number' ? f.value : null);

/** The flags the fields earn, and lowered confidences on the fields that disagree; `itemsAdd` when the items (with the document's allowances and charges) add up. */
export function checkFields(fields: Fields, items: LineItem[], adjustments: number[] = []): { flags: string[]; itemsAdd: boolean } {
  const flags: string[] = [];
  let itemsAdd = false;
  const [subtotal, tax, total] = [num(fields.subtotal), num(fields.tax), num(fields.total)];
  const doubt = (...names: (keyof Fields)[]) => {
    for (const n of names) if (fields[n]) fields[n] = { ...fields[n]!, confidence: Math.round(fields[n]!.confidence * 60) / 100 };
  };
  if (subtotal !== null && tax !== null && total !== null && !sameAmount(subtotal + tax, total)) {
    flags.push('total_mismatch');
    doubt('subtotal', 'tax', 'total');
  } else if (subtotal !== null && tax === null && total !== null && total < subtotal - CENT_TOLERANCE && !adjustments.some((a) => a < 0)) {
    // A total below its subtotal, with no tax and no allowance printed to explain it: one of them is misread.
    doubt('subtotal', 'total');
  }
  const amounts = items.map((i) => i.amount);
  if (amounts.length && amounts.every((a) => a !== null)) {
    const items = cents(amounts.reduce((s: number, a) => s + a!, 0));
    const adjusted = cents(items + adjustments.reduce((s, a) => s + a, 0));
    const adds = (sum: number) => itemsAddUp(sum, subtotal, tax, total);
    itemsAdd = adds(items) || (adjustments.length > 0 && adds(adjusted));
    if (!itemsAdd) {
      flags.push('items_sum_mismatch');
      // Subtotal, a tax and the total read apart that add up prove one another: the items are
      // what was misread, not the subtotal.
      const proven = subtotal !== null && tax !== null && total !== null && tax !== 0 && sameAmount(subtotal + tax, total) && !sameAmount(subtotal, total);
      if (!proven) doubt(subtotal !== null ? 'subtotal' : 'total');
    }
  }
  return { flags, itemsAdd };
}

/**
 * The totals of a document: those found by the item table, else the fields' own; with every flag
 * of both, but the item table's `items_sum_mismatch` where the items add up with the document's
 * allowances and charges (`itemsAdd`).
 */
export function mergeTotals(totals: Totals | null, fields: Fields, flags: string[], itemsAdd = false): Totals | null {
  const base: Totals | null =
    totals ??
    (fields.total || fields.subtotal || fields.tax
      ? { subtotal: num(fields.subtotal), tax: num(fields.tax), total: num(fields.total), currency: (fields.currency?.value as string | undefined) ?? null, flags: [] }
      : null);
  if (!base) return null;
  const own = itemsAdd ? base.flags.filter((f) => f !== 'items_sum_mismatch') : base.flags;
  return { ...base, flags: [...new Set([...own, ...flags])] };
}

const MONEY_KEYS = ['subtotal', 'tax', 'total'] as const;


/**
 * The totals made to say what the fields say, so one result never states two subtotals: where
 * the item table's summary rows read a figure otherwise than the fields (every labelled reading
 * of the page, checked by arithmetic), the reading with which subtotal + tax = total, or the items
 * add up, wins in both; a field that loses that way takes the other figure at 0.6 (chosen against
 * a competing reading). On a tie the field's stands, below 0.7. The `total_mismatch` flag follows
 * the result.
 */
export function agreeTotals(totals: Totals | null, fields: Fields, items: LineItem[], lines: TextLine[], conv: Convention | null): Totals | null {
  if (!totals) return null;
  const out: Totals = { ...totals };
  const amounts = items.map((i) => i.amount);
  const itemSum = amounts.length && amounts.every((a) => a !== null) ? cents(amounts.reduce((s: number, a) => s + a!, 0)) : null;
  const score = (v: Record<(typeof MONEY_KEYS)[number], number | null>) =>
    (v.subtotal !== null && v.tax !== null && v.total !== null && sameAmount(v.subtotal + v.tax, v.total) ? 2 : 0) + (itemSum !== null && itemsAddUp(itemSum, v.subtotal, v.tax, v.total) ? 1 : 0);
  for (const k of MONEY_KEYS) {
    const f = num(fields[k]);
    const t = out[k];
    if (f === null || t === null || sameAmount(f, t)) {
      if (f !== null) out[k] = f;
      continue;
    }
    const mine = { subtotal: num(fields.subtotal), tax: num(fields.tax), total: num(fields.total) };
    const [theirs, ours] = [score({ ...mine, [k]: t }), score(mine)];
    if (theirs > ours) {
      const at = printedAt(t, lines, conv);
      const old = fields[k]!;
      fields[k] = at ? { ...field(t, at.words, at.page, Math.min(0.6, old.confidence)), source: old.source } : { ...old, value: t, confidence: Math.min(0.6, old.confidence) };
    } else {
      out[k] = f;
      // Two readings that check out equally well (or equally badly): the field's is a guess.
      if (theirs === ours) fields[k] = { ...fields[k]!, confidence: Math.min(0.69, fields[k]!.confidence) };
    }
  }
  const adds = out.subtotal === null || out.tax === null || out.total === null || sameAmount(out.subtotal + out.tax, out.total);
  out.flags = adds ? out.flags.filter((x) => x !== 'total_mismatch') : [...new Set([...out.flags, 'total_mismatch'])];
  return out;
}

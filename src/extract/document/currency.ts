/** A document's currency changed after its amounts were read: by a person's correction, or by its vendor's memory. */
import type { LineItem, Totals } from '../types.js';

/**
 * The document's line items and totals in currency `to`: those in its former currency `from`, or
 * naming none, take `to`; an item priced in another currency (a foreign fee on an invoice) keeps it.
 */
export function carryCurrency(items: LineItem[], totals: Totals | null, from: string | null, to: string): { line_items: LineItem[]; totals: Totals | null } {
  const moves = (c: string | null) => c === null || c === from;
  return {
    line_items: items.map((i) => (moves(i.currency) && i.currency !== to ? { ...i, currency: to } : i)),
    totals: totals && moves(totals.currency) ? { ...totals, currency: to } : totals,
  };
}

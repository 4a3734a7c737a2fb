/**
 * Two figures the page reader put in one cell: neighbouring columns set close together (a VAT
 * rate beside its amount, `19 % 573,00` or `19,00 51,50`; a count beside its price, `1 180.00`
 * with the price's own cell empty). Read as one, `19 573.00` is 19573, a space-grouped number;
 * read apart, it is a rate and 573.00. A cell that reads as one number is taken apart only where
 * the row's arithmetic (quantity × unit price = amount) or the column's header says so.
 */
import { normalizeText, parseNumber, withinACent, type Convention, type ParsedNumber } from '../locale/numbers.js';
import { VAT_RATES } from './vocabulary.js';

/** The roles of a row's figures that the arithmetic reads. */
export interface Figures {
  quantity: number;
  unit_price: number;
  amount: number;
}

/** One of two figures side by side: its text as printed and its reading. */
interface Figure {
  text: string;
  n: ParsedNumber;
}

/** The two figures of `text` (`19 % 573,00` → 19 %, 573,00), or null when it is not two numbers side by side. */
export function twoFigures(text: string, conv: Convention | null): [Figure, Figure] | null {
  const m = /^(\S+?(?:\s?%)?)\s+(\S+)$/u.exec(normalizeText(text));
  if (!m) return null;
  const a = parseNumber(m[1]!, conv);
  const b = parseNumber(m[2]!, conv);
  return a && b && !b.percent ? [{ text: m[1]!, n: a }, { text: m[2]!, n: b }] : null;
}

/** Whether `n` is a VAT rate as printed in a rate column (`19`, `19,00`, `19 %`). */
export function isRate(n: ParsedNumber): boolean {
  return n.percent || VAT_RATES.has(n.value);
}

/** q × p = a within a cent. */
export function multiplies(q: number | null, p: number | null, a: number | null): boolean {
  return q !== null && p !== null && a !== null && withinACent(q * p, a);
}

/**
 * The texts of one row with glued figures taken apart: a cell of the quantity, unit price or
 * amount column (`cols`, -1 where missing) holding two figures gives one to the empty figure
 * column right beside it, or drops the leading one when it is a rate. A cell that also reads as
 * one space-grouped number (`19 573.00`) is taken apart only when the row's arithmetic holds
 * apart and not together, or when its header names a rate and the leading figure is one.
 */
export function unglue(
  texts: string[],
  cols: Record<keyof Figures, number>,
  read: (text: string, col: number) => ParsedNumber | null,
  conv: (col: number) => Convention | null,
  rateHeader: (col: number) => boolean,
): string[] {
  let out = [...texts];
  const value = (role: keyof Figures, t: string[]) => (cols[role] >= 0 && t[cols[role]] ? (read(t[cols[role]]!, cols[role])?.value ?? null) : null);
  const holds = (t: string[]) => multiplies(value('quantity', t), value('unit_price', t), value('amount', t));
  const figureCols = Object.values(cols).filter((c) => c >= 0);
  for (const c of [...figureCols].sort((a, b) => a - b)) {
    const text = out[c];
    const pair = text ? twoFigures(text, conv(c)) : null;
    if (!pair) continue;
    const [lead, rest] = pair;
    const apart = [...out];
    const empty = (k: number) => figureCols.includes(k) && !out[k];
    let filled = true;
    // An article number or EAN before the figure (`05899800555 150`) is no figure of the row.
    if (/^\d{8,}$/.test(lead.text)) [apart[c], filled] = [rest.text, false];
    else if (empty(c - 1) && !lead.n.percent) [apart[c - 1], apart[c]] = [lead.text, rest.text];
    else if (empty(c + 1) && !lead.n.percent) [apart[c], apart[c + 1]] = [lead.text, rest.text];
    else if (isRate(lead.n)) [apart[c], filled] = [rest.text, false];
    else continue;
    const arithmetic = holds(apart) && !holds(out);
    if (read(text, c) && !arithmetic && (filled || !rateHeader(c))) continue;
    out = apart;
  }
  return out;
}

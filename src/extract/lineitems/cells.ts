/**
 * The number a line-item cell holds. Most cells are one number; some e-invoice renderings print a
 * price as its small calculation, one labelled figure a line (`(Brut: 65,00)`, `(Rabais: 5,00)`,
 * `(Net): 60,00`): the figure labelled net is the cell's value (without one, there is no guess).
 */
import { normalizeText, parseNumber, parseQuantity, type Convention, type ParsedNumber } from '../locale/numbers.js';

/** A label that marks the net figure of a calculation. */
const NET_LABEL = /^(net|netto|neto|nett|ht|net ht|prix net|net price|nettopreis|precio neto|prezzo netto|preço líquido)$/i;

/** One line of a calculation: an optional label, a colon, a figure; brackets around either. */
const CALC_LINE = /^([\p{L}][\p{L} .'-]*?)?\s*:?\s*(-?[\d€$£¥(][^:]*)$/u;

/** The value of cell text `text` read with `conv` (quantities may carry their unit), or null. */
export function cellNumber(text: string, conv: Convention | null, quantity = false): ParsedNumber | null {
  const read = quantity ? parseQuantity : parseNumber;
  const plain = read(text, conv);
  if (plain || !text.includes('\n')) return plain;
  const lines = text
    .split('\n')
    .map((l) => normalizeText(l).replace(/[()]/g, ' ').replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  if (lines.length < 2) return null;
  const read2: { label: string; n: ParsedNumber }[] = [];
  for (const l of lines) {
    const m = CALC_LINE.exec(l);
    const n = m ? parseNumber(m[2]!.trim(), conv) : null;
    // Every line must be a labelled figure; a description with a number in it is not a calculation.
    if (!m || !m[1] || !n || n.percent) return null;
    read2.push({ label: m[1].trim(), n });
  }
  return read2.find((x) => NET_LABEL.test(x.label))?.n ?? null;
}

/** `cellNumber` under either convention: for tests of what a column holds, not for its values. */
export function cellNumberAny(text: string, quantity = false): ParsedNumber | null {
  return cellNumber(text, 'dot', quantity) ?? cellNumber(text, 'comma', quantity);
}

/** The first number of a cell holding one number a line (two item lines in one row), under either convention; null otherwise. */
export function stackedNumber(text: string, quantity = false): ParsedNumber | null {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length < 2) return null;
  const read = lines.map((l) => cellNumberAny(l, quantity));
  return read.every((n) => n !== null) ? read[0]! : null;
}

/**
 * The one home for reading a number and a currency: every reader of the engine (fields, totals,
 * line items, tables, vendor memory) reads amounts, quantities, percentages and currency signs
 * with these functions, so two parts of one result never read the same print two ways. Dates
 * have theirs in `dates.ts` beside it; the document's convention, date order and currency are
 * worked out once in `index.ts`.
 *
 * Money and quantity numbers as printed on invoices and statements. The decimal separator is a
 * property of the document (or of one column), not of one cell: `1.234` is 1234 in a German
 * invoice and 1.234 in an English one, so a cell is read with a convention decided from the
 * other numbers around it (`detectConvention`).
 */
import { allMatches } from '../matches.js';

/** Which character is the decimal separator: `dot` (1,234.56) or `comma` (1.234,56). */
export type Convention = 'dot' | 'comma';

/** A parsed amount: the value, the ISO currency printed with it (or null), and whether it was a percentage. */
export interface ParsedNumber {
  value: number;
  currency: string | null;
  percent: boolean;
}

/** Symbols that stand for one currency. `$` is read as USD, `¥` as JPY and `kr` as SEK: the common case. */
const SYMBOLS: Record<string, string> = {
  '€': 'EUR',
  $: 'USD',
  US$: 'USD',
  '£': 'GBP',
  '¥': 'JPY',
  '円': 'JPY',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  'zł': 'PLN',
  'Kč': 'CZK',
  'Fr.': 'CHF',
  'R$': 'BRL',
  RM: 'MYR',
  Rs: 'INR',
  'Rs.': 'INR',
  kr: 'SEK',
  'kr.': 'SEK',
};

/** ISO 4217 codes we recognise next to a number (a closed list, so `PCS 12` is not a currency). */
const CODES = new Set(
  'EUR USD GBP CHF JPY CNY CAD AUD NZD SEK NOK DKK PLN CZK HUF RON BGN INR KRW BRL MXN ZAR SGD HKD TRY RUB ILS AED SAR THB MYR IDR PHP'.split(
    ' ',
  ),
);

// `RM`, `Rs` and `kr` only as words of their own (`RM12.50`, `Rs. 500`), not inside `FIRM` or `Krone`.
const SYMBOL_RE = /(US\$|R\$|Fr\.|zł|Kč|[€$£¥円₹₩₽]|(?<![A-Za-z])(?:RM|Rs\.?|kr\.?)(?![A-Za-z]))/u;
const CODE_RE = /(?:^|[^A-Za-z])([A-Z]{3})(?![A-Za-z])/;
const MINUS = /[-−–]/u;

/** Text normalised for reading: full-width digits and the no-break/thin spaces (NFKC) become ASCII. */
export function normalizeText(text: string): string {
  // Most cells are plain ASCII; NFKC is the cost of this module otherwise (ICDAR profile: 25 %).
  if (/^[\x20-\x7e]*$/.test(text)) return text.includes('  ') ? text.replace(/ +/g, ' ').trim() : text.trim();
  return text
    .normalize('NFKC')
    .replace(/[\u00a0\u2007\u2009\u202f\u200a]/g, ' ')
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** A currency sign standing alone as a word: a symbol, or a dollar with its country's letters (`US$`, `A$`). */
export function isCurrencySign(text: string): boolean {
  return /^([A-Z]{1,3}\$|[$€£¥₹₩₽])$/u.test(text);
}

/** The ISO currency named in `text` by a symbol or a code, or null. */
export function currencyOf(text: string): string | null {
  const t = normalizeText(text);
  const sym = SYMBOL_RE.exec(t);
  if (sym) return SYMBOLS[sym[1]!] ?? null;
  const code = CODE_RE.exec(t);
  if (code && CODES.has(code[1]!)) return code[1]!;
  return null;
}

interface Stripped {
  body: string;
  negative: boolean;
  currency: string | null;
  percent: boolean;
}

/** Splits sign, currency and percent from the digits; null when anything else is left over. */
function strip(text: string): Stripped | null {
  let t = normalizeText(text);
  if (!t) return null;
  let currency: string | null = null;
  let negative = false;
  let percent = false;
  const sym = SYMBOL_RE.exec(t);
  if (sym) {
    currency = SYMBOLS[sym[1]!] ?? null;
    t = (t.slice(0, sym.index) + ' ' + t.slice(sym.index + sym[1]!.length)).trim();
  }
  const code = CODE_RE.exec(t);
  if (code && CODES.has(code[1]!)) {
    if (currency && currency !== code[1]) return null;
    currency = code[1]!;
    const at = t.indexOf(code[1]!, code.index);
    t = (t.slice(0, at) + ' ' + t.slice(at + 3)).trim();
  }
  if (t.endsWith('%')) {
    percent = true;
    t = t.slice(0, -1).trim();
  }
  if (t.startsWith('(') && t.endsWith(')')) {
    negative = true;
    t = t.slice(1, -1).trim();
  }
  // German retail `12,-` / `12,--` is 12 euros with no cents, not a negative number.
  t = t.replace(/^(\d[\d.' ]*),[-–—]{1,2}$/u, '$1');
  if (t.length > 1 && MINUS.test(t[0]!)) {
    negative = !negative;
    t = t.slice(1).trim();
  } else if (t.length > 1 && MINUS.test(t[t.length - 1]!)) {
    // SAP and many ERPs print credits as `12.00-`.
    negative = !negative;
    t = t.slice(0, -1).trim();
  } else if (t.startsWith('+')) {
    t = t.slice(1).trim();
  }
  // A sign may sit outside the currency: `-€ 12,00`, `€ -12,00`, `(€12.00)`.
  if (t.startsWith('(') && t.endsWith(')') && !negative) {
    negative = true;
    t = t.slice(1, -1).trim();
  }
  t = t.replace(/^(\d[\d.' ]*),[-–—]{1,2}$/u, '$1'); // `-12,-` once the sign is off
  // OCR sets a space after the decimal mark of a bold or spaced figure (`60, 00`): two digits
  // after a mark and a space are its cents; no grouping leaves two digits.
  t = t.replace(/(\d[.,]) (\d{2})$/u, '$1$2');
  if (!/^\d[\d.,' ]*$/.test(t) && !/^[.,]\d+$/.test(t)) return null;
  return { body: t, negative, currency, percent };
}

/** Evidence one number gives about the decimal separator, or null when it gives none. */
function evidence(body: string): Convention | null {
  const lastDot = body.lastIndexOf('.');
  const lastComma = body.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? 'dot' : 'comma';
  const sep = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : null;
  if (!sep) return null;
  const count = body.split(sep).length - 1;
  const after = body.length - body.lastIndexOf(sep) - 1;
  if (count > 1) return sep === '.' ? 'comma' : 'dot'; // 1.234.567: the repeated one groups
  if (after !== 3) return sep === '.' ? 'dot' : 'comma'; // 12,5 or 12.50: a decimal
  if (/[ ']/.test(body)) return sep === '.' ? 'dot' : 'comma'; // 1 234,567 or 1'234.567
  if (/^0[.,]/.test(body)) return sep === '.' ? 'dot' : 'comma'; // 0,125: no one groups a leading 0
  return null; // 1.234: either
}

/** True when `groups` (the integer part split at group separators) is a well-formed grouping. */
function wellGrouped(groups: string[]): boolean {
  if (groups.length === 1) return /^\d+$/.test(groups[0]!);
  if (!/^\d{1,3}$/.test(groups[0]!)) return false;
  const rest = groups.slice(1);
  // Western 3-digit groups, or the Indian lakh form 1,23,45,678.
  if (rest.every((g) => /^\d{3}$/.test(g))) return true;
  return rest.slice(0, -1).every((g) => /^\d{2}$/.test(g)) && /^\d{3}$/.test(rest[rest.length - 1]!);
}

function readBody(body: string, conv: Convention): number | null {
  const dec = conv === 'dot' ? '.' : ',';
  const group = conv === 'dot' ? ',' : '.';
  const spaced = /[ ']/.test(body);
  if (spaced && body.includes(group)) return null; // `1 234.567,00` mixes two group marks
  const decAt = body.lastIndexOf(dec);
  if (body.indexOf(dec) !== decAt) return null;
  const intPart = decAt >= 0 ? body.slice(0, decAt) : body;
  const frac = decAt >= 0 ? body.slice(decAt + 1) : '';
  if (!/^\d*$/.test(frac) || (decAt >= 0 && frac === '')) return null;
  if (intPart === '' && frac === '') return null;
  const groups = intPart === '' ? ['0'] : intPart.split(/[ ',.]/);
  if (!wellGrouped(groups)) return null;
  return Number(groups.join('') + (frac ? '.' + frac : ''));
}

/**
 * Reads `text` as a number with the decimal convention `conv` (used only where the text itself
 * is ambiguous). Handles `1.234,56`, `1,234.56`, `1 234,56`, `1'234.56`, `(12.00)`, `12.00-`,
 * `-12`, currency signs and codes either side, and `19 %`. Null when the text is not one number
 * (dates such as `15.01.2024`, words, two numbers).
 */
export function parseNumber(text: string, conv: Convention | null = null): ParsedNumber | null {
  const s = strip(text);
  if (!s) return null;
  const own = evidence(s.body);
  const value = readBody(s.body, own ?? conv ?? 'dot');
  if (value === null || !Number.isFinite(value)) return null;
  return { value: s.negative && value !== 0 ? -value : value, currency: s.currency, percent: s.percent };
}

const UNIT_AFTER = /^(.*?\d)\s*(\p{L}{1,6}\.?|m²|m2|m³|個|台|本|式|枚|件|時間|箱)$/u;

/**
 * A quantity, which may carry its unit (`3 Std.`, `2 pcs`, `1.500 Stk.`, `5個`): the number, or
 * null. Used only for quantity columns, where a word after the number is a unit, not a currency.
 */
export function parseQuantity(text: string, conv: Convention | null = null): ParsedNumber | null {
  const plain = parseNumber(text, conv);
  if (plain) return plain;
  const m = UNIT_AFTER.exec(normalizeText(text));
  if (!m) return null;
  const n = parseNumber(m[1]!, conv);
  return n && !n.percent && !n.currency ? n : null;
}

/**
 * Whether a number's print says it is an identifier, not money: digits grouped by spaces with no
 * decimals (`987 654 321`, a SIREN or the tail of a VAT id: amounts printed with group spaces
 * carry their cents, `1 234,56`), or eight digits and more without decimals (an account, a GLN).
 */
export function looksLikeId(number: string): boolean {
  const t = normalizeText(number).replace(/^[^\d]+|[^\d]+$/g, '');
  if (/[.,]\d{1,2}$/.test(t)) return false;
  return /^\d{1,3}( \d{3})+$/.test(t) || /^\d{8,}$/.test(t);
}

/** True when `text` reads as a number under either convention. */
export function isNumeric(text: string): boolean {
  return parseNumber(text, 'dot') !== null || parseNumber(text, 'comma') !== null;
}

/** Votes of a set of texts for each convention (only texts that decide it count). */
export function conventionVotes(texts: Iterable<string>): { dot: number; comma: number } {
  const votes = { dot: 0, comma: 0 };
  for (const text of texts) {
    const s = strip(text);
    if (!s) continue;
    const e = evidence(s.body);
    if (e && readBody(s.body, e) !== null) votes[e]++;
  }
  return votes;
}

/**
 * The decimal convention of a document from its number-like texts: the majority of the texts
 * that decide it, else `fallback` (e.g. from the language of the headers), else null.
 */
export function detectConvention(texts: Iterable<string>, fallback: Convention | null = null): Convention | null {
  const v = conventionVotes(texts);
  if (v.dot > v.comma) return 'dot';
  if (v.comma > v.dot) return 'comma';
  return fallback;
}

/**
 * The number a few words of a line are, as OCR may leave it (vendor memory reads its spans so):
 * one bracket alone dropped (`( 47.70` without its `)`: OCR's or the line's, no negative amount),
 * up to three letters glued before the digits set aside (`RM12.50`, `S12.50`), the text as it is
 * else; the usual reading of either convention; a percentage is none.
 */
export function looseNumber(text: string): number | null {
  if ((text.match(/[()]/g) ?? []).length === 1) text = text.replace(/[()]/, '').trim();
  const n = parseNumber(text.replace(/^[A-Za-z]{1,3}(?=\d)/, '')) ?? parseNumber(text);
  return n && !n.percent ? n.value : null;
}

/** Rounds to cents, so sums of parsed decimals compare exactly (0.1 + 0.2 → 0.3). */
export function cents(n: number): number {
  return Math.round(n * 100) / 100;
}

/** A cent, and room for the binary fractions of sums of decimals: how far two amounts may be apart and still agree. */
export const CENT_TOLERANCE = 0.011;

/** Whether `a` and `b` are within a cent of each other, as they are (a product or a share is not rounded first). */
export function withinACent(a: number, b: number): boolean {
  return Math.abs(a - b) <= CENT_TOLERANCE;
}

/** Whether two amounts are the same to the cent: each rounded to cents, then within a cent. */
export function sameAmount(a: number, b: number): boolean {
  return withinACent(cents(a), cents(b));
}

/**
 * Letters and marks OCR reads for digits in print (`O` and `D` for 0, `l`, `I` and `|` for 1,
 * `S` for 5, `B` for 8, `G` for 6, `Z` for 2): each with the digit it stands for.
 */
export const DIGIT_LOOKALIKES: Readonly<Record<string, string>> = { O: '0', o: '0', Q: '0', D: '0', B: '8', l: '1', I: '1', i: '1', '|': '1', S: '5', s: '5', Z: '2', z: '2', G: '6' };

/** In how many places two prints of a figure differ, character by character (`38.75` and `39.75`: 1); null when their lengths differ. */
export function digitsApart(a: string, b: string): number | null {
  if (a.length !== b.length) return null;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  return diff;
}

/** Two amounts printed alike but for one digit (`38.75` and `39.75`, as `toFixed(2)` gives them). */
export function oneDigitApart(a: string, b: string): boolean {
  return digitsApart(a, b) === 1;
}

/**
 * Whether items summing to `sum` agree with a document's totals: with its subtotal when it
 * prints one, else with its total or its total less tax; true when there is nothing to compare.
 */
export function itemsAddUp(sum: number, subtotal: number | null, tax: number | null, total: number | null): boolean {
  const near = (x: number) => sameAmount(sum, x);
  if (subtotal !== null) return near(subtotal);
  return total === null || near(total) || (tax !== null && near(total - tax));
}

/** A figure with its cents (`12.50`, `1.234,00`, `RM 7.90`): a mark and two digits, no third after them. */
export const WITH_CENTS = /\d[.,]\d{2}(?!\d)/;
/** A text that ends in a figure with its cents (`12.50`, `Total 7,90`), as an amount at the end of a line does. */
export const ENDS_WITH_CENTS = /\d[.,]\d{2}$/;

/** An amount with cents in running text as OCR reads it, a space allowed beside its mark (`177, 20`). */
const AMOUNT_IN_TEXT = /(?<![\d.,])(\d{1,3}(?:[,.]\d{3})+|\d+)\s?([.,])\s?(\d{2})(?![.,]?\d)/g;

/**
 * The amounts with cents in a line of text, left to right, each with where it stands: the mark
 * before the two last digits is the decimal one, whatever the convention (`1.234,56`, `1,234.56`,
 * `12. 50`); a number without cents is no amount here (a count, a code).
 */
export function amountsIn(text: string): { value: number; index: number; raw: string }[] {
  const out: { value: number; index: number; raw: string }[] = [];
  for (const m of allMatches(AMOUNT_IN_TEXT, normalizeText(text))) {
    const n = parseNumber(`${m[1]!.replace(/\s/g, '')}${m[2]}${m[3]}`, m[2] === ',' ? 'comma' : 'dot');
    if (n) out.push({ value: n.value, index: m.index, raw: m[0] });
  }
  return out;
}

/**
 * Table cell text → a typed spreadsheet value in the document's own number format: amounts and
 * counts become numbers (read with the document's decimal convention, so `5,664` is 5.664 in a
 * German invoice and 5664 in an English one), whole-cell dates become dates, everything else
 * stays text exactly as extracted. The format code keeps what the text showed: its decimals, its
 * grouping, its currency sign and its percent.
 */
import { findDate, numericParts, type DateOrder } from '../../extract/locale/dates.js';
import { detectConvention, normalizeText, parseNumber, type Convention } from '../../extract/locale/numbers.js';
import type { DocumentResultView } from '../../contract/views.js';
import { DATE_FIELDS, FIELD_NAMES } from '../../extract/types.js';

/** How a document writes numbers and numeric dates. */
export interface NumberStyle {
  convention: Convention;
  dateOrder: DateOrder;
}

/** A typed cell: its value and, for numbers and dates, the format code to show it with. */
export interface TypedCell {
  value: string | number | Date;
  numFmt?: string;
}

/** Excel keeps 15 significant digits; longer digit strings (account numbers, ids) stay text. */
const MAX_DIGITS = 15;

function cellTexts(doc: DocumentResultView): string[] {
  const texts: string[] = [];
  for (const t of doc.tables ?? []) for (const c of t.cells) texts.push(c.text);
  for (const li of doc.line_items ?? []) texts.push(...Object.values(li.cells));
  for (const n of FIELD_NAMES) {
    const f = doc.fields?.[n];
    if (f) texts.push(f.text);
  }
  return texts;
}

/**
 * The document's decimal convention (the majority of its numbers that decide it, else `dot`) and
 * date order: its date fields tell it where their value pins it, else numeric dates with a part
 * above 12, else the convention's usual order (comma documents are day-first).
 */
export function documentNumberStyle(doc: DocumentResultView): NumberStyle {
  const texts = cellTexts(doc);
  const convention = detectConvention(texts, 'dot') ?? 'dot';
  const votes = { dmy: 0, mdy: 0 };
  for (const name of DATE_FIELDS) {
    const f = doc.fields?.[name];
    if (!f || typeof f.value !== 'string') continue;
    const asDmy = findDate(f.text, 'dmy')?.iso === f.value;
    const asMdy = findDate(f.text, 'mdy')?.iso === f.value;
    if (asDmy !== asMdy) votes[asDmy ? 'dmy' : 'mdy'] += 10;
  }
  for (const t of texts) {
    const p = numericParts(t);
    if (p && p[0] > 12 && p[1] <= 12) votes.dmy++;
    else if (p && p[1] > 12 && p[0] <= 12) votes.mdy++;
  }
  const dateOrder: DateOrder = votes.dmy !== votes.mdy ? (votes.dmy > votes.mdy ? 'dmy' : 'mdy') : convention === 'comma' ? 'dmy' : 'mdy';
  return { convention, dateOrder };
}

/** A literal of a format code; nothing for whitespace alone (`19 %` shows as `0%`). */
const quoted = (s: string): string => (s.trim() ? `"${s.replace(/"/g, '')}"` : '');

/** The format code of a number printed as `text` whose value is `value` (before any percent scaling). */
function numberFormat(text: string, value: number, percent: boolean): string {
  const first = text.search(/\d/);
  const last = text.length - 1 - [...text].reverse().join('').search(/\d/);
  const digits = text.slice(first, last + 1).replace(/\D/g, '');
  let decimals = 0;
  while (decimals < 10 && Math.abs(Number(digits) / 10 ** decimals - Math.abs(value)) > 1e-9 * Math.max(1, Math.abs(value))) decimals++;
  const separators = (text.slice(first, last + 1).match(/[.,' \u00a0\u202f]/g) ?? []).length;
  const grouped = separators > (decimals > 0 ? 1 : 0);
  const core = (grouped ? '#,##0' : '0') + (decimals ? '.' + '0'.repeat(decimals) : '') + (percent ? '%' : '');
  const prefix = text.slice(0, first).replace(/[-−–+(]/gu, '');
  const suffix = text.slice(last + 1).replace(/[-−–)%]/gu, '');
  const positive = quoted(prefix) + core + quoted(suffix);
  return positive === '0' ? 'General' : positive;
}

/** The format code of a whole-cell numeric date as printed (`15.01.2024` → `dd.mm.yyyy`). */
function dateFormat(text: string, order: DateOrder): string {
  const m = /^(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})$/.exec(text);
  if (!m) return 'yyyy-mm-dd';
  const [, a, sep, b, c] = m as unknown as [string, string, string, string, string];
  const part = (s: string, unit: 'd' | 'm' | 'y') => (unit === 'y' ? (s.length === 4 ? 'yyyy' : 'yy') : s.length === 2 ? unit + unit : unit);
  if (a.length === 4) return [part(a, 'y'), part(b, 'm'), part(c, 'd')].join(sep);
  const dayFirst = Number(a) > 12 || (Number(b) <= 12 && order !== 'mdy');
  return dayFirst ? [part(a, 'd'), part(b, 'm'), part(c, 'y')].join(sep) : [part(a, 'm'), part(b, 'd'), part(c, 'y')].join(sep);
}

/**
 * The typed value of a body cell. Text stays text when it is not one number or one date, when it
 * is a code with a leading zero (`001342`: the zero is part of it), or when it has more digits
 * than a spreadsheet number keeps.
 */
export function typedCell(text: string, style: NumberStyle): TypedCell {
  const t = normalizeText(text);
  const digits = t.replace(/\D/g, '');
  if (!digits || digits.length > MAX_DIGITS) return { value: text };
  const date = findDate(t, style.dateOrder);
  if (date && date.raw === t) {
    const [y, m, d] = date.iso.split('-').map(Number) as [number, number, number];
    return { value: new Date(Date.UTC(y, m - 1, d)), numFmt: dateFormat(t, style.dateOrder) };
  }
  if (/^0\d/.test(t)) return { value: text };
  const n = parseNumber(t, style.convention);
  if (!n) return { value: text };
  return { value: n.percent ? n.value / 100 : n.value, numFmt: numberFormat(t, n.value, n.percent) };
}

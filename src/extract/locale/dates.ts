/**
 * Dates as printed on invoices and statements, to ISO `YYYY-MM-DD`: `2026-11-30`, `30.11.2026`,
 * `11/30/2026` (the order of an all-numeric date is the document's: `dmy`, `mdy` or `ymd`),
 * `30 November 2026`, `November 30, 2026`, `30. Nov. 2026`, `30 de noviembre de 2026`,
 * `30-Nov-26`, `14/May/2017`, `10Mar2018`, `2026年11月30日`, month names in en, de, fr, es, nl, it and pt.
 */

import type { DateOrder } from '../types.js';

export type { DateOrder };

const MONTHS: [number, string[]][] = [
  [1, ['january', 'jan', 'januar', 'jänner', 'janvier', 'janv', 'enero', 'ene', 'januari', 'gennaio', 'gen', 'janeiro']],
  [2, ['february', 'feb', 'februar', 'février', 'févr', 'fév', 'febrero', 'februari', 'febbraio', 'fevereiro', 'fev']],
  [3, ['march', 'mar', 'märz', 'mär', 'mars', 'marzo', 'maart', 'mrt', 'março']],
  [4, ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile']],
  [5, ['may', 'mai', 'mayo', 'mei', 'maggio', 'mag', 'maio']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho']],
  [7, ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho']],
  [8, ['august', 'aug', 'août', 'agosto', 'ago', 'augustus']],
  [9, ['september', 'sep', 'sept', 'septembre', 'septiembre', 'set', 'settembre', 'setembro']],
  [10, ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out']],
  [11, ['november', 'nov', 'novembre', 'noviembre', 'novembro']],
  [12, ['december', 'dec', 'dezember', 'dez', 'décembre', 'déc', 'diciembre', 'dic', 'dicembre', 'dezembro']],
];

const MONTH_OF = new Map<string, number>(MONTHS.flatMap(([m, names]) => names.map((n) => [n, m] as [string, number])));
const MONTH_NAME = `(${[...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join('|')})\\.?`;

/** Month named in `word` (`Nov.`, `novembre`), or null. */
export function monthOf(word: string): number | null {
  return MONTH_OF.get(word.toLowerCase().replace(/\.$/, '')) ?? null;
}

const pad = (n: number) => String(n).padStart(2, '0');

function fullYear(y: number, digits: number): number {
  return digits === 2 ? (y < 70 ? 2000 + y : 1900 + y) : y;
}

/** ISO date of y-m-d when it is a real calendar day, else null. */
export function isoDate(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2199) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days ? `${y}-${pad(m)}-${pad(d)}` : null;
}

const NUMERIC = /(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})(?!\d)/;
const JA = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/;
const DAY_FIRST = new RegExp(`(?<!\\d)(\\d{1,2})(?:\\.|st|nd|rd|th|er|º|°)?(?:\\s+de)?(?:[\\s/-]+|(?=\\p{L}))${MONTH_NAME}(?:\\s+de)?(?:[\\s,/-]+|(?=\\d))(\\d{4}|\\d{2})(?!\\d)`, 'iu');
const MONTH_FIRST = new RegExp(`(?<![\\p{L}])${MONTH_NAME}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, 'iu');

/** A numeric date's parts (first, second, year), for deciding the document's order. */
export function numericParts(text: string): [number, number] | null {
  const m = NUMERIC.exec(text);
  if (!m || m[1]!.length === 4) return null;
  return [Number(m[1]), Number(m[3])];
}

/** The first date in `text` as ISO `YYYY-MM-DD`, with the raw text it was read from; null when there is none. */
export function findDate(text: string, order: DateOrder): { iso: string; raw: string } | null {
  const t = text.normalize('NFKC');
  const candidates: { at: number; iso: string | null; raw: string }[] = [];
  const ja = JA.exec(t);
  if (ja) candidates.push({ at: ja.index, iso: isoDate(+ja[1]!, +ja[2]!, +ja[3]!), raw: ja[0] });
  const n = NUMERIC.exec(t);
  if (n) {
    const [a, b, c] = [n[1]!, +n[3]!, n[4]!];
    let iso: string | null;
    if (a.length === 4) iso = isoDate(+a, b, +c);
    else {
      const y = fullYear(+c, c.length);
      // A part above 12 decides the order whatever the document says.
      const dmy = +a > 12 || (b <= 12 && order !== 'mdy');
      iso = dmy ? isoDate(y, b, +a) : isoDate(y, +a, b);
    }
    candidates.push({ at: n.index, iso, raw: n[0] });
  }
  const df = DAY_FIRST.exec(t);
  if (df) {
    const m = monthOf(df[2]!);
    candidates.push({ at: df.index, iso: m ? isoDate(fullYear(+df[3]!, df[3]!.length), m, +df[1]!) : null, raw: df[0] });
  }
  const mf = MONTH_FIRST.exec(t);
  if (mf) {
    const m = monthOf(mf[1]!);
    candidates.push({ at: mf.index, iso: m ? isoDate(+mf[3]!, m, +mf[2]!) : null, raw: mf[0] });
  }
  // A till's `18 03-18 15:12`: day, month and year with the first dash lost, then the time.
  const lost = LOST_DASH.exec(t);
  if (lost && !candidates.some((c) => c.iso)) {
    const [a, b, y] = [+lost[1]!, +lost[2]!, fullYear(+lost[3]!, 2)];
    candidates.push({ at: lost.index, iso: a > 12 || order !== 'mdy' ? isoDate(y, b, a) : isoDate(y, a, b), raw: lost[0].replace(/\s+\S+$/, '') });
  }
  // `2504/2017`: day and month with the separator between them lost, before a four-digit year.
  const glued = LOST_SEPARATOR.exec(t);
  if (glued && !candidates.some((c) => c.iso)) {
    const [a, b, y] = [+glued[1]!, +glued[2]!, +glued[4]!];
    candidates.push({ at: glued.index, iso: a > 12 || order !== 'mdy' ? isoDate(y, b, a) : isoDate(y, a, b), raw: glued[0] });
  }
  const ok = candidates.filter((c) => c.iso).sort((x, y) => x.at - y.at);
  return ok.length ? { iso: ok[0]!.iso!, raw: ok[0]!.raw } : null;
}

const LOST_SEPARATOR = /(?<![\d.,:/-])(\d{2})(\d{2})([./-])((?:19|20)\d{2})(?![\d./-])/;
const LOST_DASH = /(?<![\d.,:/-])(\d{1,2})\.?\s+(\d{1,2})-(\d{2})\s+(?:[01]?\d|2[0-3]):[0-5]\d(?!\d)/;

/** Digits OCR reads for one another in a receipt's print (`30/63/2018` for 30/03, `2078` for 2018). */
const CONFUSED: Record<string, string> = { '0': '869', '1': '74', '2': '7', '3': '8', '4': '1', '5': '63', '6': '058', '7': '1', '8': '0639', '9': '08' };

/**
 * Digits shaped like a numeric date, day or month first (`30.11.2026`, `1/2/26`, `30-11-26`),
 * whatever date they read as: a number or an identifier so shaped is taken for a date.
 */
export const DATE_SHAPE = /\d{1,2}[./-]\d{1,2}[./-]\d{2,4}/;
/** A text that is only digits shaped like a numeric date (`DATE_SHAPE`). */
export const DATE_SHAPED = new RegExp(`^${DATE_SHAPE.source}$`);

/** The date `text` is, in `order`, as ISO: only when that date makes up half its characters or more. */
export function wholeDate(text: string, order: DateOrder): string | null {
  const d = findDate(text, order);
  return d && d.raw.length >= text.replace(/\s+/g, '').length * 0.5 ? d.iso : null;
}

/**
 * A numeric date in `text` that is no date as read (`30/63/2018`, `36/03/2017`) or that `ok`
 * refuses (`17/04/2078`), read again with one digit taken for another it is often misread as:
 * the date when exactly one such reading is a date `ok` accepts, else null.
 */
export function repairDate(text: string, order: DateOrder, ok: (iso: string) => boolean): { iso: string; raw: string } | null {
  const t = text.normalize('NFKC');
  const m = NUMERIC.exec(t);
  // A code glued to letters (`RC11-23-42`) is no date to repair.
  if (!m || /\p{L}/u.test(t[m.index - 1] ?? '')) return null;
  const raw = m[0];
  const found = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    for (const alt of CONFUSED[raw[i]!] ?? '') {
      const d = findDate(raw.slice(0, i) + alt + raw.slice(i + 1), order);
      if (d && ok(d.iso)) found.add(d.iso);
    }
  }
  return found.size === 1 ? { iso: [...found][0]!, raw } : null;
}

/**
 * A period printed as a range: `1 - 30 November 2026`, `01.11.2026 - 30.11.2026`,
 * `1 November 2026 to 30 November 2026`, or a month alone (`Kontoauszug 11/2026`,
 * `noviembre 2026`, `2026年11月`), as its first and last day.
 */
export function findPeriod(text: string, order: DateOrder): { start: string; end: string; raw: string } | null {
  const t = text.normalize('NFKC');
  const range = new RegExp(`(?<!\\d)(\\d{1,2})\\.?\\s*[-–]\\s*(\\d{1,2})\\.?\\s+${MONTH_NAME}\\s+(\\d{4})`, 'iu').exec(t);
  if (range) {
    const m = monthOf(range[3]!)!;
    const [s, e] = [isoDate(+range[4]!, m, +range[1]!), isoDate(+range[4]!, m, +range[2]!)];
    if (s && e && s <= e) return { start: s, end: e, raw: range[0] };
  }
  const parts = t.split(/\s+(?:[-–]|to|bis|au|al|tot|a|até|~|〜)\s+/i);
  if (parts.length === 2) {
    const a = findDate(parts[0]!, order);
    const b = findDate(parts[1]!, order);
    if (a && b && a.iso <= b.iso) return { start: a.iso, end: b.iso, raw: `${a.raw} – ${b.raw}` };
  }
  const month =
    /(?<![\d./])(\d{1,2})\/(\d{4})(?![\d/])/.exec(t) ??
    new RegExp(`(?<![\\p{L}])${MONTH_NAME}\\s+(\\d{4})`, 'iu').exec(t) ??
    /(\d{4})年\s*(\d{1,2})月(?!\s*\d{1,2}\s*日)/.exec(t);
  if (month) {
    let y: number;
    let m: number | null;
    if (month[0].includes('年')) [y, m] = [+month[1]!, +month[2]!];
    else if (/^\d/.test(month[1]!)) [y, m] = [+month[2]!, +month[1]!];
    else [y, m] = [+month[2]!, monthOf(month[1]!)];
    if (m && m >= 1 && m <= 12) {
      const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
      const s = isoDate(y, m, 1);
      const e = isoDate(y, m, last);
      if (s && e) return { start: s, end: e, raw: month[0] };
    }
  }
  return null;
}

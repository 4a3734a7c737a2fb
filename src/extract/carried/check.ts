/**
 * What a document carries, checked against what its page prints. A carried value that the page
 * prints anywhere (an amount in the document's decimal convention, a date in its order, a number
 * or an IBAN with any spacing) is confirmed, and gives the field its place on the page. One the
 * page prints nowhere, where the page's own reading found another value for the field, is a
 * warning naming that printed value: the reader's choice is shown, never silently replaced.
 */
import { findDate, type DateOrder } from '../locale/dates.js';
import { documentLocale } from '../locale/index.js';
import { documentLines, type TextLine } from '../locale/lines.js';
import { parseNumber, type Convention } from '../locale/numbers.js';
import type { BBox, FieldName, Fields, PageLayout, Warning, Word } from '../types.js';
import type { CarriedValue } from './invoice.js';

/** The fields checked against the print (API.md §4c). */
export const CHECKED_FIELDS: readonly FieldName[] = ['invoice_number', 'total', 'tax', 'due_date', 'iban'];
const AMOUNTS = new Set<FieldName>(['total', 'subtotal', 'tax', 'amount_due']);
const DATES = new Set<FieldName>(['issue_date', 'due_date']);

export interface Print {
  lines: TextLine[];
  conv: Convention | null;
  order: DateOrder;
}

export function printOf(layouts: PageLayout[]): Print {
  const lines = documentLines(layouts);
  const locale = documentLocale(layouts, lines);
  return { lines, conv: locale.conv, order: locale.order };
}

export interface Printed {
  text: string;
  page: number;
  bbox: BBox;
}

const alnum = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Where the page prints `v` as the value of `name`, or null. Runs of up to 4 words are tried (9 for an IBAN in groups of 4). */
export function findPrinted(print: Print, name: FieldName, v: CarriedValue): Printed | null {
  const want = typeof v.value === 'number' ? v.value : String(v.value);
  const matches = (text: string): boolean => {
    if (AMOUNTS.has(name)) {
      const n = parseNumber(text, print.conv);
      return !!n && !n.percent && Math.abs(Math.abs(n.value) - Math.abs(want as number)) < 0.005;
    }
    if (DATES.has(name)) {
      // The date alone, not a label and a date: the box is then the date's.
      const d = findDate(text, print.order);
      return d?.iso === want && alnum(d.raw).length >= alnum(text).length - 1;
    }
    return alnum(text) === alnum(String(want));
  };
  for (const line of print.lines) {
    const ws = line.words;
    for (let i = 0; i < ws.length; i++) {
      for (let n = 1; n <= (name === 'iban' ? 9 : 4) && i + n <= ws.length; n++) {
        const run = ws.slice(i, i + n);
        const text = run.map((w) => w.text).join(' ');
        if (matches(text)) return { text, page: line.page, bbox: boxOf(run) };
      }
    }
  }
  return null;
}

function boxOf(words: Word[]): BBox {
  return [Math.min(...words.map((w) => w.x0)), Math.min(...words.map((w) => w.y0)), Math.max(...words.map((w) => w.x1)), Math.max(...words.map((w) => w.y1))];
}

/**
 * Warnings `code` for each checked field whose carried value the page does not print while the
 * page's reading (`read`) has another value for it.
 */
export function mismatches(
  code: Warning['code'],
  carried: Partial<Record<FieldName, CarriedValue>>,
  read: Fields,
  found: Partial<Record<FieldName, Printed | null>>,
  names: readonly FieldName[] = CHECKED_FIELDS,
): Warning[] {
  const out: Warning[] = [];
  for (const name of names) {
    const v = carried[name];
    const page = read[name];
    if (!v || found[name] || !page) continue;
    if (same(name, v.value, page.value)) continue;
    const what = code === 'barcode_mismatch' ? 'the payment code' : 'the embedded invoice';
    out.push({
      code,
      field: name,
      message: `${name}: ${what} says ${v.text}, the page prints ${page.text || String(page.value)}`,
      printed: { text: page.text || String(page.value), page: page.page, bbox: page.bbox },
    });
  }
  return out;
}

function same(name: FieldName, a: string | number, b: string | number): boolean {
  if (AMOUNTS.has(name)) return Math.abs(Number(a) - Number(b)) < 0.005;
  return alnum(String(a)) === alnum(String(b));
}

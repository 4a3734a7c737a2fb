/**
 * A vendor's memory: how to recognise the vendor, and for each field a person corrected, where
 * its value stood (its anchors) or, for what identifies the vendor itself, the value. Learned from
 * one correction; a later correction of the same vendor adds anchors. Bounded: a few KB.
 */
import { allMatches } from '../matches.js';
import type { Field, StoredPage, VendorMemory } from '../types.js';
import { occurrences, type Occurrence } from './spans.js';
import { kindOf, norm, pageLines } from './words.js';
import { DATE_SHAPE } from '../locale/dates.js';

const MAX_ANCHORS = 3;
const MAX_TOKENS = 60;
const MAX_REGS = 4;
/** The head of a page: the share of its height where the vendor prints its name, address and numbers. */
const HEAD_SHARE = 0.4;
const MAX_BYTES = 8 * 1024;
/**
 * Fields that are the vendor's own: the same value on every document of it, kept as the value
 * (a currency is often not printed as its code: `RM`, `$`, or nothing at all).
 */
const CONSTANT = new Set(['vendor_name', 'vendor_address', 'vendor_tax_id', 'iban', 'currency', 'payment_terms']);

/** The head of the first page as a set of words (letters, 3 or more): what stays when amounts and dates move. */
export function headTokens(pages: StoredPage[]): string[] {
  const p = pages[0];
  if (!p) return [];
  const out = new Set<string>();
  for (const line of pageLines(p)) {
    if (line.words[0]!.y0 > p.height * 0.3) break;
    for (const w of line.words) for (const t of norm(w.text).split(' ')) if (t.length >= 3 && /^\p{L}+$/u.test(t) && out.size < MAX_TOKENS) out.add(t);
  }
  return [...out];
}

/** A line of the head that gives a phone or fax number, or the document's own number, not a registration. */
const NOT_REG = /\b(?:tel|fax|phone|mobile|hp|h\/p|whatsapps?|call|inv|invoice|receipt|bill|cashier|table|order)\b/i;
/** Words that label a registration (`Co. Reg.`, `GST ID`, `ROC`, `VAT No`), also as OCR reads them (`GSE`, `1D`). */
const REG_LABEL = /\b(?:reg|regn|registration|company|co|roc|brn|gs[a-z]|vat|sst|tax|t?id|1d)\b/i;
/** An amount with its cents, as on an item or total line. */
const AMOUNT = /(?<![\d.,])\d{1,6}[.,]\d{2}(?![\d])/;
/** A run of digits, maybe split by dots, dashes or single spaces as OCR and printers do (`00058 1399040`, `860671-D`). */
const CODE = /\d[\d .-]{4,}\d/g;

/**
 * The registration numbers printed in the first page's head — a company number, a GST or VAT id —
 * as digits only (6 or more; a check letter is left out, OCR reads it variously): after a
 * registration label, in brackets, or alone on a line with its check letter, on a line without
 * an amount. Phone numbers, the document's own number, barcodes, dates and times are not.
 */
export function headCodes(pages: StoredPage[]): string[] {
  const p = pages[0];
  if (!p) return [];
  const out: string[] = [];
  for (const line of pageLines(p)) {
    if (line.words[0]!.y0 > p.height * HEAD_SHARE) break;
    const text = line.words.map((w) => w.text).join(' ');
    // A line with an amount is an item's or a total's (a product's barcode is no registration).
    if (AMOUNT.test(text)) continue;
    if (NOT_REG.test(text)) continue;
    const labelled = REG_LABEL.test(text);
    for (const m of allMatches(CODE, text)) {
      // Labelled, in brackets after the name (`(139386 X)`), or alone on its line with a check letter (`002043319-W`; not a phone number).
      const alone = line.words.length <= 2 && /^[-\s]?[A-Za-z]\b/.test(text.slice(m.index + m[0].length));
      if (!labelled && !alone && !/\(\s*$/.test(text.slice(0, m.index))) continue;
      if (DATE_SHAPE.test(m[0]) || /\d:\d/.test(m[0])) continue;
      // Single spaces only: two numbers of a line (`Lot 3 40300`) stay apart.
      for (const part of m[0].split(/\s{2,}/)) {
        const digits = part.replace(/\D/g, '');
        if (digits.length >= 6 && digits.length <= 15 && !out.includes(digits)) out.push(digits);
      }
    }
  }
  return out.slice(0, MAX_REGS);
}

export const idKey = (s: string): string => s.normalize('NFKC').toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Corrected values by field key, and the run's custom field types. */
export interface Taught {
  values: Map<string, string | number>;
  customTypes: Map<string, string>;
}

/**
 * `prev` (or a new memory `id`) taught by a correction of a document whose pages are `pages` and
 * whose engine fields are `engine`. With `keepHead`, the head of these pages does not replace
 * the fingerprint (a document that read too badly to be recognised by it).
 */
export function learn(prev: VendorMemory | null, id: string, pages: StoredPage[], engine: Record<string, Field | null>, taught: Taught, opts: { keepHead?: boolean } = {}): VendorMemory {
  const mem: VendorMemory = prev ? { ...prev, fields: { ...prev.fields } } : { id, name: '', ids: [], tokens: [], fields: {} };
  if (!(opts.keepHead && mem.tokens.length)) mem.tokens = headTokens(pages);
  const name = taught.values.get('vendor_name') ?? engine.vendor_name?.value;
  if (name !== undefined && !(mem.nameTaught && !taught.values.has('vendor_name'))) mem.name = String(name);
  if (taught.values.has('vendor_name')) mem.nameTaught = true;
  const ids = new Set(mem.ids);
  for (const k of ['vendor_tax_id', 'iban']) {
    const v = taught.values.get(k) ?? engine[k]?.value;
    if (v !== undefined && idKey(String(v)).length >= 6) ids.add(idKey(String(v)));
  }
  mem.ids = [...ids].slice(-4);
  mem.regs = [...new Set([...headCodes(pages), ...(mem.regs ?? [])])].slice(0, MAX_REGS);
  for (const [key, value] of taught.values) {
    const kind = kindOf(key, taught.customTypes.get(key.slice(7)));
    const found = occurrences(pages, kind, value);
    const best = key === 'total' ? grandTotal(found) : found[0];
    const old = mem.fields[key];
    if (CONSTANT.has(key)) {
      mem.fields[key] = { kind, constant: value, anchors: [], bbox: best?.span.bbox ?? old?.bbox };
      continue;
    }
    // A date not read on the page is kept without an anchor: later documents' lost dates are looked for on their date lines (`lostDateLines`).
    if (!best && kind === 'date') mem.fields[key] = { kind, order: old?.order, year: Number(String(value).slice(0, 4)) || old?.year, anchors: old?.kind === kind ? old.anchors : [] };
    if (!best) continue;
    const anchors = [best.anchor, ...(old?.kind === kind ? old.anchors : [])].filter((a, i, all) => all.findIndex((b) => JSON.stringify(b) === JSON.stringify(a)) === i);
    const year = kind === 'date' ? Number(String(value).slice(0, 4)) || undefined : undefined;
    mem.fields[key] = { kind, order: best.order ?? old?.order, year: year ?? old?.year, anchors: anchors.slice(0, MAX_ANCHORS) };
  }
  return bounded(mem);
}

/** A label that names a total, also as OCR misreads it (`Tolal`, `T0TAL`). */
export const TOTAL_WORD = /\b(?:t[o0][tl][a4][l1i]|grand|payable|jumlah|due|gesamt|summe|ttc|totaal|totale)\b/;
/** A line that says how the total was paid or what came back, not the total. */
export const TENDER = /\b(?:cash|change|credit|card|visa|master|edc|paid|tendered|debit|amex|voucher|bal|balance)\b/;

/**
 * Where a corrected total was printed, when it was printed several times (`Sub total`, `Total
 * Sales Incl GST`, `Total After Adj` all 31.00): the last line labelled as a total that is not a
 * payment — the grand total stands below the others, so a later receipt whose rounding makes
 * them differ is read at the right one. Printed only on payment lines besides, not at those.
 */
function grandTotal(found: Occurrence[]): Occurrence | undefined {
  const label = (o: Occurrence) => norm(o.span.line.words.slice(0, o.span.start).map((w) => w.text).join(' '));
  const totals = found.filter((o) => TOTAL_WORD.test(label(o)) && !TENDER.test(label(o)));
  if (!totals.length) return found.find((o) => !TENDER.test(label(o))) ?? found[0];
  return totals.reduce((a, b) => (b.span.page > a.span.page || (b.span.page === a.span.page && b.span.line.index > a.span.line.index) || (b.span.line === a.span.line && b.span.words.length < a.span.words.length) ? b : a));
}

/** Drops the oldest anchors, then the fingerprint's tail, until the memory fits `MAX_BYTES`. */
function bounded(mem: VendorMemory): VendorMemory {
  while (JSON.stringify(mem).length > MAX_BYTES) {
    const rule = Object.values(mem.fields).find((r) => r.anchors.length > 1);
    if (rule) rule.anchors.pop();
    else if (mem.tokens.length > 10) mem.tokens = mem.tokens.slice(0, mem.tokens.length - 10);
    else break;
  }
  return mem;
}

/**
 * Who the document is from and to: the vendor's name (the most prominent line at the top of the
 * first page that is not a title or a label), the address printed under it, its tax id, and the
 * customer named after `Bill to` / `Kunde` / `Client` or before `御中`.
 */
import type { Field, Word } from '../types.js';
import { candidates, field, labelMatches, labelledConfidence, type Candidate } from './labelled.js';
import { blocks, joinWords, type TextLine } from '../locale/lines.js';
import { hasTitle, isTitleOnly } from './classify.js';
import { findDate } from '../locale/dates.js';

/** The customer's name: the labelled value up to its first comma (the address follows), or the name before `御中` / `様`. */
export function customerName(lines: TextLine[]): Field | null {
  for (const c of candidates(lines, 'customer_name')) {
    const f = nameUpToComma(c);
    if (f) return f;
  }
  for (const l of lines) {
    const i = l.words.findIndex((w) => /^(御中|様|殿)$/.test(w.text) || /.(御中|様)$/.test(w.text));
    if (i < 0) continue;
    const words = l.words[i]!.text.length > 2 ? l.words.slice(0, i + 1) : l.words.slice(0, i);
    const text = joinWords(words).replace(/\s*(御中|様)$/, '');
    if (text) return field(text, words, l.page, 0.85, text);
  }
  return null;
}

function nameUpToComma(c: Candidate): Field | null {
  const words: Word[] = [];
  for (const w of c.words) {
    const comma = w.text.indexOf(',');
    if (comma >= 0) {
      if (comma > 0) words.push({ ...w, text: w.text.slice(0, comma) });
      break;
    }
    words.push(w);
  }
  const text = joinWords(words);
  if (!/\p{L}{2}/u.test(text)) return null; // `Kunde: 10442` is a customer number
  return field(text, words, c.line.page, labelledConfidence(c) - 0.05, text);
}

/** A VAT id opens with its country's two letters (`DE 123 456 789`, `FR11123456782`); a company registration number (SIRET, KvK, HRB) does not. */
const VAT_FORM = /^(?:[A-Z]{2}|EL)[ .-]?[0-9A-Z]{2}[0-9A-Z .-]{5,}$/;

/**
 * The vendor's tax id (`IE1234567T`, `DE 123 456 789`, `B-12345678`): up to four code-like words
 * with six digits or more after a tax-id label; one in the VAT form before a bare number, the
 * first printed (the vendor's head or footer comes before a tax representative's) on a tie.
 */
export function vendorTaxId(lines: TextLine[]): Field | null {
  let best: { f: Field; score: number } | null = null;
  for (const c of candidates(lines, 'vendor_tax_id')) {
    const words: Word[] = [];
    for (const w of c.words.slice(0, 5)) {
      if (!/^[A-Z0-9][A-Z0-9.-]*$/i.test(w.text) || (words.length && !/\d/.test(w.text))) break;
      words.push(w);
    }
    const text = joinWords(words);
    if ((text.match(/\d/g) ?? []).length < 6 || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(text)) continue;
    const f = field(text, words, c.line.page, labelledConfidence(c), text);
    const score = f.confidence * (VAT_FORM.test(text) ? 1 : 0.8);
    if (!best || score > best.score + 1e-9) best = { f: { ...f, confidence: Math.round(score * 100) / 100 }, score };
  }
  return best?.f ?? null;
}

/** Lines of page 1 above `top` (the first table), where the parties are printed. */
function headLines(lines: TextLine[], top: number): TextLine[] {
  return lines.filter((l) => l.page === lines[0]?.page && l.bbox[1] < top);
}

/** The words of `block` (on `l`) before the first label that starts inside it. */
function beforeLabel(l: TextLine, block: Word[]): Word[] {
  const at = (w: Word) => l.starts[l.words.indexOf(w)]!;
  const [from, to] = [at(block[0]!), at(block[block.length - 1]!) + block[block.length - 1]!.text.length];
  const label = labelMatches(l).find((m) => m.start >= from && m.start < to);
  return label ? block.filter((w) => at(w) + w.text.length <= label.start) : block;
}

const TITLE_OR_CUSTOMER = (t: string) => isTitleOnly(t) || /(御中|様)$/.test(t);

/** Legal forms and shop words that mark a company name, in the documents' languages. */
const COMPANY = /(?<![\p{L}])(sdn\.? ?bhd|bhd|berhad|enterprise|trading|restaurants?|gmbh|ag|kg|ug|ohg|e\.k\.|ltd\.?|limited|llc|inc\.?|corp\.?|corporation|company|co\.|plc|sarl|sas|s\.a\.?|s\.l\.?|srl|s\.r\.l\.|spa|s\.p\.a\.|b\.?v\.?|n\.v\.|lda|pte|pty|llp|store|shop|mart|market|supermarket|pharmacy|hardware|stationery|bakery|caf[eé]|hotel|services?|industries|holdings)(?![\p{L}])/iu;
/** Lines that are not a name: contacts, ids, labels and greetings. */
const NOT_NAME = /^(tel|phone|fax|gst|vat|tax|e-?mail|www|http|reg|company no|co\.? ?no|receipt|invoice|date|cashier|thank|welcome|bill to|ship to)\b|@|\.com\b/i;

/** Share of letters among the characters of `t` (OCR noise has few). */
const letterShare = (t: string) => (t.match(/\p{L}/gu)?.length ?? 0) / Math.max(1, t.replace(/\s/g, '').length);

/**
 * The vendor's name: among the blocks of the first lines (a title, a label, the customer, a
 * street address and OCR noise are not it), the one of the largest type, a company's legal form
 * or shop word counting as much as a larger type; its text before any label.
 */
export function vendorName(lines: TextLine[], top: number): { field: Field; words: Word[]; line: TextLine; rest: Word[] } | null {
  const head = headLines(lines, top).slice(0, 10);
  const sizes = head.flatMap((l) => l.words.map((w) => w.size)).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 10;
  let best: { words: Word[]; line: TextLine; score: number; company: boolean } | null = null;
  head.forEach((l, i) => {
    for (const block of blocks(l)) {
      const words = beforeLabel(l, block);
      const text = joinWords(words);
      if (!words.length || TITLE_OR_CUSTOMER(text) || /^\d/.test(text) || !/\p{L}{3}/u.test(text) || NOT_NAME.test(text) || /[:：]$/.test(text)) continue;
      if (text.replace(/[^\p{L}]/gu, '').length < 4 || letterShare(text) < 0.6) continue;
      const size = Math.max(...words.map((w) => w.size));
      const company = COMPANY.test(text);
      const score = size / median + (company ? 1 : 0) - i * 0.03;
      if (!best || score > best.score + 0.05) best = { words, line: l, score, company };
    }
  });
  if (!best) return null;
  const b = best as { words: Word[]; line: TextLine; score: number; company: boolean };
  // `Velo Huber AG, Zürich`: the name, then where it is.
  const comma = b.words.findIndex((w) => w.text.endsWith(','));
  const name = comma >= 0 && comma < b.words.length - 1 ? b.words.slice(0, comma + 1).map((w, i) => (i === comma ? { ...w, text: w.text.slice(0, -1) } : w)) : b.words;
  const rest = comma >= 0 ? b.words.slice(comma + 1) : [];
  const text = joinWords(name);
  return { field: field(text, name, b.line.page, b.company ? 0.8 : 0.6, text), words: b.words, line: b.line, rest };
}

/** A company registration number in brackets under a name (`(65351-M)`): part of neither name nor address. */
const REG_NO = /^\(?[\p{L}\d -]{0,4}\d[\d -]*-?\p{L}?\)?$/u;

/**
 * The vendor's address: what follows a comma after its name, and up to five lines right under
 * it — starting where it starts, or centred under it as on a till receipt — each with a digit, a
 * comma or a street word, up to a phone, tax id, title or label line.
 */
export function vendorAddress(lines: TextLine[], vendor: { words: Word[]; line: TextLine; rest: Word[] }): Field | null {
  const out: Word[][] = [];
  const x0 = vendor.words[0]!.x0;
  const x1 = vendor.words[vendor.words.length - 1]!.x1;
  const centre = (x0 + x1) / 2;
  let prevBottom = Math.max(...vendor.words.map((w) => w.y1));
  let height = prevBottom - Math.min(...vendor.words.map((w) => w.y0));
  let skipped = 0;
  for (const l of lines) {
    if (l.page !== vendor.line.page || l.index <= vendor.line.index) continue;
    if (out.length >= 5 || l.bbox[1] - prevBottom > 1.6 * height) break;
    const block = blocks(l).find((b) => {
      const [bx0, bx1] = [b[0]!.x0, b[b.length - 1]!.x1];
      return Math.abs(bx0 - x0) < 3 || (Math.abs((bx0 + bx1) / 2 - centre) < 0.15 * (x1 - x0 + bx1 - bx0) && bx0 > x0 - (x1 - x0));
    });
    const words = block ? beforeLabel(l, block) : [];
    if (!words.length || words[0] !== block![0]) break;
    const text = joinWords(words);
    // Before the address: a registration number, a former name or a date and time may sit under the name.
    if (!out.length && skipped < 3 && (REG_NO.test(text) || findDate(text, 'dmy') || /^(formerly|licensee|\(?co\.? ?(reg|no))/i.test(text))) {
      skipped++;
      prevBottom = l.bbox[3];
      continue;
    }
    if (hasTitle(text) || NOT_NAME.test(text) || /[:：]/.test(text) || !/[\d,]|\p{L}{4}/u.test(text)) break;
    if (!/[\d,]/.test(text) && !out.length) break;
    out.push(words);
    prevBottom = Math.max(...words.map((w) => w.y1));
    height = prevBottom - Math.min(...words.map((w) => w.y0));
  }
  if (!out.length && !vendor.rest.length) return null;
  const text = [...(vendor.rest.length ? [vendor.rest] : []), ...out].map(joinWords).join(', ');
  return field(text, [...vendor.rest, ...out.flat()], vendor.line.page, 0.6, text);
}

/**
 * Who the document is from and to: the vendor's name (the most prominent line at the top of the
 * first page that is not a title or a label), the address printed under it, its tax id, and the
 * customer named after `Bill to` / `Kunde` / `Client` or before `御中`.
 */
import type { Field, Word } from '../types.js';
import { candidates, field, labelMatches, labelledConfidence, type Candidate } from './labelled.js';
import { joinWords, type TextLine } from './lines.js';
import { hasTitle, isTitleOnly } from './classify.js';

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

/** A tax id (`IE1234567T`, `DE 123 456 789`, `B-12345678`): up to four code-like words with six digits or more. */
export function vendorTaxId(lines: TextLine[]): Field | null {
  for (const c of candidates(lines, 'vendor_tax_id')) {
    const words: Word[] = [];
    for (const w of c.words.slice(0, 4)) {
      if (!/^[A-Z0-9][A-Z0-9.-]*$/i.test(w.text) || (words.length && !/\d/.test(w.text))) break;
      words.push(w);
    }
    const text = joinWords(words);
    if ((text.match(/\d/g) ?? []).length >= 6 && !/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(text)) return field(text, words, c.line.page, labelledConfidence(c), text);
  }
  return null;
}

/** Lines of page 1 above `top` (the first table), where the parties are printed. */
function headLines(lines: TextLine[], top: number): TextLine[] {
  return lines.filter((l) => l.page === lines[0]?.page && l.bbox[1] < top);
}

const isCustomerLine = (l: TextLine) => /(御中|様)$/.test(joinWords(l.words));

/** The words of `l` before its first label (all of them when it has none). */
function beforeLabels(l: TextLine): Word[] {
  const ms = labelMatches(l);
  const upTo = ms.length ? ms[0]!.start : Infinity;
  return l.words.filter((_, i) => l.starts[i]! + l.words[i]!.text.length <= upTo);
}

/** The vendor's name: the line of the largest type among the first lines, without titles, labels and the customer; its text before any label on it. */
export function vendorName(lines: TextLine[], top: number): { field: Field; line: TextLine; rest: Word[] } | null {
  const head = headLines(lines, top).slice(0, 8);
  let best: { words: Word[]; line: TextLine; size: number } | null = null;
  for (const l of head) {
    if (isTitleOnly(l) || isCustomerLine(l)) continue;
    const words = beforeLabels(l);
    if (!words.length || !/\p{L}{2}/u.test(joinWords(words))) continue;
    const size = Math.max(...words.map((w) => w.size));
    if (!best || size > best.size + 0.5) best = { words, line: l, size };
  }
  if (!best) return null;
  // `Velo Huber AG, Zürich`: the name, then where it is.
  const comma = best.words.findIndex((w) => w.text.endsWith(','));
  const name = comma >= 0 && comma < best.words.length - 1 ? best.words.slice(0, comma + 1).map((w, i) => (i === comma ? { ...w, text: w.text.slice(0, -1) } : w)) : best.words;
  const rest = comma >= 0 ? best.words.slice(comma + 1) : [];
  const text = joinWords(name);
  return { field: field(text, name, best.line.page, 0.6, text), line: best.line, rest };
}

/** The vendor's address: what follows a comma after its name, and up to three lines right under it, aligned with it, each with a digit or a comma (what they print before a label, in a two-column head). */
export function vendorAddress(lines: TextLine[], nameLine: TextLine, rest: Word[] = []): Field | null {
  const out: Word[][] = [];
  let prev = nameLine;
  for (const l of lines) {
    if (l.page !== nameLine.page || l.index <= nameLine.index) continue;
    if (out.length >= 3) break;
    const height = prev.bbox[3] - prev.bbox[1];
    const aligned = Math.abs(l.bbox[0] - nameLine.bbox[0]) < 3;
    const words = beforeLabels(l);
    if (!aligned || l.bbox[1] - prev.bbox[3] > 1.2 * height || !words.length || words[0] !== l.words[0] || hasTitle(joinWords(words))) break;
    if (!/[\d,]/.test(joinWords(words))) break;
    out.push(words);
    prev = l;
  }
  if (!out.length && !rest.length) return null;
  const text = [...(rest.length ? [rest] : []), ...out].map(joinWords).join(', ');
  return field(
    text,
    [...rest, ...out.flat()],
    nameLine.page,
    0.6,
    text,
  );
}

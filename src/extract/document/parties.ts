/**
 * Who the document is from and to: the vendor's name (the most prominent line at the top of the
 * first page that is not a title or a label), the address printed under it, its tax id, and the
 * customer named after `Bill to` / `Kunde` / `Client` or before `御中`.
 */
import type { Field, Word } from '../types.js';
import { candidates, field, labelMatches, labelledConfidence, type Candidate } from './labelled.js';
import { joinWords, type TextLine } from '../locale/lines.js';
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

/** Runs of words of `l` with no gap wider than twice the type size: a two-column head's blocks. */
function blocks(l: TextLine): Word[][] {
  const out: Word[][] = [];
  for (const w of l.words) {
    const last = out[out.length - 1];
    const prev = last?.[last.length - 1];
    if (prev && w.x0 - prev.x1 <= 2 * Math.max(w.size, prev.size)) last!.push(w);
    else out.push([w]);
  }
  return out;
}

/** The words of `block` (on `l`) before the first label that starts inside it. */
function beforeLabel(l: TextLine, block: Word[]): Word[] {
  const at = (w: Word) => l.starts[l.words.indexOf(w)]!;
  const [from, to] = [at(block[0]!), at(block[block.length - 1]!) + block[block.length - 1]!.text.length];
  const label = labelMatches(l).find((m) => m.start >= from && m.start < to);
  return label ? block.filter((w) => at(w) + w.text.length <= label.start) : block;
}

const TITLE_OR_CUSTOMER = (t: string) => isTitleOnly(t) || /(御中|様)$/.test(t);

/**
 * The vendor's name: the block of the largest type among the first lines (a title, a label, the
 * customer and a street address are not it); its text before any label.
 */
export function vendorName(lines: TextLine[], top: number): { field: Field; words: Word[]; line: TextLine; rest: Word[] } | null {
  const head = headLines(lines, top).slice(0, 8);
  let best: { words: Word[]; line: TextLine; size: number } | null = null;
  for (const l of head) {
    for (const block of blocks(l)) {
      const words = beforeLabel(l, block);
      const text = joinWords(words);
      if (!words.length || TITLE_OR_CUSTOMER(text) || /^\d/.test(text) || !/\p{L}{2}/u.test(text)) continue;
      const size = Math.max(...words.map((w) => w.size));
      if (!best || size > best.size + 0.5) best = { words, line: l, size };
    }
  }
  if (!best) return null;
  // `Velo Huber AG, Zürich`: the name, then where it is.
  const comma = best.words.findIndex((w) => w.text.endsWith(','));
  const name = comma >= 0 && comma < best.words.length - 1 ? best.words.slice(0, comma + 1).map((w, i) => (i === comma ? { ...w, text: w.text.slice(0, -1) } : w)) : best.words;
  const rest = comma >= 0 ? best.words.slice(comma + 1) : [];
  const text = joinWords(name);
  return { field: field(text, name, best.line.page, 0.6, text), words: best.words, line: best.line, rest };
}

/**
 * The vendor's address: what follows a comma after its name, and up to three lines right under
 * it, starting where it starts, each with a digit or a comma (in a two-column head, the block
 * under the name, up to any label).
 */
export function vendorAddress(lines: TextLine[], vendor: { words: Word[]; line: TextLine; rest: Word[] }): Field | null {
  const out: Word[][] = [];
  const x0 = vendor.words[0]!.x0;
  let prevBottom = Math.max(...vendor.words.map((w) => w.y1));
  let height = prevBottom - Math.min(...vendor.words.map((w) => w.y0));
  for (const l of lines) {
    if (l.page !== vendor.line.page || l.index <= vendor.line.index) continue;
    if (out.length >= 3) break;
    const block = blocks(l).find((b) => Math.abs(b[0]!.x0 - x0) < 3);
    const words = block ? beforeLabel(l, block) : [];
    if (!words.length || words[0] !== block![0] || l.bbox[1] - prevBottom > 1.2 * height) break;
    const text = joinWords(words);
    if (hasTitle(text) || !/[\d,]/.test(text)) break;
    out.push(words);
    prevBottom = Math.max(...words.map((w) => w.y1));
    height = prevBottom - Math.min(...words.map((w) => w.y0));
  }
  if (!out.length && !vendor.rest.length) return null;
  const text = [...(vendor.rest.length ? [vendor.rest] : []), ...out].map(joinWords).join(', ');
  return field(text, [...vendor.rest, ...out.flat()], vendor.line.page, 0.6, text);
}

/**
 * Recognising a vendor among an account's memories, and reading a document the way its memory
 * says: each learned field from the span whose surroundings best match where the value stood
 * before, or the vendor's constant value. What no memory rule reads, the engine's reading keeps.
 */
import type { Anchor, BBox, DateOrder, Field, FieldRule, StoredPage, VendorMemory } from '../types.js';
import { anchorOf, anchorScore, spans, valueOf, occurrences } from './spans.js';
import { headCodes, headTokens, idKey, TENDER, TOTAL_WORD } from './memory.js';
import { DIGIT_LOOKALIKES, ENDS_WITH_CENTS, amountsIn, normalizeText } from '../locale/numbers.js';
import { boxOf, containment, jaccard, joinSplitAmounts, norm, pageLines, similarity, trigrams, type MLine } from './words.js';

/** Every word of the pages run together, letters and digits only: where an identifier is looked for. */
const allText = (pages: StoredPage[]): string => idKey(pages.flatMap((p) => p.words.map((w) => w[0])).join(''));

/**
 * The memory of the vendor whose document `pages` is, or null: an identifier printed on it (a
 * tax id or IBAN, or a registration number of its head read with a digit wrong at most), or its
 * name in the head and a head alike, or a head much alike. Heads and names are compared on
 * character trigrams, which two OCR readings of a receipt share where their words differ.
 */
export function identify(memories: VendorMemory[], pages: StoredPage[]): VendorMemory | null {
  const first = pages[0];
  if (!first || !memories.length) return null;
  const all = allText(pages);
  const head = pageLines(first)
    .slice(0, 12)
    .map((l) => norm(l.words.map((w) => w.text).join(' ')));
  const headGrams = trigrams(head.join(' ').split(' '));
  const tokens = trigrams(headTokens(pages));
  const codes = headCodes(pages);
  let best: { mem: VendorMemory; score: number } | null = null;
  for (const mem of memories) {
    const idHit = mem.ids.some((id) => all.includes(id)) || (mem.regs ?? []).some((r) => codes.some((c) => sameCode(r, c)));
    const name = norm(mem.name);
    // The share of the name's trigrams printed in the head: 1 for the name as learned, less for another shop of a chain.
    const named = name ? containment(trigrams(name.split(' ')), headGrams) : 0;
    const nameHit = !!name && (named >= MIN_NAME || head.some((l, i) => similarity(l, name) >= 0.85 || similarity(`${l} ${head[i + 1] ?? ''}`.trim(), name) >= 0.85));
    const j = jaccard(trigrams(mem.tokens), tokens);
    if (!(idHit || (nameHit && j >= 0.2) || j >= MIN_HEAD)) continue;
    // A GST or company number of the head far from the vendor's own is another company's: a chain's other company on the same head (`MR. D.I.Y. (M)` and `(KUCHAI)`).
    if (!idHit && (mem.regs ?? []).some((r) => codes.some((c) => otherCode(r, c)))) continue;
    const score = (idHit ? 2 : 0) + named + j;
    if (!best || score > best.score) best = { mem, score };
  }
  return best?.mem ?? null;
}

/** Two readings of one registration number: the same digits, or, from 9 digits on, one digit misread, dropped or added. */
export function sameCode(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.min(a.length, b.length) < 9 || Math.abs(a.length - b.length) > 1) return false;
  return Math.round((1 - similarity(a, b)) * Math.max(a.length, b.length)) <= 1;
}

/** Two long registration numbers of one kind (lengths one apart at most) that differ in more digits than a poor reading garbles (4 or more): two companies'. */
export function otherCode(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 9 || Math.abs(a.length - b.length) > 1) return false;
  return Math.round((1 - similarity(a, b)) * Math.max(a.length, b.length)) >= 4;
}

/** How much of a vendor's name (its trigrams) the head must print. */
const MIN_NAME = 0.7;
/** How alike (trigram Jaccard) two heads must be to be one vendor's without its name: two readings of one shop's receipt 0.4–1, two shops' receipts up to 0.35 (measured on scanned Malaysian receipts). */
const MIN_HEAD = 0.5;

/**
 * The fields the memory reads on `pages`, by key (`read`); a field it cannot find is left out.
 * `unlabelled`: a date or amount whose label was not found again, read from the span of its kind
 * nearest where it stood, and a learned tax id or IBAN not printed on these pages — for a field
 * the engine found nothing for.
 */
export function readWithMemory(mem: VendorMemory, pages: StoredPage[]): { read: Record<string, Field>; unlabelled: Record<string, Field> } {
  const read: Record<string, Field> = {};
  const unlabelled: Record<string, Field> = {};
  let text: string | null = null;
  const all = () => (text ??= allText(pages));
  for (const [key, rule] of Object.entries(mem.fields)) {
    if (rule.constant !== undefined) {
      const f = constantField(rule, pages);
      // An address half of which is not printed here is another branch's: the engine's reading stands.
      if (key === 'vendor_address' && !printed(String(rule.constant), pages)) continue;
      // A tax id or IBAN not printed here (spaces aside) is another of the vendor's (another branch or entity): the engine's, if it read one.
      (PRINTED_CODES.has(key) && !all().includes(idKey(String(rule.constant))) ? unlabelled : read)[key] = f;
      continue;
    }
    const f = anchoredField(rule, pages);
    if (f && key === 'total' && typeof f.field.value === 'number') {
      const r = afterRounding(f.field.value, f.line, f.lines) ?? afterDiscount(f.field.value, f.line, f.lines);
      if (r) f.field = { ...f.field, value: r.value, text: r.line.words.map((w) => w.text).join(' '), bbox: boxOf(r.line.words) };
    }
    if (f?.labelled) read[key] = f.field;
    else if (f && rule.kind !== 'text') unlabelled[key] = { ...f.field, confidence: 0.5 };
  }
  // A recognised vendor is named as it was learned (a person's spelling, else the engine's first reading), not as this document's OCR reads it.
  if (!mem.fields.vendor_name && mem.name) read.vendor_name = constantField({ kind: 'text', constant: mem.name, anchors: [] }, pages);
  return { read, unlabelled };
}

/** How much of a learned address (its trigrams) the first page must print for it to be this document's: a branch's other address shares its town at most (0.28–0.44 on scanned receipts), a poor reading of the same one keeps half (0.51). */
const MIN_ADDRESS = 0.5;

function printed(value: string, pages: StoredPage[]): boolean {
  const page = pages[0]?.words.map((w) => w[0]).join(' ') ?? '';
  return containment(trigrams(norm(value).split(' ')), trigrams(norm(page).split(' '))) >= MIN_ADDRESS;
}

/** Constants that are codes, printed exactly where they apply. */
const PRINTED_CODES = new Set(['vendor_tax_id', 'iban']);

function constantField(rule: FieldRule, pages: StoredPage[]): Field {
  const at = occurrences(pages, rule.kind, rule.constant!)[0];
  const bbox: BBox = at?.span.bbox ?? rule.bbox ?? [0, 0, 0, 0];
  return { value: rule.constant!, text: at?.span.text ?? String(rule.constant), confidence: at ? 0.95 : 0.85, page: at?.span.page ?? pages[0]?.page ?? 1, bbox, source: 'vendor_memory' };
}

/** How sure a label match must be before the memory's reading wins over the engine's. */
const MIN_LABEL = 0.7;

function anchoredField(rule: FieldRule, pages: StoredPage[]): { field: Field; labelled: boolean; line: MLine; lines: MLine[] } | null {
  type Best = { field: Field; score: number; anchor: Anchor; c: Anchor; line: MLine; lines: MLine[] };
  let best: Best | null = null as Best | null;
  pages.forEach((p, i) => {
    const at = i === 0 ? 'first' : 'last';
    const mine = rule.anchors.filter((a) => a.at === at || pages.length === 1);
    if (!mine.length) return;
    const lines = rule.kind === 'number' ? joinSplitAmounts(pageLines(p)) : pageLines(p);
    const maxN = Math.max(...mine.map((a) => a.n)) + 1;
    for (const s of spans(p, lines, maxN)) {
      let value = valueOf(rule.kind, s.text, rule.order ?? 'dmy');
      // A date OCR misread (`1B 03-18` for 18-03-18) is read only where it stood, a hair lower.
      let misread = 0;
      if (value === null && rule.kind === 'date') {
        value = looseDate(s.text, rule.order ?? 'dmy', rule.year);
        misread = 0.2;
      }
      if (value === null) continue;
      if (rule.kind === 'date' && rule.year) value = nearYear(String(value), rule.year);
      const c = anchorOf(s, lines, p, at);
      for (const a of mine) {
        if (rule.kind === 'text' && c.n !== a.n) continue;
        // A shorter span scores a hair higher: `80.90`, not `RM 80.90`.
        const score = anchorScore(a, c) - 0.01 * c.n - misread;
        if (!best || score > best.score) best = { field: { value, text: s.text, confidence: 0, page: s.page, bbox: s.bbox, source: 'vendor_memory' }, score, anchor: a, c, line: s.line, lines };
      }
    }
  });
  if (!best) return null;
  const { field, score, anchor, c, line, lines } = best;
  const labelled = anchor.left ? similarity(anchor.left, c.left.slice(Math.max(0, c.left.length - anchor.left.length - 2))) >= MIN_LABEL : similarity(anchor.above, c.above) >= 0.6 || Math.abs(anchor.y - c.y) < 0.05;
  return { field: { ...field, confidence: Math.max(0.5, Math.min(0.99, Math.round((score / 4.5) * 100) / 100)) }, labelled, line, lines };
}

/**
 * A date whose separator OCR lost or whose digits it read as letters (`24 03-18`, `1B 03-18`):
 * three groups of digits in the learned order, a valid day and month, a year of two or four
 * digits, not an amount (`4 26.00`), and within ten years of the learned year when there is one.
 */
export function looseDate(text: string, order: DateOrder, learnedYear?: number): string | null {
  const t = text.trim().replace(/[A-Za-z|]/g, (ch) => DIGIT_LOOKALIKES[ch] ?? ch);
  const m = /^(\d{1,4})[\s./-]{1,2}(\d{1,2})[\s./-]{1,2}(\d{2,4})$/.exec(t);
  if (!m || /[A-Za-z]/.test(t) || ENDS_WITH_CENTS.test(t)) return null;
  const g = [m[1]!, m[2]!, m[3]!];
  const [d, mo, y] = order === 'ymd' ? [g[2]!, g[1]!, g[0]!] : order === 'mdy' ? [g[1]!, g[0]!, g[2]!] : [g[0]!, g[1]!, g[2]!];
  if (y.length !== 2 && y.length !== 4) return null;
  const year = y.length === 2 ? 2000 + Number(y) : Number(y);
  if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || (learnedYear && Math.abs(year - learnedYear) > 10)) return null;
  return `${year}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`;
}

/**
 * A date's year misread by OCR (`17/04/2078` for 2018): more than ten years from the year of the
 * vendor's corrected document, it is read as the year with one of its last two digits changed
 * that is nearest to that one, when that is within three years of it.
 */
export function nearYear(iso: string, learned: number): string {
  const year = Number(iso.slice(0, 4));
  if (Math.abs(year - learned) <= 10) return iso;
  let best: number | null = null;
  for (const alt of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((d) => [year - (year % 100) + d * 10 + (year % 10), year - (year % 10) + d])) {
    if (Math.abs(alt - learned) <= 3 && (best === null || Math.abs(alt - learned) < Math.abs(best - learned))) best = alt;
  }
  return best === null ? iso : `${best}${iso.slice(4)}`;
}

/** A line that adjusts the total to a rounded one. */
const ROUNDING = /\b(?:round|rounding|roundin[g9]|adj|adjustment|pembundaran|rundung|arrondi|redondeo|afronding|arrotondamento)\w*/i;

/**
 * The rounded total: when a rounding line follows the total read (within three lines), the first
 * amount after it that differs from that total by less than 0.10 — the total after rounding
 * (`Total Sales 181.98`, `Rounding Adj 0.02`, `Rounding 182.00`).
 */
export function afterRounding(total: number, line: MLine, lines: MLine[]): { value: number; line: MLine } | null {
  const next = lines.slice(line.index + 1, line.index + 4);
  const r = next.findIndex((l) => ROUNDING.test(l.words.map((w) => w.text).join(' ')));
  if (r < 0) return null;
  for (const l of next.slice(r).concat(lines.slice(line.index + 4, line.index + 6))) {
    for (const { value: v } of amountsIn(l.words.map((w) => w.text).join(' '))) {
      if (v !== total && Math.abs(v - total) < 0.1) return { value: v, line: l };
    }
  }
  return null;
}

/** A line that takes an amount off the total: a discount, coupon, voucher or promotion. */
const DISCOUNT = /\b(?:disc|discount|coupon|voucher|promo|promotion|rebate|less|potongan|diskaun|rabatt|remise|descuento|korting|sconto)\w*/i;

/**
 * The total after a discount: when the total read is followed (within five lines) by discount
 * lines and then a line labelled as a total (not a payment) whose amount is the total read less
 * those discounts, that one — a vendor whose first receipt had no discount printed the same
 * figure at its sub-total and its grand total (`Sub-Total 45.70`, `Coupon Discount 14.80`,
 * `Grand Total 30.90`).
 */
export function afterDiscount(total: number, line: MLine, lines: MLine[]): { value: number; line: MLine } | null {
  let off = 0;
  for (const l of lines.slice(line.index + 1, line.index + 6)) {
    const text = l.words.map((w) => w.text).join(' ');
    const found = amountsIn(text);
    if (!found.length) continue;
    const amounts = found.map((a) => a.value);
    const label = norm(found.reduce((t, a) => t.replace(a.raw, ' '), normalizeText(text)));
    if (DISCOUNT.test(label) && !TOTAL_WORD.test(label)) {
      off += amounts[amounts.length - 1]!;
      continue;
    }
    if (!TOTAL_WORD.test(label) || TENDER.test(label)) continue;
    const v = amounts[amounts.length - 1]!;
    if (off > 0 && Math.abs(total - off - v) < 0.005) return { value: v, line: l };
  }
  return null;
}

/** A line that labels a date (`INV Date`, `Bate`, `Tarikh`), also as OCR misreads its label. */
const DATE_LABEL = /\b(?:date|dat|bate|dt|tarikh|datum|fecha|data)\b/i;

/** A line of a page to read again for a field, and how to read it. */
export interface LostLine {
  key: string;
  page: number;
  bbox: BBox;
  order: DateOrder;
  year?: number;
}

/**
 * Lines of the first page to read again for the dates a memory learned that neither it nor the
 * engine read (`missing`): lines with a date label on which no date reads — the page's OCR lost
 * or garbled it (`INV Date` alone, `Bate 02-04- 15:14:07`) — at most two a field, nearest the
 * learned place first. Each box runs from the line's start to the page's right edge, half a line
 * above and below.
 */
export function lostDateLines(mem: VendorMemory, pages: StoredPage[], missing: (key: string) => boolean): LostLine[] {
  const p = pages[0];
  if (!p) return [];
  const out: LostLine[] = [];
  for (const [key, rule] of Object.entries(mem.fields)) {
    if (rule.kind !== 'date' || !missing(key)) continue;
    const order = rule.order ?? 'dmy';
    const y = rule.anchors[0]?.y;
    const lines = pageLines(p)
      .filter((l) => {
        const text = l.words.map((w) => w.text).join(' ');
        return DATE_LABEL.test(text) && !l.words.some((_, i) => [1, 2, 3].some((n) => valueOf('date', l.words.slice(i, i + n).map((w) => w.text).join(' '), order) !== null));
      })
      .sort((a, b) => (y === undefined ? 0 : Math.abs(a.words[0]!.y0 / p.height - y) - Math.abs(b.words[0]!.y0 / p.height - y)));
    for (const l of lines.slice(0, 2)) {
      const [x0, y0, , y1] = boxOf(l.words);
      const h = y1 - y0;
      out.push({ key, page: p.page, bbox: [Math.max(0, x0 - h), Math.max(0, y0 - 0.6 * h), p.width, Math.min(p.height, y1 + 0.6 * h)], order, year: rule.year });
    }
  }
  return out;
}

/** The date of a line read again: the first that reads in the learned order (its year near the learned one), or null. */
export function dateOfLine(text: string, line: LostLine): string | null {
  const words = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    for (const n of [1, 2, 3]) {
      const span = words.slice(i, i + n).join(' ').replace(/[.,;:]+$/, '');
      const v = valueOf('date', span, line.order) ?? looseDate(span, line.order, line.year);
      if (v !== null) return line.year ? nearYear(String(v), line.year) : String(v);
    }
  }
  return null;
}

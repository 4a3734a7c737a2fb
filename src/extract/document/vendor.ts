/**
 * The vendor's name: the most prominent block at the top of the first page that is not a
 * title, a label, the customer, a street address, a contact line or OCR noise; a company's legal
 * form (`Sdn Bhd`, `GmbH`, `Ltd`) counts as much as a larger type. A name printed over two lines
 * (`POPULAR BOOK` over `CO. (M) SDN BHD`) is joined, a registration number in brackets after it
 * (`(65351-M)`) and a branch after its legal form are left out, and legal forms misread by OCR
 * (`SON BHO`) are read as printed.
 */
import type { Field, Word } from '../types.js';
import { beforeLabel, field } from './labelled.js';
import { blocks, joinWords, type TextLine } from '../locale/lines.js';
import { isTitleOnly, hasTitle } from './classify.js';
import { isAddressLine, isRegionOnly, NOT_NAME } from './address.js';

/** The vendor found: its field, the words and line of the block it was read from, and what follows its name on that line. */
export interface Vendor {
  field: Field;
  words: Word[];
  line: TextLine;
  /** Words after a comma that ends the name on its line (`Velo Huber AG, Zürich`): the address's start. */
  rest: Word[];
}

/** Legal forms and shop words that mark a company name, in the documents' languages. */
const COMPANY = /(?<![\p{L}])(sdn\.? ?bhd|bhd|berhad|s\/b|enterprise|trading|restaurants?|restoran|gmbh|ag|kg|ug|ohg|e\.k\.|ltd\.?|limited|llc|inc\.?|corp\.?|corporation|company|co\.|plc|sarl|sas|s\.a\.?|s\.l\.?|srl|s\.r\.l\.|spa|s\.p\.a\.|b\.?v\.?|n\.v\.|lda|pte|pty|llp|store|shop|mart|market|supermarket|pharmacy|hardware|stationery|bakery|bakeries|caf[eé]|hotel|services?|industries|holdings)(?![\p{L}])/iu;
/** Legal forms proper: a name ends with its last one (`EIGHT OUNCE COFFEE CO.` of `… CO. THE GARDENS MALL`). */
const LEGAL = /(?<![\p{L}])(sdn\.? ?bhd\.?|bhd\.?|berhad|s\/b|enterprises?|gmbh|kg|ltd\.?|limited|llc|inc\.?|corp\.?|co\.|plc|sarl|sas|s\.a\.|s\.l\.|srl|s\.r\.l\.|s\.p\.a\.|b\.v\.|n\.v\.|lda|pte\.? ltd\.?|pty\.? ltd\.?|llp)(?![\p{L}])/giu;
/** A name line that opens with its legal form or closes a bracket it did not open is the tail of a name begun on the line above. */
const TAIL = /^(?:(?:sdn\.?|bhd\.?|berhad|co\.|ltd\.?|limited|gmbh|inc\.?|s\/b)(?![\p{L}])|[^(]*\))/iu;
/** A company registration number in brackets after a name (`(65351-M)`, `(1074617K)`, `(139386 X)`). */
const REG_NO = /\s*[({\[][\p{L}\s.:-]{0,12}\d[\d\s-]{3,}[\p{L}\s-]{0,3}[)}\]]?\s*$/u;

/** Share of letters among the characters of `t` (OCR noise has few). */
const letterShare = (t: string) => (t.match(/\p{L}/gu)?.length ?? 0) / Math.max(1, t.replace(/\s/g, '').length);

/** Mean OCR confidence of words (1 for a text layer). */
function inkConfidence(words: Word[]): number {
  const c = words.filter((w) => w.confidence !== null).map((w) => w.confidence!);
  return c.length ? c.reduce((a, b) => a + b, 0) / c.length : 1;
}

/** Edit distance of two short strings. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/**
 * A name's legal form as printed where OCR misread a letter of it (`SON BHD`, `SDN BHO`,
 * `ENIERPRISE`): the pair `SDN BHD` one letter off in each word, `ENTERPRISE` two letters off.
 */
export function repairLegalForm(text: string): string {
  const t = text.replace(/(?<![\p{L}])(\p{L}{3})\.?\s+(\p{L}\p{L}\p{L}|\d\p{L}\p{L})(\.?)(?![\p{L}])/gu, (m, a: string, b: string, dot: string) => {
    if (distance(a.toLowerCase(), 'sdn') > 1 || distance(b.toLowerCase().replace(/^8/, 'b'), 'bhd') > 1) return m;
    if (a.toLowerCase() === 'sdn' && b.toLowerCase() === 'bhd') return m;
    const upper = a === a.toUpperCase();
    return (upper ? 'SDN BHD' : 'Sdn Bhd') + dot;
  });
  return t.replace(/(?<![\p{L}])(\p{L}{9,11})(?![\p{L}])/gu, (w: string) => {
    const lower = w.toLowerCase();
    if (lower === 'enterprise' || distance(lower, 'enterprise') > 2) return w;
    return w === w.toUpperCase() ? 'ENTERPRISE' : 'Enterprise';
  });
}

/** Words of `words` up to the end of the last legal form, when more than a bracket follows it (a branch, a mall). */
function upToLegalForm(words: Word[]): Word[] {
  const text = joinWords(words);
  const all = [...text.matchAll(LEGAL)];
  const last = all[all.length - 1];
  if (!last || last.index === 0) return words;
  const end = last.index + last[0].length;
  const after = text.slice(end).trim();
  if (!after || /^[({[][^)}\]]*[)}\]]?$/.test(after)) return words;
  let at = 0;
  const kept: Word[] = [];
  for (const w of words) {
    if (at >= end) break;
    kept.push(w);
    at += w.text.length + 1;
  }
  return kept;
}

const TITLE_OR_CUSTOMER = (t: string) => isTitleOnly(t) || /(御中|様)$/.test(t);

/** Whether `text` (without a registration number) can be a name at all; one with a legal form (`99 SPEED MART S/B`, `… CO. THE GARDENS MALL`) may open with a digit or name a place. */
function nameLike(text: string): boolean {
  const legal = new RegExp(LEGAL.source, 'iu').test(text);
  if (!text || TITLE_OR_CUSTOMER(text) || (/^\d/.test(text) && !legal) || !/\p{L}{3}/u.test(text) || NOT_NAME.test(text) || /[:：]$/.test(text)) return false;
  // A branch or a note in brackets (`(SG WANG)`), a closing notice.
  if (/^[({[].*[)}\]]$/.test(text) || /^(goods sold|no refund|not returnable|please|terima kasih)/i.test(text)) return false;
  if (text.replace(/[^\p{L}]/gu, '').length < 4 || letterShare(text) < (legal ? 0.5 : 0.6)) return false;
  return legal || (!isAddressLine(text) && !isRegionOnly(text));
}

/**
 * The vendor: among the blocks of the first lines of page 1 above `top` (or of the first lines
 * when a table starts among them), the one of the largest, surest type, a legal form counting as
 * a larger type, one under the document's title counting less.
 */
export function vendorName(lines: TextLine[], top: number): Vendor | null {
  const page1 = lines.filter((l) => l.page === lines[0]?.page);
  const above = page1.filter((l) => l.bbox[1] < top);
  // A table found from the first lines on (a till receipt read as one table) does not hide the letterhead.
  const head = (above.length >= 3 ? above : page1).slice(0, 12);
  const sizes = head.flatMap((l) => l.words.map((w) => w.size)).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 10;
  const titleAt = head.findIndex((l) => hasTitle(joinWords(l.words)));
  let best: { words: Word[]; line: TextLine; score: number; company: boolean; i: number } | null = null;
  head.forEach((l, i) => {
    for (const block of blocks(l)) {
      const words = beforeLabel(l, block);
      const text = repairLegalForm(joinWords(words)).replace(REG_NO, '');
      if (!words.length || !nameLike(text)) continue;
      const ink = inkConfidence(words);
      if (ink < 0.4) continue;
      const size = Math.max(...words.map((w) => w.size));
      const company = COMPANY.test(text);
      // Under the title (`TAX INVOICE`) come the customer and the document's details, not the letterhead.
      const underTitle = titleAt >= 0 && i > titleAt ? 0.6 : 0;
      const score = (Math.min(size / median, 2.5) + (company ? 1 : 0)) * (0.5 + 0.5 * ink) - i * 0.03 - underTitle;
      if (!best || score > best.score + 0.05) best = { words, line: l, score, company, i };
    }
  });
  if (!best) return null;
  const b = best as { words: Word[]; line: TextLine; score: number; company: boolean; i: number };
  let words = b.words;
  let line = b.line;
  // `POPULAR BOOK` over `CO. (M) SDN BHD`: the line above begins the name.
  const prev = head[b.i - 1];
  if (prev && TAIL.test(joinWords(words)) && words[0]!.y0 - prev.bbox[3] < 1.2 * (words[0]!.y1 - words[0]!.y0)) {
    const upper = blocks(prev).find((bl) => bl[bl.length - 1]!.x1 > words[0]!.x0 && bl[0]!.x0 < words[words.length - 1]!.x1);
    if (upper && nameLike(joinWords(upper)) && !COMPANY.test(joinWords(upper).replace(/\($/, ''))) {
      words = [...upper, ...words];
      line = b.line;
    }
  }
  // `Velo Huber AG, Zürich`: the name, then where it is.
  const comma = words.findIndex((w) => w.text.endsWith(','));
  let name = comma >= 0 && comma < words.length - 1 ? words.slice(0, comma + 1).map((w, i) => (i === comma ? { ...w, text: w.text.slice(0, -1) } : w)) : words;
  const rest = comma >= 0 ? words.slice(comma + 1) : [];
  name = upToLegalForm(name);
  while (name.length > 1 && REG_NO.test(joinWords(name)) && /[\d()\]}]/.test(name[name.length - 1]!.text)) name = name.slice(0, -1);
  const text = repairLegalForm(joinWords(name)).replace(REG_NO, '').trim();
  return { field: field(text, name, line.page, b.company ? 0.8 : 0.6, text), words, line, rest };
}

/**
 * The vendor's name: the most prominent block at the top of the first page that is not a
 * title, a label, the customer, a street address, a contact line or OCR noise; a company's legal
 * form (`Sdn Bhd`, `GmbH`, `Ltd`) counts as much as a larger type, and a party the legal footer
 * names (beside its share capital or trade register) counts more still. A name printed over two lines
 * (`POPULAR BOOK` over `CO. (M) SDN BHD`) is joined, a registration number in brackets after it
 * (`(65351-M)`) and a branch after its legal form are left out, and legal forms misread by OCR
 * (`SON BHO`) are read as printed. A name attested as the issuer's (a legal form with its
 * registration number, or named again by the legal footer) is sure but for its reading.
 */
import { allMatches } from '../matches.js';
import type { Field, Word } from '../types.js';
import { beforeLabel, field, labelMatches } from './labelled.js';
import { blocks, inkOf, joinWords, type TextLine } from '../locale/lines.js';
import { editDistance } from '../edit-distance.js';
import { isTitleOnly, hasTitle } from './classify.js';
import { isAddressLine, isRegionOnly, NOT_NAME } from './address-lines.js';

/** The vendor found: its field, the words and line of the block it was read from, and what follows its name on that line. */
export interface Vendor {
  field: Field;
  words: Word[];
  line: TextLine;
  /** Words after a comma that ends the name on its line (`Velo Huber AG, Zürich`): the address's start. */
  rest: Word[];
  /** The party is named as the issuer twice over: its legal form with a registration number, or the legal footer names it too. */
  attested: boolean;
}

/** Legal forms and shop words that mark a company name, in the documents' languages. */
const COMPANY = /(?<![\p{L}])(sdn\.? ?bhd|bhd|berhad|s\/b|enterprise|trading|restaurants?|restoran|gmbh|ag|kg|ug|ohg|e\.k\.|ltd\.?|limited|llc|inc\.?|corp\.?|corporation|company|co\.|plc|sarl|sas|s\.a\.?|s\.l\.?|srl|s\.r\.l\.|spa|s\.p\.a\.|b\.?v\.?|n\.v\.|lda|pte|pty|llp|store|shop|mart|market|supermarket|pharmacy|hardware|stationery|bakery|bakeries|caf[eé]|hotel|services?|industries|holdings)(?![\p{L}])/iu;
/** Legal forms proper: a name ends with its last one (`EIGHT OUNCE COFFEE CO.` of `… CO. THE GARDENS MALL`). */
const LEGAL = /(?<![\p{L}])(sdn\.? ?b\.?hd\.?|b\.?hd\.?|berhad|s\/b|enterprises?|gmbh|kg|ltd\.?|limited|llc|inc\.?|corp\.?|co\.|plc|sarl|sas|s\.a\.|s\.l\.|srl|s\.r\.l\.|s\.p\.a\.|b\.v\.|n\.v\.|lda|pte\.? ltd\.?|pty\.? ltd\.?|llp)(?![\p{L}])/giu;
/** A name line that opens with its legal form or closes a bracket it did not open is the tail of a name begun on the line above. */
const TAIL = /^(?:(?:sdn\.?|bhd\.?|berhad|co\.|ltd\.?|limited|gmbh|inc\.?|s\/b)(?![\p{L}])|[^(]*\))/iu;
/** A company registration number in brackets after a name (`(65351-M)`, `(1074617K)`, `(139386 X)`). */
const REG_NO = /\s*[({[][\p{L}\s.:-]{0,12}\d(?:[\d\s-]|[A-Z](?=\d)){3,}[\p{L}\s~=_-]{0,3}[)}\]]?\s*$/u;
/** A registration number on a line of its own (`Roc: 1026984-X`, `(113825-W)`, `Co. No. 31S481-T`). */
const REG_LINE = /^[({[]?(?:(?:co(?:mpany)?\.?\s*(?:reg(?:istration)?\.?\s*)?no|roc|reg(?:istration)?\.?\s*no|ssm)[\s.:#]*)?\d[\dA-Z\s-]{4,}[A-Z]?[)}\]]?$/iu;

/** A legal footer's cues: share capital, trade register, company number, managing directors. */
const LEGAL_FOOTER = /(capital|siret|siren|r\.?c\.?s\.?\b|handelsregister|amtsgericht|\bhrb\b|gesch[äa]ftsf[üu]hr|registered (in|office|number)|company (no|number|reg)|registro mercantil|kvk|partita iva|c\.?i\.?f\.?\b)/i;

/**
 * The names printed in the legal footer of the last page: the lines at its foot next to a line of
 * legal cues (share capital, trade register, company number). A party named there issued the
 * document, whichever of the head's parties prints larger or with a legal form.
 */
function footerNames(lines: TextLine[]): { names: Set<string>; foot: Set<TextLine> } {
  const last = lines.filter((l) => l.page === lines[lines.length - 1]?.page);
  const height = Math.max(...last.map((l) => l.bbox[3]));
  const foot = last.filter((l) => l.bbox[1] > 0.75 * height);
  const names = new Set<string>();
  foot.forEach((l, i) => {
    if (!LEGAL_FOOTER.test(joinWords(l.words))) return;
    for (const near of foot.slice(Math.max(0, i - 2), i + 1)) for (const b of blocks(near)) names.add(nameKey(joinWords(b)));
  });
  return { names, foot: new Set(foot) };
}

const nameKey = (t: string) => t.normalize('NFKC').toLowerCase().replace(/[^\p{L}\d]/gu, '');

/** The median type size of `words`. */
function medianSize(words: Word[]): number {
  const s = words.map((w) => w.size).sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** Share of letters among the characters of `t` (OCR noise has few). */
const letterShare = (t: string) => (t.match(/\p{L}/gu)?.length ?? 0) / Math.max(1, t.replace(/\s/g, '').length);


/**
 * A name's legal form as printed where OCR misread a letter of it (`SON BHD`, `SDN BHO`,
 * `ENIERPRISE`, `5/B`, `B.HD`): the pair `SDN BHD` one letter off in each word, `ENTERPRISE` two letters off,
 * `S/B` with a digit for either letter.
 */
export function repairLegalForm(text: string): string {
  const t = text.replace(/(?<![\p{L}])(\p{L}{3})\.?\s+(\p{L}\p{L}\p{L}|\d\p{L}\p{L})(\.?)(?![\p{L}])/gu, (m, a: string, b: string, dot: string) => {
    if (editDistance(a.toLowerCase(), 'sdn') > 1 || editDistance(b.toLowerCase().replace(/^8/, 'b'), 'bhd') > 1) return m;
    if (a.toLowerCase() === 'sdn' && b.toLowerCase() === 'bhd') return m;
    const upper = a === a.toUpperCase();
    return (upper ? 'SDN BHD' : 'Sdn Bhd') + dot;
  });
  // `5/B`, `S/8`: the `S/B` (Sendirian Berhad) of a name, a digit read for a letter.
  const dotted = t.replace(/(?<![\p{L}])B\.H\.?D(?![\p{L}])/gu, 'BHD');
  const sb = dotted.replace(/(?<![\p{L}\d/])([5S])\/([B8])(?![\p{L}\d])/gu, (m: string, a: string, b: string) => (a === 'S' && b === 'B' ? m : 'S/B'));
  return sb.replace(/(?<![\p{L}])(\p{L}{9,11})(?![\p{L}])/gu, (w: string) => {
    const lower = w.toLowerCase();
    if (lower === 'enterprise' || editDistance(lower, 'enterprise') > 2) return w;
    return w === w.toUpperCase() ? 'ENTERPRISE' : 'Enterprise';
  });
}

/** Words of `words` up to the end of the last legal form, when more than a bracket follows it (a branch, a mall). */
function upToLegalForm(words: Word[]): Word[] {
  const text = joinWords(words);
  const all = allMatches(LEGAL, text);
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

/** How many lines under a customer label (`Bill to`) hold the customer's block: name, two address lines, town, country, contact. */
const CUSTOMER_BLOCK_LINES = 6;

/** Where the head prints a customer label: its line's index, and the span of the column under it (the label's left edge, at least 150 pt wide). */
function customerColumns(head: TextLine[]): { line: number; x0: number; x1: number }[] {
  const out: { line: number; x0: number; x1: number }[] = [];
  head.forEach((l, i) => {
    for (const m of labelMatches(l)) {
      if (m.field !== 'customer_name') continue;
      const w = l.words.find((_, k) => l.starts[k]! + l.words[k]!.text.length > m.start);
      if (w) out.push({ line: i, x0: w.x0 - 5, x1: w.x0 + Math.max(150, w.x1 - w.x0) });
    }
  });
  return out;
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
  const detailsAt = titleAt < 0 ? -1 : head.findIndex((l, j) => j > titleAt && labelMatches(l).some((m) => m.field === 'invoice_number' || m.field === 'issue_date'));
  const inFooter = footerNames(lines);
  const customer = customerColumns(head);
  let best: { words: Word[]; line: TextLine; score: number; company: boolean; attested: boolean; i: number } | null = null;
  head.forEach((l, i) => {
    for (const block of blocks(l)) {
      const words = beforeLabel(l, block);
      const text = repairLegalForm(joinWords(words)).replace(REG_NO, '');
      if (!words.length || !nameLike(text)) continue;
      const ink = inkOf(words);
      if (ink < 0.4) continue;
      // The median word's type: OCR may give a word the height of a taller line it merged into.
      const size = medianSize(words);
      const company = COMPANY.test(text);
      // A legal form with its registration number (on its line or the next) names the legal
      // entity that issued the document, which a larger brand or logo over it does not.
      const raw = repairLegalForm(joinWords(words));
      const next = head[i + 1] ? joinWords(head[i + 1]!.words) : '';
      const registered = new RegExp(LEGAL.source, 'iu').test(text) && (REG_NO.test(raw) || REG_LINE.test(next));
      // Under the title (`TAX INVOICE`) come the customer and the document's details, not the
      // letterhead; under the details (a number, a date) the block is the customer's.
      const underTitle = titleAt >= 0 && i > titleAt ? (detailsAt >= 0 && i > detailsAt ? 1.2 : 0.6) : 0;
      const key = nameKey(text);
      const footer = key.length >= 6 && inFooter.names.has(key) && !inFooter.foot.has(l);
      // The block under `Bill to` / `Facturé à` / `Rechnungsempfänger` is the customer's, however large.
      const billed = customer.some((c) => i > c.line && i <= c.line + CUSTOMER_BLOCK_LINES && words[0]!.x0 < c.x1 && words[words.length - 1]!.x1 > c.x0) ? 2 : 0;
      const score = (Math.min(size / median, 2.5) + (company ? 1 : 0) + (registered ? 0.6 : 0) + (footer ? 1.2 : 0)) * (0.5 + 0.5 * ink) - i * 0.03 - underTitle - billed;
      if (!best || score > best.score + 0.05) best = { words, line: l, score, company, attested: (registered || footer) && !billed && !underTitle, i };
    }
  });
  if (!best) return null;
  const b = best as { words: Word[]; line: TextLine; score: number; company: boolean; attested: boolean; i: number };
  let words = b.words;
  let line = b.line;
  // `GARDENIA` `SDN BHD (…)` read as two blocks of one line: the block on the left begins the name.
  const own = blocks(b.line);
  const at = own.findIndex((bl) => bl.includes(words[0]!));
  const left = at > 0 ? own[at - 1]! : null;
  if (left && TAIL.test(repairLegalForm(joinWords(words))) && nameLike(joinWords(left)) && !COMPANY.test(joinWords(left))) words = [...left, ...words];
  // `POPULAR BOOK` over `CO. (M) SDN BHD`: the line above begins the name.
  const prev = head[b.i - 1];
  if (prev && words[0] === b.words[0] && TAIL.test(joinWords(words)) && words[0]!.y0 - prev.bbox[3] < 1.2 * (words[0]!.y1 - words[0]!.y0)) {
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
  // Attested as the issuer, the party's place is settled; what is left is how surely OCR read it,
  // and whether the name begins on a line of its own (a line close above may hold its start).
  const over = head[b.i - 1];
  const h = words[0]!.y1 - words[0]!.y0;
  const continues = !!over && inkOf(over.words) >= 0.4 && words[0]!.y0 - over.bbox[3] < 0.6 * h && over.bbox[0] < words[words.length - 1]!.x1 && over.bbox[2] > words[0]!.x0;
  const attested = b.attested && !continues;
  const f = field(text, name, line.page, attested ? 0.95 : b.company ? 0.8 : 0.6, text);
  // Names are compared letter by letter with a slip allowed: a clean reading of every word is sure.
  const clean = attested && name.every((w) => w.confidence === null || w.confidence >= 0.85);
  return { field: clean ? { ...f, confidence: 0.95 } : f, words, line, rest, attested };
}

/**
 * The document's locale, worked out once per document and used by every reader (fields, line
 * items, summary rows): its language (from its labels), its decimal convention, the order of its
 * numeric dates, and its currency (a `Currency:` label, else the symbols and codes in its words,
 * else the language's).
 */
import { allMatches } from '../matches.js';
import type { Field, PageLayout, Word } from '../types.js';
import { currencyOf, detectConvention, isCurrencySign, parseNumber, type Convention } from './numbers.js';
import { numericParts, type DateOrder } from './dates.js';
import { labelLanguages, labelRegex, type DocLang } from './labels.js';
import { box, documentLines, inkOf, joinWords, type TextLine } from './lines.js';

export type { DocLang } from './labels.js';
export type { Convention } from './numbers.js';
export type { DateOrder } from './dates.js';

/** What reading a document needs to know of its locale. */
export interface Locale {
  lang: DocLang | null;
  conv: Convention | null;
  order: DateOrder;
  /** The currency, with where it was seen (confidence 0.4 when only the language suggests it). */
  currency: Field | null;
  /** True when no word names the currency and only the language suggests it. */
  currencyFromLanguage: boolean;
}

/** The locale of a document from its pages (and their lines, when already grouped). */
export function documentLocale(pages: PageLayout[], lines: TextLine[] = documentLines(pages)): Locale {
  const lang = documentLanguage(lines);
  const conv = documentConvention(pages, lang);
  const currency = documentCurrency(lines, lang);
  const order = dateOrder(lines, lang, (currency?.value as string | undefined) ?? null);
  return { lang, conv, order, currency, currencyFromLanguage: currency !== null && currency.text === '' };
}

/** The decimal separator usually printed in a language (German, Spanish, Dutch, French: comma). */
export function langConvention(lang: DocLang | null): Convention | null {
  if (!lang) return null;
  return lang === 'en' || lang === 'ja' ? 'dot' : 'comma';
}

/** The language whose labels the first page uses most; Japanese when it has kana or kanji. */
export function documentLanguage(lines: TextLine[]): DocLang | null {
  const first = lines.filter((l) => l.page === lines[0]?.page);
  const text = first.map((l) => l.lower).join('\n');
  if (/[\u3040-\u30ff\u4e00-\u9fff]/.test(text)) return 'ja';
  let best: DocLang | null = null;
  let n = 0;
  for (const [lang, hits] of labelLanguages(text)) if (hits > n) [best, n] = [lang, hits];
  return best;
}

/** The decimal convention of every number-like word of the document, else the language's. */
export function documentConvention(pages: PageLayout[], lang: DocLang | null): Convention | null {
  return detectConvention(
    pages.flatMap((p) => p.words.map((w) => w.text)),
    langConvention(lang),
  );
}

/**
 * The order of the document's numeric dates: a date whose first part is above 12 is day-first,
 * one whose second part is, month-first; else the locale's (English with US dollars or no
 * currency: month-first; with any other currency, as on ringgit or rupee receipts: day-first).
 */
export function dateOrder(lines: TextLine[], lang: DocLang | null, currency: string | null): DateOrder {
  let dmy = 0;
  let mdy = 0;
  for (const l of lines) {
    for (const w of l.words) {
      const p = numericParts(w.text);
      if (!p) continue;
      if (p[0] > 12 && p[1] <= 12) dmy++;
      else if (p[1] > 12 && p[0] <= 12) mdy++;
    }
  }
  if (dmy !== mdy) return dmy > mdy ? 'dmy' : 'mdy';
  if (lang === 'ja') return 'ymd';
  // VAT and GST are not American: an English document that names them writes dates day-first,
  // whatever a `$` read into its words (OCR reads the S of `CS00012514` as one) says.
  const vat = lines.some((l) => /(?<![\p{L}])(vat|gst|sst)(?![\p{L}])/u.test(l.lower));
  return lang === 'en' && !vat && (currency === 'USD' || currency === null) ? 'mdy' : 'dmy';
}

const LANG_CURRENCY: Partial<Record<DocLang, string>> = { de: 'EUR', fr: 'EUR', es: 'EUR', nl: 'EUR', it: 'EUR', pt: 'EUR', ja: 'JPY' };

function currencyField(code: string, words: Word[], page: number, confidence: number): Field {
  return { value: code, text: joinWords(words), confidence: Math.round(confidence * inkOf(words) * 100) / 100, page, bbox: box(words) };
}

/**
 * The currency a word names by itself: a sign or an ISO code alone (`€`, `(RM)`, `EUR`), or an
 * amount printed with one (`$12.50`, `12,00 €`). A sign inside another word is no currency:
 * OCR reads the S of `CS00012514` or `SST` as `$`, and `SFR` is no franc.
 */
function wordCurrency(text: string): string | null {
  const t = text.replace(/^[([{:]+|[)\]}:.,;]+$/g, '');
  if (!t || t.length > 12) return null;
  if (isCurrencySign(t) || /^[A-Z]{3}$/.test(t) || /^(?:RM|Rs\.?|kr\.?|円|zł|Kč)$/u.test(t)) return currencyOf(t);
  return /\d/.test(t) ? (parseNumber(t)?.currency ?? null) : null;
}

/**
 * The currency: a `Currency:` label (sure when another word names the same), else the one named most often by symbols and codes (sure when
 * three words or more name it and nearly no word names another), else the language's (less sure).
 */
export function documentCurrency(lines: TextLine[], lang: DocLang | null): Field | null {
  const count = new Map<string, { n: number; at: Field }>();
  for (const l of lines) {
    for (const w of l.words) {
      const code = wordCurrency(w.text);
      if (!code) continue;
      const entry = count.get(code) ?? { n: 0, at: currencyField(code, [w], l.page, 0.85) };
      entry.n++;
      count.set(code, entry);
    }
  }
  for (const l of lines) {
    for (const m of allMatches(labelRegex('currency'), l.lower)) {
      const end = m.index + m[0].length;
      const after = l.words.filter((_, i) => l.starts[i]! >= end).slice(0, 3);
      const code = currencyOf(joinWords(after).replace(/^[:：]\s*/, '')) ?? (after[0] && /^[:：]?\s*円$/.test(after[0].text) ? 'JPY' : null);
      if (!code) continue;
      const f = currencyField(code, after.slice(0, 2), l.page, 0.95);
      // Named again elsewhere on the page (a sign or code beside an amount): two readings that agree.
      return (count.get(code)?.n ?? 0) >= 2 ? { ...f, confidence: 0.95 } : f;
    }
  }
  let best: { n: number; at: Field } | null = null;
  for (const e of count.values()) if (!best || e.n > best.n) best = e;
  const all = [...count.values()].reduce((s, e) => s + e.n, 0);
  // Named by three words or more and by nearly all the page names: many readings that agree.
  if (best && best.n >= 3 && best.n >= 0.9 * all) return { ...best.at, confidence: 0.95 };
  if (best) return best.at;
  const guess = lang ? LANG_CURRENCY[lang] : undefined;
  if (!guess || !lines.length) return null;
  const l = lines[0]!;
  return { value: guess, text: '', confidence: 0.4, page: l.page, bbox: l.bbox };
}

/**
 * The document's locale, as far as reading it needs: its language (from its labels), its
 * decimal convention, the order of its numeric dates, and its currency (symbols and codes in its
 * words, a `Currency:` label, else the language's).
 */
import type { Field, PageLayout } from '../types.js';
import { currencyOf, detectConvention, type Convention } from '../lineitems/numbers.js';
import { numericParts, type DateOrder } from './dates.js';
import { labelLanguages, type DocLang } from './labels.js';
import { joinWords, type TextLine } from './lines.js';
import { candidates, field } from './labelled.js';

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
  const fallback: Convention | null = lang === null ? null : lang === 'en' || lang === 'ja' ? 'dot' : 'comma';
  return detectConvention(
    pages.flatMap((p) => p.words.map((w) => w.text)),
    fallback,
  );
}

/**
 * The order of the document's numeric dates: a date whose first part is above 12 is day-first,
 * one whose second part is, month-first; else the locale's (US dollars in English: month-first).
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
  return lang === 'en' && (currency === 'USD' || currency === null) ? 'mdy' : 'dmy';
}

const LANG_CURRENCY: Partial<Record<DocLang, string>> = { de: 'EUR', fr: 'EUR', es: 'EUR', nl: 'EUR', it: 'EUR', pt: 'EUR', ja: 'JPY' };

/** The currency: a `Currency:` label, else the one named most often by symbols and codes, else the language's (less sure). */
export function documentCurrency(lines: TextLine[], lang: DocLang | null): Field | null {
  for (const c of candidates(lines, 'currency')) {
    const code = currencyOf(joinWords(c.words.slice(0, 2))) ?? (/^円$/.test(c.words[0]!.text) ? 'JPY' : null);
    if (code) return field(code, c.words.slice(0, 1), c.line.page, 0.95);
  }
  const count = new Map<string, { n: number; at: Field }>();
  for (const l of lines) {
    for (const w of l.words) {
      if (!/\d|^[€$£¥円]$|^[A-Z]{3}$/.test(w.text) && w.text.length > 12) continue;
      const code = currencyOf(w.text);
      if (!code) continue;
      const entry = count.get(code) ?? { n: 0, at: field(code, [w], l.page, 0.85, w.text) };
      entry.n++;
      count.set(code, entry);
    }
  }
  let best: { n: number; at: Field } | null = null;
  for (const e of count.values()) if (!best || e.n > best.n) best = e;
  if (best) return best.at;
  const guess = lang ? LANG_CURRENCY[lang] : undefined;
  if (!guess || !lines.length) return null;
  const l = lines[0]!;
  return { value: guess, text: '', confidence: 0.4, page: l.page, bbox: l.bbox };
}

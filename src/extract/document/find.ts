/**
 * A value for any list of labels (custom fields, API.md §4): the words printed after, under or
 * beside one of the labels, read as text, a number, a date or an amount with the document's
 * locale. The same machinery as the built-in fields: key-value pairs first, then labelled lines.
 */
import type { Field } from '../types.js';
import type { Locale } from '../locale/index.js';
import { findDate } from '../locale/dates.js';
import { joinWords, type TextLine } from '../locale/lines.js';
import { normalizeText, parseNumber } from '../locale/numbers.js';
import { choose, type FieldCandidate } from './choose.js';
import { findPairs, type Pair } from './kv.js';
import { field } from './labelled.js';
import { valueAfter } from './lines.js';

/** How a value is read: `text` as printed, `number` and `amount` with the decimal mark, `date` to ISO. */
export type ValueType = 'text' | 'number' | 'date' | 'amount';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function read(words: Pair['value'], type: ValueType, locale: Locale, page: number, confidence: number): Field | null {
  const text = joinWords(words);
  if (!text) return null;
  if (type === 'text') return field(text, words, page, confidence, text);
  if (type === 'date') {
    const d = findDate(text, locale.order);
    return d ? field(d.iso, words, page, confidence, d.raw) : null;
  }
  // The longest run of words from the start that reads as one number.
  for (let k = Math.min(4, words.length); k >= 1; k--) {
    const t = joinWords(words.slice(0, k));
    const n = parseNumber(t, locale.conv);
    if (n && (type === 'number' || !n.percent)) return field(n.value, words.slice(0, k), page, confidence, t);
  }
  return null;
}

/**
 * The value printed with one of `labels` (matched as whole words, case-insensitively), read as
 * `type`; null when none is printed. `pairs` may be passed when already found.
 */
export function findValue(lines: TextLine[], labels: string[], type: ValueType, locale: Locale, pairs: Pair[] = findPairs(lines)): Field | null {
  const wanted = labels.map((l) => normalizeText(l).toLowerCase()).filter(Boolean);
  if (!wanted.length) return null;
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${wanted.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'u');
  const cands: FieldCandidate[] = [];
  for (const p of pairs) {
    const key = normalizeText(joinWords(p.key)).toLowerCase().replace(/\s*[:：]$/, '');
    if (!re.test(key)) continue;
    // A key that is just the label beats one that only contains it.
    const exact = wanted.includes(key) ? 1 : 0.9;
    const f = read(p.value, type, locale, p.line.page, p.how === 'inline' ? 0.9 : 0.8);
    if (f) cands.push({ field: f, score: f.confidence * exact, via: 'key_value' });
  }
  if (!cands.length) {
    // A label inside a longer line (no colon, not a known label): the words after it.
    for (const l of lines) {
      const m = re.exec(l.lower);
      if (!m) continue;
      const { words, below } = valueAfter(l, m.index, m.index + m[0].length, [], lines);
      const f = read(words, type, locale, l.page, below ? 0.7 : 0.8);
      if (f) cands.push({ field: f, score: f.confidence, via: 'label' });
    }
  }
  return choose(cands);
}

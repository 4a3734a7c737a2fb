/**
 * Custom fields (API.md §4b): values found after labels a processing run names, typed. Uses the
 * field readers' labelled-line code (document/lines.ts) so a custom label reads like a built-in one.
 */
import { findDate, type DateOrder } from '../locale/dates.js';
import { field } from '../document/labelled.js';
import { valueAfter } from '../document/lines.js';
import { documentLines, joinWords, type TextLine } from '../locale/lines.js';
import { parseNumber } from '../locale/numbers.js';
import type { CustomFieldSpec, Field, PageLayout, Word } from '../types.js';

/** Each spec's value, or null where none of its labels is printed with a value after it. */
export function readCustomFields(pages: PageLayout[], specs: CustomFieldSpec[], order: DateOrder = 'dmy'): Record<string, Field | null> {
  const lines = documentLines(pages);
  const out: Record<string, Field | null> = {};
  for (const spec of specs) out[spec.name] = readOne(lines, spec, order);
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function readOne(lines: TextLine[], spec: CustomFieldSpec, order: DateOrder): Field | null {
  const labels = spec.labels.map((l) => l.normalize('NFKC').toLowerCase().trim()).filter(Boolean);
  for (const line of lines) {
    for (const label of labels) {
      const m = new RegExp(`(?<![\\p{L}\\p{N}])${escape(label).replace(/\s+/g, '\\s+')}\\.?(?![\\p{L}])`, 'u').exec(line.lower);
      if (!m) continue;
      const { words, below } = valueAfter(line, m.index, m.index + m[0].length, [m.index], lines);
      const f = typed(words, spec, order, line.page, below ? 0.8 : 0.9);
      if (f) return f;
    }
  }
  return null;
}

function typed(words: Word[], spec: CustomFieldSpec, order: DateOrder, page: number, confidence: number): Field | null {
  if (!words.length) return null;
  if (spec.type === 'date') {
    const d = findDate(joinWords(words.slice(0, 5)), order);
    return d ? field(d.iso, words.slice(0, 5), page, confidence, d.raw) : null;
  }
  if (spec.type === 'number' || spec.type === 'amount') {
    for (const w of words.slice(0, 3)) {
      const n = parseNumber(w.text);
      if (n && !n.percent) return field(n.value, [w], page, confidence, w.text);
    }
    return null;
  }
  // Text: an identifier is its one word (`PO-7781`); words without digits are the phrase.
  const first = words[0]!;
  const t = first.text.replace(/[,;)]+$/, '').replace(/^[(#:]+/, '');
  if (/\d/.test(t)) return field(t, [first], page, confidence, t);
  return field(joinWords(words), words, page, confidence);
}

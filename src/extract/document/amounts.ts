/**
 * Amounts at the end of a till receipt's lines as OCR leaves them (split by the ink, followed by
 * a tax code), and the rounding adjustments a till prints between the total and what was paid.
 */
import type { Word } from '../types.js';
import { ENDS_WITH_CENTS, WITH_CENTS, cents, parseNumber, sameAmount, type Convention } from '../locale/numbers.js';
import type { TextLine } from '../locale/lines.js';

/** The width of one character of `w`. */
const charWidth = (w: Word) => (w.x1 - w.x0) / Math.max(1, w.text.length);

/**
 * OCR'd amounts split by the ink (`85. 54`, `37 50` for 37.50, `1 6 . 00` for 16.00, `1 19.70`
 * for 119.70): the pieces at the end of the line as one amount. The cents are two digits after a
 * number (with or without its mark, or after a mark read as a word of its own); digits before
 * the first piece join it only when they stand closer than a character's width, as a digit of
 * the same number does and a count before an amount does not.
 */
function inkedNumber(words: Word[], conv: Convention | null): Word[] {
  const n = words.length;
  const last = words[n - 1];
  if (!last || last.confidence === null) return words;
  const mark = conv === 'comma' ? ',' : '.';
  // Gaps are measured against the cents' character width: a narrow `1` is no measure.
  const tight = (a: Word, b: Word) => /^\d{1,3}$/.test(a.text) && a.confidence !== null && b.x0 - a.x1 < 0.8 * charWidth(last);
  let start: number;
  let text: string;
  if (/^\d{2}$/.test(last.text)) {
    const lone = n >= 3 && /^[.,]$/.test(words[n - 2]!.text);
    const a = words[lone ? n - 3 : n - 2];
    if (!a || a.confidence === null || !/^-?\d{1,4}[.,]?$/.test(a.text) || (lone && /[.,]$/.test(a.text))) return words;
    start = lone ? n - 3 : n - 2;
    text = (/[.,]$/.test(a.text) ? a.text : a.text + (lone ? words[n - 2]!.text : mark)) + last.text;
  } else if (/^\d{1,3}[.,]\d{2}$/.test(last.text) && n >= 2 && tight(words[n - 2]!, last)) {
    start = n - 1;
    text = last.text;
  } else return words;
  while (start > 0 && tight(words[start - 1]!, words[start]!) && text.replace(/\D/g, '').length < 8) text = words[--start]!.text + text;
  if (start === n - 1) return words;
  const parts = words.slice(start);
  const confidence = Math.min(...parts.map((w) => w.confidence ?? 1)) * 0.9;
  return [...words.slice(0, start), { ...parts[0]!, text, x1: last.x1, y0: Math.min(...parts.map((w) => w.y0)), y1: Math.max(...parts.map((w) => w.y1)), confidence }];
}

/**
 * The words of a line without a short tag after its amount (a tax code `SR`, a currency `DH`, a
 * stray mark), so the amount is what the line ends in; the words as they are otherwise.
 */
function withoutTag(words: Word[]): Word[] {
  const tag = words[words.length - 1];
  const before = words[words.length - 2];
  if (!tag || !before || tag.text.length > 3 || WITH_CENTS.test(tag.text) || !ENDS_WITH_CENTS.test(before.text)) return words;
  if (parseNumber(`${before.text} ${tag.text}`)) return words; // `12.00 EUR`: the currency is the amount's
  return words.slice(0, -1).map((w) => (w === before && w.confidence !== null ? { ...w, confidence: w.confidence * 0.95 } : w));
}

/** The words of a line with its closing amount read as one word (`14. 65`, `56.00 DH`). */
export function amountWords(words: Word[], conv: Convention | null): Word[] {
  const joined = inkedNumber(words, conv);
  return joined !== words ? joined : inkedNumber(withoutTag(words), conv);
}

/** A rounding adjustment's label (`Rounding Adj`, `Round off`, `Rundung`). */
const ROUNDING = /^(rounding|round(ing)?[\s.-]*(adj|off)|rundung|arrondi|redondeo|afronding|arrotondamento|arredondamento)/;

/** A rounding adjustment: its amount, and whether the till printed its sign (`-0.02`) or left it to be inferred (`0.02`). */
export interface Rounding {
  value: number;
  signed: boolean;
  words: Word[];
}

/** The rounding adjustments printed, each less than a coin (a larger amount on such a line is the rounded total itself). */
export function roundings(lines: TextLine[], conv: Convention | null): Rounding[] {
  const out: Rounding[] = [];
  for (const l of lines) {
    if (!ROUNDING.test(l.lower)) continue;
    const words = amountWords(l.words, conv);
    const last = words[words.length - 1]!;
    const n = parseNumber(last.text, conv);
    if (!n || n.percent || !/[.,]\d{2}$/.test(last.text) || Math.abs(n.value) >= 0.5) continue;
    out.push({ value: n.value, signed: /^[-(]|-$/.test(last.text.trim()), words: [{ ...last, page: l.page } as Word] });
  }
  return out;
}

/** What `base` becomes with the rounding `r`: an unsigned adjustment goes the way that lands on a 5-cent step, as tills round. */
export function rounded(base: number, r: Rounding): number[] {
  const options = r.signed ? [base + r.value] : [base + r.value, base - r.value];
  return options.map(cents).filter((v) => v > 0 && Math.round(v * 100) % 5 === 0);
}

/** Where on the page `value` is printed as an amount: its last occurrence, where totals stand. */
export function printedAt(value: number, lines: TextLine[], conv: Convention | null): { words: Word[]; page: number } | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    const words = amountWords(l.words, conv);
    for (let j = words.length - 1; j >= 0; j--) {
      const n = /\d/.test(words[j]!.text) ? parseNumber(words[j]!.text, conv) : null;
      if (n && !n.percent && sameAmount(n.value, value)) return { words: [words[j]!], page: l.page };
    }
  }
  return null;
}

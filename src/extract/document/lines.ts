/**
 * The text lines of a document with their words' boxes, and the words that follow a label on
 * its line (or, when nothing does, below it): what every field reader works on.
 */
import type { Word } from '../types.js';
import { normalizeText } from '../locale/numbers.js';
import type { TextLine } from '../locale/lines.js';


/** The words of `line` from its character offset `from` up to `to` (a word cut at `from` keeps its tail). */
function wordsBetween(line: TextLine, from: number, to: number): Word[] {
  const out: Word[] = [];
  line.words.forEach((w, i) => {
    const s = line.starts[i]!;
    if (s >= to) return;
    const text = normalizeText(w.text);
    if (s >= from) out.push(w);
    else if (s + text.length > from) out.push({ ...w, text: text.slice(from - s), x0: w.x0 + ((w.x1 - w.x0) * (from - s)) / text.length });
  });
  return out;
}

/** Punctuation and number words that sit between a label and its value (`:`, `#`, `No.`, `Nº`). */
const LEAD = /^([:：#.\-–]+|n[º°o]\.?|nr\.?|no\.?|num\.?|number|nummer|número|numéro)$/i;

/**
 * OCR's reading of a smudge between a label and its value (the rest of a `°` or a colon, a box's
 * edge): marks alone (`*.`), or one or two letters read very unsure (`ie,` at 0.07; a key such as
 * `GLN` read unsure is still a key).
 */
const MARKS = /^[.,:;*'"`~_|^°•·!?¡¿]+$/;
const smudge = (w: Word) => MARKS.test(w.text) || (w.confidence !== null && w.confidence < 0.5 && /^\p{L}{1,2}\p{P}?$/u.test(w.text));

/**
 * The value words after a label that ends at character `end` of `line`: up to the next label
 * (`stops`, character offsets) or a gap wider than three letters; when the label (from `start`)
 * ends its line, the words below it on the next line.
 */
export function valueAfter(line: TextLine, start: number, end: number, stops: number[], lines: TextLine[]): { words: Word[]; below: boolean } {
  const next = Math.min(...stops.filter((s) => s >= end), Infinity);
  let words = wordsBetween(line, end, next).map((w) => ({ ...w, text: w.text.replace(/^[:：]\s*/, '') })).filter((w) => w.text);
  while (words.length && (LEAD.test(words[0]!.text) || smudge(words[0]!))) words = words.slice(1);
  const cut: Word[] = [];
  for (const w of words) {
    const prev = cut[cut.length - 1];
    if (prev && w.x0 - prev.x1 > 3 * Math.max(w.size, prev.size) * 0.5) break;
    cut.push(w);
  }
  if (cut.length) return { words: cut, below: false };
  const labelWords = line.words.filter((w, i) => line.starts[i]! < end && line.starts[i]! + normalizeText(w.text).length > start);
  const x0 = labelWords.length ? labelWords[0]!.x0 : line.bbox[0];
  const under = lines.find((l) => l.page === line.page && l.index === line.index + 1);
  if (!under || under.bbox[1] - line.bbox[3] > 2 * (line.bbox[3] - line.bbox[1])) return { words: [], below: true };
  const below: Word[] = [];
  for (const w of under.words) {
    if (w.x1 < x0 - 2) continue;
    const prev = below[below.length - 1];
    if (prev && w.x0 - prev.x1 > 1.5 * w.size) break;
    if (!prev && w.x0 > x0 + 120) break;
    below.push(w);
  }
  return { words: below, below: true };
}


/**
 * Vertical bars OCR reads from table rules too short for the ruling finder (the rules of a
 * table of three rows, a cell border broken by a scan): `|` alone, or glued to a word
 * ("|Product", "Margarine|"). In a table they are never text, and as words they make columns
 * of their own, so they are dropped, and stripped from the ends of words (the box keeps the
 * letters' share of its width).
 */
const BARS = /^\|+|\|+$/g;

/** The words without bar-only words (returned apart, as `bars`), and with bars stripped from their ends. */
export function splitBars<T extends { text: string; x0: number; x1: number }>(words: T[]): { words: T[]; bars: T[] } {
  const out: T[] = [];
  const bars: T[] = [];
  for (const w of words) {
    if (!w.text.includes('|')) {
      out.push(w);
      continue;
    }
    const text = w.text.replace(BARS, '');
    if (text === '') {
      bars.push(w);
      continue;
    }
    const chars = [...w.text].length;
    const lead = [...w.text].findIndex((c) => c !== '|');
    const trail = chars - lead - [...text].length;
    const per = (w.x1 - w.x0) / chars;
    out.push({ ...w, text, x0: w.x0 + lead * per, x1: w.x1 - trail * per });
  }
  return { words: out, bars };
}

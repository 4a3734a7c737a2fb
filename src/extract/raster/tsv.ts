/**
 * Tesseract's TSV output (the same columns from tesseract.js and the `tesseract` program) turned
 * into words, so both engines give one result shape.
 */

/** A recognised word in the pixels of the image that was recognised. */
export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0..1 */
  confidence: number;
  /** Height of the word's text line, a steadier font size than the word's own box. */
  lineHeight: number;
  /** 1-based image of a multi-image run (Tesseract's page_num column). */
  image: number;
}

/** Parses TSV rows (`level page block par line word left top width height conf text`). */
export function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  const lineHeights = new Map<string, number>();
  for (const row of tsv.split('\n')) {
    const f = row.split('\t');
    if (f.length < 12 || f[0] === 'level') continue;
    const level = Number(f[0]);
    const key = `${f[1]}.${f[2]}.${f[3]}.${f[4]}`;
    const height = Number(f[9]);
    if (level === 4) {
      lineHeights.set(key, height);
      continue;
    }
    if (level !== 5) continue;
    const text = f.slice(11).join('\t').trim();
    const conf = Number(f[10]);
    if (text === '' || !(conf >= 0)) continue;
    const left = Number(f[6]);
    const top = Number(f[7]);
    words.push({
      text,
      x0: left,
      y0: top,
      x1: left + Number(f[8]),
      y1: top + height,
      confidence: Math.max(0, Math.min(1, conf / 100)),
      lineHeight: lineHeights.get(key) ?? height,
      image: Number(f[1]) || 1,
    });
  }
  return words;
}

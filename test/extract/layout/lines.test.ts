/** Text lines from words: side by side on one line, or stacked. */
import { describe, expect, it } from 'vitest';
import { cellText, textLines } from '../../../src/extract/layout/prepare/lines.js';
import type { Word } from '../../../src/extract/types.js';

const word = (text: string, x0: number, y0: number, x1: number, y1: number): Word => ({ text, x0, y0, x1, y1, size: 27.6, confidence: 0.96 });

describe('text lines', () => {
  it('an OCR box overlapping its neighbour by a few pixels stays on its line, in its place', () => {
    // "of" read taller than its neighbours and 3 px into "things" (eu-023 at 200 dpi).
    const words = [word('Left', 177, 610, 218, 629), word('out', 225, 611, 260, 629), word('of', 267, 606, 283, 639), word('things', 280, 610, 358, 634)];
    expect(textLines(words)).toHaveLength(1);
    expect(cellText(words)).toBe('Left out of things');
  });
  it('a word whose box takes in the stroke after it, given as a word too, stays on its line', () => {
    // "Consumer / Food safety / Public health" at 200 dpi: Tesseract boxes "Consumer" and
    // "safety" over the slash after each, and gives each slash as a word, taller than the line.
    const words = [
      word('Consumer', 169, 564, 301, 588), word('/', 286, 560, 297, 593), word('Food', 310, 565, 363, 585),
      word('safety', 372, 564, 457, 589), word('/', 445, 560, 457, 593), word('Public', 466, 565, 531, 584), word('health', 540, 565, 609, 584),
    ];
    expect(textLines(words)).toHaveLength(1);
    expect(cellText(words)).toBe('Consumer / Food safety / Public health');
  });
  it('a word read across two lines is not level with the words of either', () => {
    const words = [word('Total', 100, 100, 180, 125), word('Croat', 120, 100, 190, 160), word('unit', 100, 135, 160, 160)];
    expect(textLines(words)).toHaveLength(3);
  });
  it('words stacked over each other are two lines', () => {
    // Two lines overlapping in height by over half (set tight) with their words over each other.
    const words = [word('Total', 100, 100, 180, 125), word('assets', 110, 112, 200, 137)];
    expect(textLines(words)).toHaveLength(2);
  });
});

describe('chunks of an OCR\'d line', () => {
  // Body text read at 27.6 px a size; a line of capitals is boxed a quarter shorter (no ascenders
  // or descenders), so its size reads 20 px: a word space of 13 px (where OCR lost a colon, the
  // others 6 px) is 0.65 of that, more than a column gap's 0.6.
  const sized = (text: string, x0: number, y: number, size: number, confidence: number | null = 0.96): Word => ({ text, x0, y0: y, x1: x0 + 14 * text.length, y1: y + 0.75 * size, size, confidence });
  const body = ['The', 'terms', 'of', 'payment', 'below', 'apply', 'to', 'every', 'order'].map((t, i) => sized(t, 100 + 120 * i, 100, 27.6));
  const capitals = (confidence: number | null) => {
    const out: Word[] = [];
    let x = 100;
    for (const t of ['CONDITIONS', 'DE', 'PAIEMENT', '30', 'JOURS', 'NETS']) {
      out.push(sized(t, x, 200, 20, confidence));
      x += 14 * t.length + (t === 'PAIEMENT' ? 13 : 6);
    }
    return out;
  };
  it('a line of capitals keeps its word spaces, measured against the page\'s text size', () => {
    const caps = textLines([...body, ...capitals(0.96)]).find((l) => l.words[0].text === 'CONDITIONS')!;
    expect(caps.chunks.map((c) => c.text)).toEqual(['CONDITIONS DE PAIEMENT 30 JOURS NETS']);
  });
  it('a text layer\'s sizes are the type\'s own: the same gap at that size splits', () => {
    const caps = textLines([...body.map((w) => ({ ...w, confidence: null })), ...capitals(null)]).find((l) => l.words[0].text === 'CONDITIONS')!;
    expect(caps.chunks.map((c) => c.text)).toEqual(['CONDITIONS DE PAIEMENT', '30 JOURS NETS']);
  });
});

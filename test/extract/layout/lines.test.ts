/** Text lines from words: side by side on one line, or stacked. */
import { describe, expect, it } from 'vitest';
import { cellText, textLines } from '../../../src/extract/layout/lines.js';
import type { Word } from '../../../src/extract/types.js';

const word = (text: string, x0: number, y0: number, x1: number, y1: number): Word => ({ text, x0, y0, x1, y1, size: 27.6, confidence: 0.96 });

describe('text lines', () => {
  it('an OCR box overlapping its neighbour by a few pixels stays on its line, in its place', () => {
    // "of" read taller than its neighbours and 3 px into "things" (eu-023 at 200 dpi).
    const words = [word('Left', 177, 610, 218, 629), word('out', 225, 611, 260, 629), word('of', 267, 606, 283, 639), word('things', 280, 610, 358, 634)];
    expect(textLines(words)).toHaveLength(1);
    expect(cellText(words)).toBe('Left out of things');
  });
  it('words stacked over each other are two lines', () => {
    // Two lines overlapping in height by over half (set tight) with their words over each other.
    const words = [word('Total', 100, 100, 180, 125), word('assets', 110, 112, 200, 137)];
    expect(textLines(words)).toHaveLength(2);
  });
});

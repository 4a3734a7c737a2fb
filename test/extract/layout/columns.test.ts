/** Columns set closer than a word space, and the word spaces that only happen to line up. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

/** OCR'd rows: each cell's words set a word space (0.3 em) apart, cells at their column's x. */
function rows(cells: string[][], xs: number[]): PageLayout {
  const words: Word[] = [];
  cells.forEach((row, r) => row.forEach((cell, c) => {
    let x = xs[c];
    for (const text of cell.split(' ').filter(Boolean)) {
      // Every word of a label column is 50 px wide, so the spaces after the same word line up.
      const width = c === 0 ? 50 : 16 * text.length;
      words.push({ text, x0: x, y0: 100 + 33 * r, x1: x + width, y1: 125 + 33 * r, size: 32, confidence: 0.95 });
      x += width + 10;
    }
  }));
  return { page: 1, width: 1600, height: 1000, words, rulings: [] };
}

describe('columns closer than a word space', () => {
  it('a phrase going on in lower case past aligned word spaces is one cell', () => {
    const labels = ['I/we kept the assets', 'I/we sold some of the assets', 'I/we sold all of them'];
    const [t] = detectTables(rows(labels.map((l, i) => [l, String(344 - 100 * i), `${75 - 10 * i}.2`]), [200, 700, 900]));
    expect(grid(t).map((r) => r[0])).toEqual(labels);
  });
  it('codes and names set a word space apart are two columns', () => {
    const [t] = detectTables(rows([['Code Name', 'Count', 'Share'], ['A12 Alpha', '344', '75.2'], ['B34 Beta', '244', '65.2'], ['C56 Gamma', '144', '55.2']], [200, 700, 900]));
    expect(grid(t).map((r) => r.slice(0, 2))).toEqual([['Code', 'Name'], ['A12', 'Alpha'], ['B34', 'Beta'], ['C56', 'Gamma']]);
  });
});

/** Cell text the recogniser got wrong that the table puts right. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

/** Rows of a whitespace table read by OCR, each cell one word at its column's x. */
function ocrPage(rows: string[][], confidence: number | null = 0.9): PageLayout {
  const words: Word[] = [];
  rows.forEach((row, r) => row.forEach((text, c) => {
    if (text) words.push({ text, x0: 100 + 200 * c, y0: 100 + 30 * r, x1: 100 + 200 * c + 12 * text.length, y1: 116 + 30 * r, size: 16, confidence });
  }));
  return { page: 1, width: 900, height: 1000, words, rulings: [] };
}

describe('zeros read as letters', () => {
  const rows = [
    ['Country', 'Domestic', 'Unknown'],
    ['Austria', '92.9', '0'],
    ['Belgium', '0', '100.0'],
    ['Czechia', '99.2', 'oO'],
    ['Slovenia', 'oO', '99.4'],
    ['Spain', '100.0', '0'],
  ];
  it('a cell of o\'s in a column of figures is a zero', () => {
    const [t] = detectTables(ocrPage(rows));
    expect(grid(t).slice(3)).toEqual([['Czechia', '99.2', '0'], ['Slovenia', '0', '99.4'], ['Spain', '100.0', '0']]);
  });
  it('o\'s among words, or in a text layer, stay as they are', () => {
    const words = rows.map((r, i) => (i === 0 ? r : [r[0], ['oO', 'Yes', 'No', 'Maybe', 'Yes'][i - 1], r[2]]));
    expect(grid(detectTables(ocrPage(words))[0]).map((r) => r[1])).toContain('oO');
    expect(grid(detectTables(ocrPage(rows, null))[0]).map((r) => r[2])).toContain('oO');
  });
});

describe('braces read for parentheses', () => {
  it('a brace is the parenthesis, and one closing twice is one', () => {
    const rows = [['Country', 'Unknown (%)}', 'Total {n)'], ['Austria', '{2.9}', '5,821'], ['Belgium', '0.4', '5,906'], ['Cyprus', '1.2', '17']];
    const words = ocrPage(rows.map((r) => r.map((c) => c.replace(/ /g, '_')))).words.map((w) => ({ ...w, text: w.text.replace(/_/g, ' ') }));
    const [t] = detectTables({ ...ocrPage([]), words });
    expect(grid(t).slice(0, 2)).toEqual([['Country', 'Unknown (%)', 'Total (n)'], ['Austria', '(2.9)', '5,821']]);
    // A text layer's braces are printed ones.
    const [printed] = detectTables({ ...ocrPage([]), words: words.map((w) => ({ ...w, confidence: null })) });
    expect(grid(printed)[0]).toEqual(['Country', 'Unknown (%)}', 'Total {n)']);
  });
});


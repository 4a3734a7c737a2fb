import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

const ocr = (text: string, x0: number, y0: number, size = 14): Word => ({ text, x0, y0, x1: x0 + 8 * text.length, y1: y0 + 12, size, confidence: 0.9 });

/** OCR'd lines: each a list of [text, x] pieces, one line every 20 units; words of a piece 5 apart. */
function page(lines: [string, number][][]): PageLayout {
  const words: Word[] = [];
  lines.forEach((pieces, i) => {
    for (const [text, x0] of pieces) {
      let x = x0;
      for (const t of text.split(' ')) {
        words.push(ocr(t, x, 100 + 20 * i));
        x += 8 * t.length + 5;
      }
    }
  });
  return { page: 1, width: 800, height: 600, words, rulings: [] };
}

const ITEMS = ['Supply at basic prices', 'Transport margins', 'Taxes on products'];

describe('lists', () => {
  it('a list whose bullets OCR read as signs or letters is no table', () => {
    for (const marks of [['+', '»', '+'], ['®', '©', '®'], ['o', 'o', 'o'], ['eo', '°', 'eo']]) {
      expect(detectTables(page(ITEMS.map((t, i) => [[marks[i], 100], [t, 130]])))).toEqual([]);
    }
  });

  it('a numbered list is no table; numbered rows beside figures are', () => {
    for (const marks of [['1.', '2.', '3.'], ['(a)', '(b)', '(c)'], ['i)', 'ii)', 'iii)']]) {
      expect(detectTables(page(ITEMS.map((t, i) => [[marks[i], 100], [t, 140]])))).toEqual([]);
    }
    const [t] = detectTables(page(ITEMS.map((text, i) => [[`${i + 1}.`, 100], [text, 140], [`${12 + i}.50`, 500]])));
    expect(grid(t)).toEqual(ITEMS.map((text, i) => [`${i + 1}.`, text, `${12 + i}.50`]));
    // Marks that do not count up are a column of the table (note numbers).
    const notes = [...ITEMS, 'Output'].map((text, i): [string, number][] => [[['3.', '7.', '12.', '15.'][i], 100], [text, 140]]);
    expect(detectTables(page(notes.map((l, i) => [[`${i + 1}.`, 100], l[1]])))).toEqual([]);
    const [t2] = detectTables(page(notes));
    expect(t2?.n_cols).toBe(2);
  });

  it('the labels under a figure caption numbered with a letter ("Figure 8.1a.") are no table', () => {
    const labels: [string, number][][] = [['Europe', 'Asia'], ['Americas', 'Africa'], ['Oceania', 'Other']].map(([a, b]) => [[a, 300], [b, 500]]);
    expect(detectTables(page(labels))).toHaveLength(1);
    expect(detectTables(page([[['Figure 8.1a.', 100], ['Countries with a score higher', 300]], ...labels]))).toEqual([]);
  });
});

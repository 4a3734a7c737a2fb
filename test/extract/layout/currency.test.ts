import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

const ocr = (text: string, x0: number, y0: number, x1: number): Word => ({ text, x0, y0, x1, y1: y0 + 12, size: 14, confidence: 0.9 });

// A statement whose amounts carry a dollar sign flush left in their column, the figure right-aligned.
function page(): PageLayout {
  const words: Word[] = [ocr('2018', 330, 80, 360), ocr('2017', 450, 80, 480)];
  const rows: [string, string, string][] = [['Revenue', '443', '38,994'], ['Net income', '4,800', '(419)'], ['Total assets', '353,664', '—']];
  rows.forEach(([label, a, b], r) => {
    const y = 100 + r * 20;
    let x = 60;
    for (const t of label.split(' ')) { words.push(ocr(t, x, y, x + 8 * t.length)); x += 8 * t.length + 5; }
    words.push(ocr('$', 300, y, 306), ocr(a, 360 - 7 * a.length, y, 360));
    words.push(ocr('$', 420, y, 426), ocr(b, 480 - 7 * b.length, y, 480));
  });
  return { page: 1, width: 800, height: 600, words, rulings: [] };
}

describe('currency signs', () => {
  it('a sign set apart from its amount is part of the amount\'s cell, not a column', () => {
    const [t] = detectTables(page());
    expect(grid(t)).toEqual([
      ['', '2018', '2017'],
      ['Revenue', '$ 443', '$ 38,994'],
      ['Net income', '$ 4,800', '$ (419)'],
      ['Total assets', '$ 353,664', '$ —'],
    ]);
    expect(t.cells.find((c) => c.text === '$ 443')!.bbox[0]).toBe(300);
  });

  it('a sign flush left in a wide column joins a short figure five ems away', () => {
    const words: Word[] = [ocr('2015', 480, 80, 506), ocr('2014', 600, 80, 626)];
    [['federal', '3,533', '3,872'], ['state', '458', '478'], ['Total', '19,143', '13,706']].forEach(([label, a, b], r) => {
      const y = 100 + r * 20;
      words.push(ocr(label, 100, y, 100 + 8 * label.length));
      if (r !== 1) words.push(ocr('$', 400, y, 406), ocr('$', 520, y, 526));
      words.push(ocr(a, 506 - 7 * a.length, y, 506), ocr(b, 626 - 7 * b.length, y, 626));
    });
    const [t] = detectTables({ page: 1, width: 800, height: 600, words, rulings: [] });
    expect(grid(t)).toEqual([
      ['', '2015', '2014'],
      ['federal', '$ 3,533', '$ 3,872'],
      ['state', '458', '478'],
      ['Total', '$ 19,143', '$ 13,706'],
    ]);
  });

  it('a sign over its column, with no amount beside it, stays a cell', () => {
    const p = page();
    p.words.push(ocr('$', 330, 60, 336), ocr('$', 450, 60, 456));
    const [t] = detectTables(p);
    expect(grid(t)[0]).toEqual(['', '$', '$']);
  });
});

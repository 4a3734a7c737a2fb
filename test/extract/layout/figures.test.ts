import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';

// Five rows of three aligned columns, as OCR gives them: a whitespace table.
const words: Word[] = [];
for (let r = 0; r < 5; r++) {
  for (const [c, x] of [100, 300, 500].entries()) {
    const text = r === 0 ? ['Country', 'Year', 'Value'][c] : c === 0 ? `Name${r}` : String(10 * r + c);
    words.push({ text, x0: x, y0: 100 + r * 30, x1: x + 60, y1: 116 + r * 30, size: 16, confidence: 0.95 });
  }
}
const page: PageLayout = { page: 1, width: 800, height: 1000, words, rulings: [] };

describe('figures', () => {
  it('a whitespace table lying inside figures is the figures\' labels, not a table', () => {
    expect(detectTables(page)).toHaveLength(1);
    // One chart over the whole block, or two side by side that cover it together.
    expect(detectTables({ ...page, figures: [[80, 80, 600, 260]] })).toHaveLength(0);
    expect(detectTables({ ...page, figures: [[80, 80, 340, 260], [340, 80, 600, 260]] })).toHaveLength(0);
    // A figure beside the table, or over a small part of it, leaves it alone.
    expect(detectTables({ ...page, figures: [[80, 400, 600, 700]] })).toHaveLength(1);
    expect(detectTables({ ...page, figures: [[80, 80, 200, 160]] })).toHaveLength(1);
  });
});

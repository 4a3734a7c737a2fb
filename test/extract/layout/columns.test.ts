/** Columns set closer than a word space, and the word spaces that only happen to line up. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { drawTable } from '../../../scripts/layout-draw.js';
import { grid, layouts } from './helpers.js';

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

  it('figures a word space apart beside the end of a header group over some of them are two columns', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    drawTable(doc.addPage([595.28, 841.89]), font, {
      header: [[{ text: '' }, { text: 'Employment 2010', span: 3 }, { text: '' }, { text: '' }], ['Date', 'Change', 'Units', 'Rate', 'Share', 'Growth'].map((text) => ({ text }))],
      body: [['2026-06-28', '319.9', '-158.80', '64.7%', '28.7%', '32.7%'], ['2023-02-06', '1,264.87', '28.05', '2.9%', '57.8%', '51.7%'], ['2024-11-12', '822.1', '690.7', '46.1%', '57.0%', '52.1%'], ['2016-03-26', '999.92', '111.4', '18.9%', '97.8%', '22.8%'], ['2019-01-02', '12.5', '7.25', '3.3%', '1.0%', '9.9%']],
      align: ['l', 'r', 'r', 'r', 'r', 'r'], size: 9, gap: 4, rules: 'none',
    }, 60, 100);
    const [page] = await layouts(await doc.save());
    // The group's heading ends over "Rate": only the header under it has text on both sides of the Rate | Share gutter.
    expect(grid(detectTables(page)[0]).slice(1, 3)).toEqual([['Date', 'Change', 'Units', 'Rate', 'Share', 'Growth'], ['2026-06-28', '319.9', '-158.80', '64.7%', '28.7%', '32.7%']]);
  });
});

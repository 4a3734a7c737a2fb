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
  it('a ruled grid framing a chart is the chart, not a table, and claims its labels', () => {
    // The frame and three grid lines of a chart around the same labels: a lattice without figures.
    const ruled: PageLayout = {
      ...page,
      rulings: [
        { x0: 80, y0: 90, x1: 600, y1: 90 }, { x0: 80, y0: 150, x1: 600, y1: 150 }, { x0: 80, y0: 210, x1: 600, y1: 210 }, { x0: 80, y0: 250, x1: 600, y1: 250 },
        { x0: 80, y0: 90, x1: 80, y1: 250 }, { x0: 280, y0: 90, x1: 280, y1: 250 }, { x0: 480, y0: 90, x1: 480, y1: 250 }, { x0: 600, y0: 90, x1: 600, y1: 250 },
      ],
    };
    expect(detectTables(ruled)).toHaveLength(1);
    // Curves over a fifth of the frame: no table, and no stream table from its labels either.
    expect(detectTables({ ...ruled, figures: [[300, 100, 550, 200]] })).toHaveLength(0);
    // A small mark inside a ruled table leaves it alone.
    expect(detectTables({ ...ruled, figures: [[300, 100, 340, 120]] })).toHaveLength(1);
  });
  it('a ruled grid full of figures stays a table when the figure finder takes its frame for a drawing', () => {
    // Nine rows of four columns, every cell a number: what a page image's double-ruled frame
    // left after the rules were erased made one figure over the whole grid.
    const cells: Word[] = [];
    for (let r = 0; r < 9; r++) {
      for (let c = 0; c < 4; c++) {
        const text = c === 0 ? `${2010 + r}` : `${(r * 7 + c * 3) % 50}.${c}0`;
        cells.push({ text, x0: 110 + c * 120, y0: 105 + r * 30, x1: 170 + c * 120, y1: 121 + r * 30, size: 16, confidence: 0.9 });
      }
    }
    const rulings = [
      ...Array.from({ length: 10 }, (_, r) => ({ x0: 100, y0: 100 + r * 30, x1: 580, y1: 100 + r * 30 })),
      ...Array.from({ length: 5 }, (_, c) => ({ x0: 100 + c * 120, y0: 100, x1: 100 + c * 120, y1: 370 })),
    ];
    const grid: PageLayout = { ...page, words: cells, rulings, figures: [[95, 95, 585, 375]] };
    const [t] = detectTables(grid);
    expect(t?.n_rows).toBe(9);
    expect(t?.n_cols).toBe(4);
    // A form of words as dense, not figures, is a table too.
    const form = cells.map((w, i) => ({ ...w, text: i % 4 === 0 ? 'Repurchased' : 'cancelled' }));
    expect(detectTables({ ...grid, words: form })).toHaveLength(1);
  });
});

describe('chart marks read as text', () => {
  // Six chart panels in a ruled grid (frames the figure finder did not see: flat curves erased as
  // rules): each holds its title and a tick mark or curve read as a word.
  const panels: Word[] = [];
  const rulings = [
    ...[100, 300, 500].map((y) => ({ x0: 100, y0: y, x1: 1000, y1: y })),
    ...[100, 400, 700, 1000].map((x) => ({ x0: x, y0: 100, x1: x, y1: 500 })),
  ];
  ['Austria', 'Belgium', 'Denmark', 'Estonia', 'France', 'Ireland'].forEach((name, i) => {
    const x = 100 + 300 * (i % 3), y = 100 + 200 * Math.floor(i / 3);
    panels.push({ text: name, x0: x + 110, y0: y + 10, x1: x + 190, y1: y + 30, size: 20, confidence: 0.96 });
    panels.push({ text: ['I', 'Wl', 'ee'][i % 3], x0: x + 20, y0: y + 100, x1: x + 34, y1: y + 120, size: 20, confidence: 0.3 });
  });
  const charts: PageLayout = { ...page, words: panels, rulings };
  it('sparse words in a large ruled box, many read unsure and hardly a number, are a chart\'s', () => {
    expect(detectTables(charts)).toHaveLength(0);
  });
  it('the same grid read surely, or holding figures, is a table', () => {
    expect(detectTables({ ...charts, words: panels.map((w) => ({ ...w, confidence: 0.95 })) })).toHaveLength(1);
    expect(detectTables({ ...charts, words: panels.map((w) => (w.confidence! < 0.5 ? { ...w, text: '12.5' } : w)) })).toHaveLength(1);
  });
});

describe('framed boxes side by side', () => {
  // Two charts in frames a gutter apart (eu-009a at 200 dpi): their titles and legends line up
  // like three rows of a whitespace table across both.
  const words: Word[] = [];
  const rows = [['Relevance', 'Direct', 'Relevance', 'Horizontal'], ['Excellent', 'Satisfactory', 'Excellent', 'Satisfactory'], ['Partly', 'Unsatisfactory', 'Partly', 'Unsatisfactory'], ['Unrated', 'Rated', 'Unrated', 'Rated']];
  rows.forEach((row, r) => row.forEach((text, c) => words.push({ text, x0: 150 + 260 * c + (c >= 2 ? 60 : 0), y0: 250 + 40 * r, x1: 150 + 260 * c + (c >= 2 ? 60 : 0) + 14 * text.length, y1: 275 + 40 * r, size: 30, confidence: 0.95 })));
  const frame = (x0: number, x1: number) => [{ x0, y0: 210, x1: x0, y1: 450 }, { x0: x1, y0: 210, x1, y1: 450 }];
  const boxes: PageLayout = { ...page, width: 1400, words, rulings: [...frame(120, 660), ...frame(683, 1230)], unitsPerPoint: 2.778 };
  it('a whitespace table running across the facing sides of two frames is the frames\' contents', () => {
    expect(detectTables(boxes)).toHaveLength(0);
  });
  it('so is one running across two columns of boxes stacked a few points apart (seller and buyer boxes)', () => {
    // An invoice's head: boxes in two columns, each column's frames broken between its boxes.
    const stacked = (x0: number, x1: number) => [[210, 290], [298, 370], [378, 450]].flatMap(([y0, y1]) => [{ x0, y0, x1: x0, y1 }, { x0: x1, y0, x1, y1 }]);
    expect(detectTables({ ...boxes, rulings: [...stacked(120, 660), ...stacked(683, 1230)] })).toHaveLength(0);
    // Frames down only part of the table's height leave it alone.
    expect(detectTables({ ...boxes, rulings: [...stacked(120, 660).slice(0, 2), ...stacked(683, 1230).slice(0, 2)] })).toHaveLength(1);
  });
  it('one rule after a column, or a double rule, leaves the table alone', () => {
    expect(detectTables({ ...boxes, rulings: [{ x0: 670, y0: 210, x1: 670, y1: 450 }] })).toHaveLength(1);
    expect(detectTables({ ...boxes, rulings: [{ x0: 668, y0: 210, x1: 668, y1: 450 }, { x0: 674, y0: 210, x1: 674, y1: 450 }] })).toHaveLength(1);
  });
});

describe('captions', () => {
  const at = (text: string, x: number, y: number): Word => ({ text, x0: x, y0: y, x1: x + 8 * text.length, y1: y + 16, size: 16, confidence: 0.95 });
  const captioned = (label: string): PageLayout => ({
    ...page,
    words: [at(label.split(' ')[0], 100, 70), at(label.split(' ')[1], 104 + 8 * label.split(' ')[0].length, 70), at('Values', 300, 70), at('by', 360, 70), at('year', 390, 70), ...words],
  });
  it('a table caption set apart from its title is not a row of the table', () => {
    const [t] = detectTables(captioned('Table 3:'));
    expect(t.cells.map((c) => c.text)).not.toContain('Table 3:');
    expect(t.cells.map((c) => c.text)).toContain('Country');
  });
  it('the lines under a figure caption are the figure\'s labels', () => {
    expect(detectTables(captioned('Figure 6:'))).toHaveLength(0);
    expect(detectTables(captioned('Abbildung 2'))).toHaveLength(0);
  });
  it('an annex\'s captions number with letters ("Figure CA2b.", "Table B.1"), and OCR reads a colon as ";"', () => {
    expect(detectTables(captioned('Figure CA2b.'))).toHaveLength(0);
    expect(detectTables(captioned('Figure 3.110;'))).toHaveLength(0);
    const [t] = detectTables(captioned('Table B.1'));
    expect(t.cells.map((c) => c.text)).not.toContain('Table B.1');
    // A word after the label is no number: "Chart in 2005" is a row like any other.
    expect(detectTables(captioned('Chart in'))).toHaveLength(1);
  });
  it('the lines right under a figure caption long enough to be prose are the figure\'s', () => {
    // "Figure 6:   Simplified chart of the flows of funding, by source (training provided by" /
    // "federations of municipalities)" over the boxes of a flow chart, read as aligned lines.
    const phrase = (text: string, x: number, y: number) => text.split(' ').map((t, i, all) => at(t, x + all.slice(0, i).reduce((n, p) => n + 8 * p.length + 6, 0), y));
    const caption = [at('Figure', 100, 40), at('6:', 156, 40), ...phrase('Simplified chart of the flows of funding, by source (training provided by', 200, 40), ...phrase('federations of municipalities)', 200, 60)];
    const layout = (above: Word[], gap: number): PageLayout => ({ ...page, words: [...above, ...words.map((w) => ({ ...w, y0: w.y0 - 20 + gap, y1: w.y1 - 20 + gap }))] });
    expect(detectTables(layout(caption, 0))).toHaveLength(0);
    // A caption of a figure above it, with the table standing well below: the table stays.
    expect(detectTables(layout(caption, 60))).toHaveLength(1);
    // A table's own caption right under the figure's: a table.
    const own = [at('Table', 100, 80), at('2:', 148, 80), at('Values', 300, 80), at('by', 360, 80), at('year', 390, 80)];
    expect(detectTables(layout([...caption, ...own], 20))).toHaveLength(1);
  });
  it('numbered headings with the number set apart are not a two-column table', () => {
    const heading = (n: string, title: string, y: number) => [at(n, 100, y), ...title.split(' ').map((t, i) => at(t, 180 + 70 * i, y))];
    const headings = [...heading('8.6', 'Products', 500), ...heading('8.6.1', 'Washing powders', 530)];
    expect(detectTables({ ...page, words: headings })).toHaveLength(0);
    // Numbered rows with figures beside are a table.
    const rows = [...heading('1', 'Apples 12', 500), ...heading('2', 'Pears 7', 530), ...heading('3', 'Plums 9', 560)];
    expect(detectTables({ ...page, words: rows })).toHaveLength(1);
  });
});

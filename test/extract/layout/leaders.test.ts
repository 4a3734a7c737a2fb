import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

const ocr = (text: string, x0: number, y0: number, x1: number, y1: number, confidence = 0.95): Word => ({ text, x0, y0, x1, y1, size: 14, confidence });

// Rows of a label, a dot leader and three figures, as OCR reads a page image: the leader's dots
// come back as flat "words" on the baseline (`ee`, `cece`, `62...`), or glued to the label.
const LABELS = ['Interest income', 'Interest expense', 'Other', 'Total'];
function page(): PageLayout {
  const words: Word[] = [];
  ['2004', '2005', '2006'].forEach((t, c) => words.push(ocr(t, 540 + c * 60, 80, 575 + c * 60, 92)));
  LABELS.forEach((label, r) => {
    const y = 110 + r * 20;
    let x = 90;
    const parts = label.split(' ');
    parts.forEach((p, i) => {
      const last = i === parts.length - 1;
      // The second row's leader starts glued to its label, the others stand apart.
      const text = last && r === 1 ? `${p}.......cecsce` : p;
      const w = last && r === 1 ? 480 - x : 8 * p.length;
      words.push(ocr(text, x, y, x + w, y + 12));
      x += w + 5;
    });
    if (r !== 1) {
      // Leader junk from x to 500: flat boxes 2 px high on the baseline, read with no confidence.
      const junk = [['62...', 30], ['ee', 14], ['cece', 40], ['eeeeneseeeeece', 90]] as const;
      for (let k = 0; x + 10 + junk[k % 4][1] <= 500; k++) {
        const [t, w] = junk[k % 4];
        words.push(ocr(t, x + 10, y + 10, x + 10 + w, y + 12, 0.1));
        x += w + 10;
      }
    }
    [15996 + r, 121038 + r, 412063 + r].forEach((n, c) => words.push(ocr(n.toLocaleString('en-US'), 530 + c * 60, y, 575 + c * 60, y + 12)));
  });
  return { page: 1, width: 800, height: 600, words, rulings: [] };
}

describe('dot leaders read by OCR', () => {
  it('are no cells and no columns: the label\'s box reaches over its leader', () => {
    const [t] = detectTables(page());
    expect(grid(t)).toEqual([
      ['', '2004', '2005', '2006'],
      ['Interest income', '15,996', '121,038', '412,063'],
      ['Interest expense', '15,997', '121,039', '412,064'],
      ['Other', '15,998', '121,040', '412,065'],
      ['Total', '15,999', '121,041', '412,066'],
    ]);
    // The label cell covers the leader's dots, up to the figures' column.
    const other = t.cells.find((c) => c.text === 'Other')!;
    expect(other.bbox[2]).toBeGreaterThan(400);
    const glued = t.cells.find((c) => c.text === 'Interest expense')!;
    expect(glued.bbox[2]).toBeGreaterThan(400);
  });

  it('keeps a flat dash, which stands for a figure', () => {
    const p = page();
    // The first row's last figure is a dash: flat too, but no letter or digit.
    const i = p.words.findIndex((w) => w.text === '412,063');
    p.words[i] = { ...p.words[i], text: '-', x0: 660, x1: 668, y0: 115, y1: 117 };
    const [t] = detectTables(p);
    expect(grid(t)[1]).toEqual(['Interest income', '15,996', '121,038', '-']);
  });
});

/**
 * The agreement measure's scoring (scripts/agreement.ts): the PDF path's tables are the answer
 * key; a relation missed is a reading miss when a word of its cells was not read on the page.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreDocs, summarize, type AgreementDoc } from '../../scripts/agreement.js';

/** A table of rows of cell texts on `page`, one cell per position. */
function table(page: number, rows: string[][]) {
  return { page, cells: rows.flatMap((r, row) => r.map((text, col) => ({ row, col, row_span: 1, col_span: 1, text }))) };
}

const truth = [
  ['Region', 'Sales 2024', 'Sales 2025'],
  ['North', '1,204', '1,310'],
  ['South', '987', '1,002'],
];

function run(image: object | null): ReturnType<typeof scoreDocs>[number] {
  const out = mkdtempSync(join(tmpdir(), 'agreement-test-'));
  for (const d of ['pdf', '200']) mkdirSync(join(out, d));
  writeFileSync(join(out, 'pdf', 'report.json'), JSON.stringify({ tables: [table(1, truth)] }));
  if (image) writeFileSync(join(out, '200', 'report.json'), JSON.stringify(image));
  const doc: AgreementDoc = { name: 'report', pdf: 'report.pdf', group: 'made' };
  return scoreDocs([doc], out, 200)[0];
}

const words = (rows: string[][]) => rows.flat().join(' ').split(' ');

describe('agreement of the image path with the PDF path', () => {
  it('the same tables agree fully', () => {
    const s = run({ tables: [table(1, truth)], page_words: [words(truth)] });
    expect(s.f1).toBe(1);
    expect(s.counts).toMatchObject({ truth: 12, hit: 12, reading: 0, layout: 0, cells: 9, cellsRead: 9 });
  });

  it('a misread cell is a reading miss, words read but put elsewhere a layout miss', () => {
    const misread = truth.map((r) => r.map((t) => (t === '987' ? '98?' : t)));
    // "1,310" read, but the image path set it a column to the left, over an empty cell.
    const moved = [...misread.slice(0, 1), ['North', '1,204 1,310', ''], misread[2]];
    const s = run({ tables: [table(1, moved)], page_words: [words(misread)] });
    // Lost: South–987, 987–1,002, 1,204–987 (reading); North–1,204, 1,204–1,310, Sales 2024–1,204, Sales 2025–1,310, 1,310–1,002 (layout).
    expect(s.counts.reading).toBe(3);
    expect(s.counts.layout).toBe(5);
    expect(s.counts.cellsRead).toBe(8);
    expect(s.f1).toBeLessThan(0.5);
  });

  it('a document the image path gave no result for is no agreement, and below the target', () => {
    expect(run(null).f1).toBe(0);
    const s = summarize([run(null), run({ tables: [table(1, truth)], page_words: [words(truth)] })], 200);
    expect(s).toMatchObject({ documents: 2, below: 1, min: 0 });
  });
});

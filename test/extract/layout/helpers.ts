/** Layouts of real PDFs (generated or ICDAR) for the layout tests, and a grid view of tables. */
import { readFileSync } from 'node:fs';
import type { PageLayout, Table, Word } from '../../../src/extract/types.js';
import { openPdf } from '../../../src/extract/pdf/load.js';
import { textLayout } from '../../../src/extract/pdf/page.js';
import { ICDAR_DIR } from '../../paths.js';

export const ICDAR = ICDAR_DIR;

/** Text-layer layouts of every page of `bytes` (or of the ICDAR file `name`). */
export async function layouts(bytes: Uint8Array | string): Promise<PageLayout[]> {
  const doc = await openPdf(typeof bytes === 'string' ? readFileSync(`${ICDAR}/${bytes}.pdf`) : bytes);
  const out: PageLayout[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const l = await textLayout(await doc.getPage(n), n);
    if (l) out.push(l);
  }
  await doc.destroy();
  return out;
}

/** The table as rows of cell texts (spanned positions repeat the text; newlines become spaces). */
export function grid(t: Table): string[][] {
  const rows = Array.from({ length: t.n_rows }, () => new Array<string>(t.n_cols).fill(''));
  for (const c of t.cells) {
    for (let r = c.row; r < c.row + c.row_span; r++) for (let k = c.col; k < c.col + c.col_span; k++) rows[r][k] = c.text.replace(/\n/g, ' ');
  }
  return rows;
}

/** OCR'd words of a line: each piece [text, x] set from x, 7 a letter, with word spaces of 4 (about 0.3 em at size 13). */
export function line(y: number, pieces: [string, number][]): Word[] {
  return pieces.flatMap(([text, x0]) => {
    let x = x0;
    return text.split(' ').map((t) => {
      const w = { text: t, x0: x, y0: y, x1: x + 7 * t.length, y1: y + 11, size: 13, confidence: 0.95 };
      x = w.x1 + 4;
      return w;
    });
  });
}

/** Layouts of real PDFs (generated or ICDAR) for the layout tests, and a grid view of tables. */
import { readFileSync } from 'node:fs';
import type { PageLayout, Table } from '../../../src/extract/types.js';
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

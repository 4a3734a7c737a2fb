/**
 * Invoice PDFs drawn here with pdf-lib for the line-item tests: a few head lines, an item table of
 * the given columns (ruled or whitespace-aligned, cells of one line or several), label–amount
 * lines right-aligned under its last columns, and small print at the foot. Helvetica, 9 pt, A4.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

export interface InvoiceColumn {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

export interface InvoiceLayout {
  head?: string[];
  columns: InvoiceColumn[];
  /** Item rows, one text per column; `\n` breaks a cell into lines. */
  rows: string[][];
  /** Lines under the table: a label right-aligned before the last column, its amount in it. */
  below?: [string, string][];
  ruled?: boolean;
  foot?: string[];
}

const H = 841.89;
const LEFT = 40;
const SIZE = 9;
const LINE = 11;
const PAD = 4;

function put(page: PDFPage, font: PDFFont, text: string, x: number, top: number, size = SIZE): void {
  if (text) page.drawText(text, { x, y: H - top - size * 0.8, size, font, color: rgb(0, 0, 0) });
}

function rule(page: PDFPage, x0: number, y0: number, x1: number, y1: number): void {
  page.drawLine({ start: { x: x0, y: H - y0 }, end: { x: x1, y: H - y1 }, thickness: 0.5 });
}

/** The PDF of `layout`, one page. */
export async function invoicePdf(layout: InvoiceLayout): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595.28, H]);
  let y = 50;
  for (const [i, line] of (layout.head ?? []).entries()) {
    put(page, i === 0 ? bold : font, line, LEFT, y, i === 0 ? 13 : 10);
    y += i === 0 ? 20 : 14;
  }
  y += 16;
  const edges = [LEFT];
  for (const c of layout.columns) edges.push(edges[edges.length - 1]! + c.width);
  const right = edges[edges.length - 1]!;
  const drawRow = (cells: string[], f: PDFFont): void => {
    const lines = cells.map((t) => t.split('\n'));
    const height = Math.max(...lines.map((l) => l.length)) * LINE + 2 * PAD;
    lines.forEach((ls, c) =>
      ls.forEach((t, li) => {
        const col = layout.columns[c]!;
        const x = col.align === 'right' ? edges[c + 1]! - PAD - f.widthOfTextAtSize(t, SIZE) : edges[c]! + PAD;
        put(page, f, t, x, y + PAD + li * LINE);
      }),
    );
    y += height;
    if (layout.ruled) rule(page, LEFT, y, right, y);
  };
  const top = y;
  if (layout.ruled) rule(page, LEFT, y, right, y);
  drawRow(
    layout.columns.map((c) => c.header),
    bold,
  );
  for (const row of layout.rows) drawRow(row, font);
  if (layout.ruled) for (const x of edges) rule(page, x, top, x, y);
  y += 10;
  const labelRight = edges[edges.length - 2]! - PAD;
  for (const [label, value] of layout.below ?? []) {
    put(page, font, label, labelRight - font.widthOfTextAtSize(label, SIZE), y);
    put(page, font, value, right - PAD - font.widthOfTextAtSize(value, SIZE), y);
    y += 15;
  }
  y += 20;
  for (const line of layout.foot ?? []) {
    put(page, font, line, LEFT, y, 8);
    y += 11;
  }
  return doc.save();
}

/**
 * Writes the golden invoice fixtures: test/fixtures/invoices/*.pdf and manifest.json (the item
 * table's expected cell texts, the expected line items and totals), from the specs in
 * test/fixtures/invoices/{invoices,multipage,statements}.ts. Run: `node bin/run-ts.js scripts/make-fixtures.ts`.
 * The PDFs are committed, so neither CI nor tests need the fonts this uses (Debian
 * fonts-ipafont-gothic for Japanese, fonts-dejavu-core for U+202F); fonts are embedded as subsets.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { expected, specs } from '../test/fixtures/invoices/expected.js';
import { isNum, type CellSpec, type FixtureSpec, type SummarySpec } from '../test/fixtures/invoices/spec.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test/fixtures/invoices');
const FONTS = {
  dejavu: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  ipagothic: '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf',
};

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const LEFT = 50;
const SIZE = 9;
const LINE = 11;
const PAD_X = 4;
const PAD_Y = 5;
const TABLE_TOP = 170;
const PAGE2_TOP = 60;

/** Draws `text` with its top-left corner at (x, top) in top-left page coordinates. */
function put(page: PDFPage, font: PDFFont, text: string, x: number, top: number, size = SIZE): void {
  if (text) page.drawText(text, { x, y: PAGE_H - top - size * 0.8, size, font, color: rgb(0, 0, 0) });
}

function putRight(page: PDFPage, font: PDFFont, text: string, right: number, top: number, size = SIZE): void {
  put(page, font, text, right - font.widthOfTextAtSize(text, size), top, size);
}

function hline(page: PDFPage, x0: number, x1: number, top: number): void {
  page.drawLine({ start: { x: x0, y: PAGE_H - top }, end: { x: x1, y: PAGE_H - top }, thickness: 0.6 });
}

function vline(page: PDFPage, x: number, top: number, bottom: number): void {
  page.drawLine({ start: { x, y: PAGE_H - top }, end: { x, y: PAGE_H - bottom }, thickness: 0.6 });
}

const linesOf = (c: CellSpec): string[] => (isNum(c) ? [c.text] : Array.isArray(c) ? c : [c]);

/** Draws rows of cells from `top`; returns the y below the last row. */
function drawRows(page: PDFPage, font: PDFFont, bold: PDFFont, spec: FixtureSpec, rows: CellSpec[][], top: number, headerRows: number): number {
  const edges = [LEFT];
  for (const c of spec.columns) edges.push(edges[edges.length - 1]! + c.width);
  const right = edges[edges.length - 1]!;
  let y = top;
  if (spec.ruled) hline(page, LEFT, right, y);
  rows.forEach((row, ri) => {
    const isHeader = ri < headerRows;
    const height = Math.max(...row.map((c) => linesOf(c).length)) * LINE + 2 * PAD_Y - (LINE - SIZE);
    row.forEach((cell, ci) => {
      const col = spec.columns[ci]!;
      linesOf(cell).forEach((text, li) => {
        const f = isHeader ? bold : font;
        const t = y + PAD_Y + li * LINE;
        if (col.align === 'right') putRight(page, f, text, edges[ci + 1]! - PAD_X, t);
        else put(page, f, text, edges[ci]! + PAD_X, t);
      });
    });
    y += height;
    if (spec.ruled) hline(page, LEFT, right, y);
  });
  if (spec.ruled) for (const x of edges) vline(page, x, top, y);
  return y;
}

/** Summary rows inside the grid: the label spans every column but the last (no inner rules there). */
function drawGridSummary(page: PDFPage, font: PDFFont, spec: FixtureSpec, lines: SummarySpec[], top: number): number {
  const right = LEFT + spec.columns.reduce((s, c) => s + c.width, 0);
  const split = right - spec.columns[spec.columns.length - 1]!.width;
  const height = 2 * PAD_Y + SIZE;
  let y = top;
  for (const l of lines) {
    putRight(page, font, l.label, split - PAD_X, y + PAD_Y);
    putRight(page, font, l.value.text, right - PAD_X, y + PAD_Y);
    y += height;
    hline(page, LEFT, right, y);
  }
  for (const x of [LEFT, split, right]) vline(page, x, top, y);
  return y;
}

/** Lines of small print from `top`, at the left margin; returns the y below them. */
function drawFoot(page: PDFPage, font: PDFFont, lines: string[], top: number): number {
  let y = top + 14;
  for (const l of lines) {
    put(page, font, l, LEFT, y, 8);
    y += 12;
  }
  return y;
}

/** Summary lines right-aligned under the last two columns, below the table. */
function drawSummary(page: PDFPage, font: PDFFont, spec: FixtureSpec, lines: SummarySpec[], top: number): number {
  const right = LEFT + spec.columns.reduce((s, c) => s + c.width, 0) - PAD_X;
  const labelRight = right - spec.columns[spec.columns.length - 1]!.width;
  let y = top + 10;
  for (const l of lines) {
    putRight(page, font, l.label, labelRight, y);
    putRight(page, font, l.value.text, right, y);
    y += 16;
  }
  return y;
}

async function fonts(doc: PDFDocument, spec: FixtureSpec): Promise<[PDFFont, PDFFont]> {
  if (spec.font === 'helvetica') return [await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold)];
  doc.registerFontkit(fontkit);
  const f = await doc.embedFont(await readFile(FONTS[spec.font]), { subset: true });
  return [f, f];
}

/** Writes one fixture's PDF. */
async function render(spec: FixtureSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // A fixed date keeps the committed bytes stable from run to run.
  const fixed = new Date('2026-12-01T00:00:00Z');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  doc.setProducer('tablemill make-fixtures');
  doc.setTitle(spec.title);
  const [font, bold] = await fonts(doc, spec);
  const header = spec.columns.some((c) => (Array.isArray(c.header) ? c.header.length : c.header))
    ? spec.columns.map((c) => c.header as CellSpec)
    : null;
  for (let p = 0; p < spec.pages.length; p++) {
    const page = doc.addPage([PAGE_W, PAGE_H]);
    let y = PAGE2_TOP;
    if (p === 0) {
      put(page, bold, spec.head[0]!, LEFT, 50, 14);
      if (spec.address) put(page, font, spec.address, LEFT, 67, 8);
      spec.head.slice(1).forEach((line, i) => put(page, font, line, LEFT, 80 + i * 14, 10));
      y = TABLE_TOP;
    }
    const rows = [...spec.pages[p]!];
    const withHeader = header !== null && (p === 0 || spec.repeatHeader);
    if (withHeader) rows.unshift(header);
    y = drawRows(page, font, bold, spec, rows, y, withHeader ? 1 : 0);
    const carry = spec.carry?.[p];
    if (carry) drawSummary(page, font, spec, [carry], y);
    if (p === spec.pages.length - 1) {
      const end = spec.summaryInGrid ? drawGridSummary(page, font, spec, spec.summary, y) : drawSummary(page, font, spec, spec.summary, y);
      if (spec.foot) drawFoot(page, font, spec.foot, end);
    }
    if (spec.footer) put(page, font, spec.footer(p + 1, spec.pages.length), LEFT, PAGE_H - 40, 8);
  }
  return doc.save({ useObjectStreams: false });
}

await mkdir(OUT, { recursive: true });
const manifest = [];
for (const spec of specs) {
  const bytes = await render(spec);
  await writeFile(join(OUT, spec.file), bytes);
  manifest.push(expected(spec));
  console.log(`${spec.file}\t${bytes.length} bytes`);
}
await writeFile(join(OUT, 'manifest.json'), JSON.stringify({ fixtures: manifest }, null, 2) + '\n');
console.log(`manifest.json\t${manifest.length} fixtures`);

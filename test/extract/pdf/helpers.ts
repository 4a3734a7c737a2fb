/** Small real PDFs for the engine tests, drawn with pdf-lib; and page loading through pdf.js. */
import { PDFDocument, StandardFonts, degrees, type PDFPage, type PDFFont } from 'pdf-lib';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf } from '../../../src/extract/pdf/load.js';

/** One page of `width`×`height` points, drawn by `draw`; `rotate` sets /Rotate. */
export async function makePdf(draw: (page: PDFPage, font: PDFFont) => void, opts: { width?: number; height?: number; rotate?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([opts.width ?? 400, opts.height ?? 400]);
  if (opts.rotate) page.setRotation(degrees(opts.rotate));
  draw(page, font);
  return doc.save();
}

/** Page 1 (or `n`) of `bytes` through pdf.js. */
export async function firstPage(bytes: Uint8Array, n = 1): Promise<PDFPageProxy> {
  const doc = await openPdf(bytes);
  return doc.getPage(n);
}

/** Draws `rows` as a grid of text starting at (x, top) in PDF coordinates (y up). */
export function drawRows(page: PDFPage, font: PDFFont, rows: string[][], colX: number[], top: number, pitch: number, size = 10): void {
  rows.forEach((row, r) => row.forEach((text, c) => {
    if (text) page.drawText(text, { x: colX[c], y: top - r * pitch, size, font });
  }));
}

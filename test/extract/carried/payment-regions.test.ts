// Payment QR codes found where a PDF page draws them (carried/qr-regions.ts): a code image beside a
// ruled table, and a code drawn as vector modules (one filled rectangle a module, as pdf-lib
// draws them), both made here with the qrcode package and pdf-lib; a page of text and rules alone
// has no region to paint.
import { PDFDocument, rgb } from 'pdf-lib';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { codeRegions } from '../../../src/extract/carried/qr-regions.js';
import { extractDocument } from '../../../src/extract/index.js';
import { openPdf } from '../../../src/extract/pdf/load.js';
import type { BBox, ExtractResult } from '../../../src/extract/types.js';
import { INVOICE_A, invoicePdf, sums } from './einvoice.js';

const GIRO = ['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Nordlicht Werkzeuge GmbH', INVOICE_A.iban, `EUR${sums(INVOICE_A).gross.toFixed(2)}`, '', '', 'INV-1001', ''].join('\n');

/** Invoice A with its item table ruled: a grid of 0.8 pt lines round the header and item rows, shaded header. */
async function ruledInvoice(): Promise<PDFDocument> {
  const doc = await PDFDocument.load(await invoicePdf(INVOICE_A));
  const page = doc.getPage(0);
  const xs = [45, 295, 375, 475, 550];
  const ys = [620, 600, 582, 564, 546];
  page.drawRectangle({ x: xs[0]!, y: ys[1]!, width: xs[4]! - xs[0]!, height: ys[0]! - ys[1]!, color: rgb(0.85, 0.85, 0.85), opacity: 0.3 });
  for (const x of xs) page.drawLine({ start: { x, y: ys[0]! }, end: { x, y: ys[ys.length - 1]! }, thickness: 0.8 });
  for (const y of ys) page.drawLine({ start: { x: xs[0]!, y }, end: { x: xs[xs.length - 1]!, y }, thickness: 0.8 });
  return doc;
}

/** Pages' regions of `pdf` to paint for codes. */
async function regionsOf(pdf: Uint8Array): Promise<BBox[][]> {
  const doc = await openPdf(pdf);
  try {
    const out: BBox[][] = [];
    for (let n = 1; n <= doc.numPages; n++) out.push(await codeRegions(await doc.getPage(n)));
    return out;
  } finally {
    await doc.destroy();
  }
}

/** True when `outer` holds `inner`. */
const holds = (outer: BBox, inner: BBox) => outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

/** The code's IBAN and amount read from page 1, its box where it is drawn (420–540 pt across, 662–782 pt down). */
function expectCodeRead(r: ExtractResult): void {
  expect(r.fields.iban).toMatchObject({ value: INVOICE_A.iban, source: 'barcode', page: 1 });
  expect(r.fields.amount_due).toMatchObject({ value: 119, source: 'barcode' });
  const [x0, y0, x1, y1] = r.fields.iban!.bbox;
  expect(x0).toBeGreaterThan(415);
  expect(x1).toBeLessThan(545);
  expect(y0).toBeGreaterThan(655);
  expect(y1).toBeLessThan(790);
}

describe('payment code regions', () => {
  it('paints nothing on a page of text and a ruled table', async () => {
    const pdf = await (await ruledInvoice()).save();
    expect(await regionsOf(pdf)).toEqual([[]]);
    const r = await extractDocument(pdf);
    expect(r.fields.iban?.source).not.toBe('barcode');
  });

  it('reads a GiroCode image on a page with a ruled table', async () => {
    const doc = await ruledInvoice();
    const png = await doc.embedPng(await QRCode.toBuffer(GIRO, { errorCorrectionLevel: 'M', margin: 4, scale: 4 }));
    doc.getPage(0).drawImage(png, { x: 420, y: 60, width: 120, height: 120 });
    const pdf = await doc.save();
    // Only the code's square (420–540 pt across, 662–782 pt down), with its margin.
    const [regions] = await regionsOf(pdf);
    expect(regions).toHaveLength(1);
    expect(holds(regions![0]!, [420, 662, 540, 782])).toBe(true);
    expect(regions![0]![2] - regions![0]![0]).toBeLessThan(150);
    const r = await extractDocument(pdf);
    expectCodeRead(r);
    expect(r.warnings).toEqual([]);
  });

  it('reads a GiroCode drawn as vector modules beside a ruled table', async () => {
    const doc = await ruledInvoice();
    const page = doc.getPage(0);
    const { modules } = QRCode.create(GIRO, { errorCorrectionLevel: 'M' });
    const side = 120;
    const m = side / modules.size;
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (modules.get(row, col)) page.drawRectangle({ x: 420 + col * m, y: 60 + side - (row + 1) * m, width: m, height: m, color: rgb(0, 0, 0) });
      }
    }
    const pdf = await doc.save();
    const [regions] = await regionsOf(pdf);
    expect(regions).toHaveLength(1);
    expect(holds(regions![0]!, [421, 663, 539, 781])).toBe(true);
    const r = await extractDocument(pdf);
    expectCodeRead(r);
  });
});

// Payment QR codes (API.md §4c): EPC069-12 "GiroCode" and Swiss QR-bill codes made with the
// qrcode package, on a rendered PDF page and on a photographed page image (rotated, blurred,
// sheared with sharp), read into iban, amount_due and the beneficiary with source "barcode".
import { createCanvas, loadImage } from '@napi-rs/canvas';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { hasFinderPatterns, parsePaymentCode } from '../../../src/extract/carried/payment.js';
import { extractDocument } from '../../../src/extract/index.js';
import { INVOICE_A, invoicePdf, sums } from './einvoice.js';

const epc = (amount: string, iban = INVOICE_A.iban) => ['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Nordlicht Werkzeuge GmbH', iban, `EUR${amount}`, '', '', 'INV-1001', ''].join('\n');
const SWISS = ['SPC', '0200', '1', 'CH4431999123000889012', 'S', 'Robert Schneider AG', 'Rue du Lac', '1268', '2501', 'Biel', 'CH', '', '', '', '', '', '', '', '1949.75', 'CHF', 'S', 'Pia-Maria Rutschmann-Schnyder', 'Grosse Marktgasse', '28', '9400', 'Rorschach', 'CH', 'QRR', '210000000003139471430009017', 'Order of 15 June 2020', 'EPD'].join('\n');

/** The printed invoice A with a QR code of `text` drawn on its page, lower right. */
async function pdfWithCode(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await invoicePdf(INVOICE_A));
  const png = await doc.embedPng(await QRCode.toBuffer(text, { errorCorrectionLevel: 'M', margin: 4, scale: 4 }));
  doc.getPage(0).drawImage(png, { x: 420, y: 60, width: 120, height: 120 });
  return doc.save();
}

/** A white canvas with black `size` px text lines from (x, y), `step` apart. */
function textPage(w: number, h: number, lines: string[], size: number, x: number, y: number, step: number) {
  const canvas = createCanvas(w, h);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, w, h);
  g.fillStyle = '#000';
  g.font = `${size}px sans-serif`;
  lines.forEach((t, i) => g.fillText(t, x, y + i * step));
  return { canvas, g };
}

/** A payment slip drawn at 150 dpi (1240 × 877 px), then photographed: turned 4°, blurred, sheared. */
async function photographedSlip(code: string): Promise<Buffer> {
  const lines = ['Receipt / Payment part', 'Account / Payable to', 'CH44 3199 9123 0008 8901 2', 'Robert Schneider AG', 'Rue du Lac 1268, 2501 Biel', 'Currency  CHF', 'Amount  1 949.75'];
  const { canvas, g } = textPage(1240, 877, lines, 30, 60, 90, 60);
  g.drawImage(await loadImage(await QRCode.toBuffer(code, { errorCorrectionLevel: 'M', margin: 4, scale: 7 })), 760, 160);
  const page = canvas.toBuffer('image/png');
  return sharp(page)
    .rotate(4, { background: '#fff' })
    .affine([1, 0.06, 0.03, 1], { background: '#fff' })
    .blur(1.1)
    .modulate({ brightness: 0.92 })
    .jpeg({ quality: 80 })
    .toBuffer();
}

describe('payment codes', () => {
  it('parses EPC and Swiss QR-bill contents, and nothing else', () => {
    expect(parsePaymentCode(epc('119.00'))).toMatchObject({ kind: 'epc', iban: INVOICE_A.iban, amount: 119, currency: 'EUR', beneficiary: 'Nordlicht Werkzeuge GmbH', message: 'INV-1001' });
    expect(parsePaymentCode(SWISS)).toMatchObject({ kind: 'swiss', iban: 'CH4431999123000889012', amount: 1949.75, currency: 'CHF', beneficiary: 'Robert Schneider AG', reference: '210000000003139471430009017' });
    expect(parsePaymentCode('https://example.com/pay')).toBeNull();
    expect(parsePaymentCode(epc('119.00', 'DE00370400440532013000'))).toBeNull();
  });

  it('finds finder patterns on a code and none on text alone', async () => {
    const rgba = async (png: Buffer) => {
      const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return hasFinderPatterns(new Uint8ClampedArray(data), info.width, info.height);
    };
    expect(await rgba(await QRCode.toBuffer('BCD', { scale: 3 }))).toBe(true);
    const { canvas } = textPage(600, 200, ['Invoice INV-1001 Total 119.00 EUR'], 28, 20, 80, 0);
    expect(await rgba(canvas.toBuffer('image/png'))).toBe(false);
  });

  it('reads a GiroCode on a rendered PDF page, agreeing with the print', async () => {
    const r = await extractDocument(await pdfWithCode(epc(sums(INVOICE_A).gross.toFixed(2))));
    expect(r.fields.iban).toMatchObject({ value: INVOICE_A.iban, source: 'barcode', confidence: 1, page: 1 });
    expect(r.fields.amount_due).toMatchObject({ value: 119, source: 'barcode' });
    // The page names its vendor: the code's beneficiary does not replace it.
    expect(r.fields.vendor_name?.source ?? 'engine').toBe('engine');
    // The code's box, in points from the top: drawn at x 420–540, 662–782 pt down.
    const [x0, y0, x1, y1] = r.fields.iban!.bbox;
    expect(x0).toBeGreaterThan(415);
    expect(x1).toBeLessThan(545);
    expect(y0).toBeGreaterThan(655);
    expect(y1).toBeLessThan(790);
    expect(r.key_value_pairs.find((p) => p.source === 'barcode' && p.key.text === 'Remittance information')?.value.text).toBe('INV-1001');
    expect(r.warnings).toEqual([]);
  });

  it('warns barcode_mismatch when the code asks for another amount than the page prints', async () => {
    const r = await extractDocument(await pdfWithCode(epc('120.00')));
    expect(r.fields.amount_due).toMatchObject({ value: 120, source: 'barcode' });
    expect(r.warnings).toEqual([expect.objectContaining({ code: 'barcode_mismatch', field: 'amount_due', printed: expect.objectContaining({ page: 1 }) })]);
    expect(r.warnings![0]!.printed!.text).toContain('119.00');
  });

  it('reads a Swiss QR-bill on a photographed slip', async () => {
    const r = await extractDocument(await photographedSlip(SWISS));
    expect(r.fields.iban).toMatchObject({ value: 'CH4431999123000889012', source: 'barcode' });
    expect(r.fields.amount_due).toMatchObject({ value: 1949.75, source: 'barcode' });
    expect(r.key_value_pairs.find((p) => p.key.text === 'Payment reference')).toMatchObject({ source: 'barcode', value: { text: '210000000003139471430009017' } });
  });

  it('reads a GiroCode on a photographed page', async () => {
    const r = await extractDocument(await photographedSlip(epc('1949.75', 'DE89370400440532013000')));
    expect(r.fields.iban).toMatchObject({ value: 'DE89370400440532013000', source: 'barcode' });
    expect(r.fields.amount_due?.value).toBe(1949.75);
  });
});

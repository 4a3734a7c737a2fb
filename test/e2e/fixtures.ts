/**
 * Inputs for the service tests: real ICDAR 2013 PDFs from test/fixtures/, and fault files made from
 * real bytes at run time (a truncated PDF, a password-protected PDF, a large scanned page).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';
import { ICDAR_DIR } from '../paths.js';

export { ICDAR_DIR };

/** The bytes of `eu-NNN.pdf`. */
export function icdarPdf(name: string): Buffer {
  return readFileSync(join(ICDAR_DIR, `${name}.pdf`));
}

/** The first third of a real PDF: the header sniffs as PDF, the body is cut mid-object. */
export function truncatedPdf(): Buffer {
  const full = icdarPdf('eu-001');
  return full.subarray(0, Math.floor(full.length / 3));
}

/** A PDF with a standard-security /Encrypt dictionary whose user password is not empty. */
export async function encryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText('confidential', { x: 40, y: 100, size: 18, font });
  const ctx = doc.context;
  // Random O/U entries: the empty user password does not validate, so readers must ask for one.
  const encrypt = ctx.obj({ Filter: 'Standard', V: 1, R: 2, Length: 40, P: -44, O: PDFHexString.of('5a'.repeat(32)), U: PDFHexString.of('c3'.repeat(32)) });
  ctx.trailerInfo.Encrypt = ctx.register(encrypt);
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of('0123456789abcdef0123456789abcdef'), PDFHexString.of('0123456789abcdef0123456789abcdef')]);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/**
 * A photographed-page stand-in: a 2480×3508 PNG (A4 at 300 dpi) full of printed text lines, which
 * the engine must OCR — seconds of work, far above a 1 s time limit.
 */
export function scannedPagePng(): Buffer {
  const w = 2480;
  const h = 3508;
  const canvas = createCanvas(w, h);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, w, h);
  g.fillStyle = '#000';
  g.font = '44px sans-serif';
  for (let y = 120, i = 0; y < h - 100; y += 64, i++) g.fillText(`Item ${i}  Widget type ${(i * 37) % 101}  qty ${i % 9}  price ${(i * 3.17).toFixed(2)}  amount ${(i * 9.51).toFixed(2)}`, 100, y);
  return canvas.toBuffer('image/png');
}

/** A scanned 8-page PDF (page images, no text layer): OCR of every page takes tens of seconds. */
export async function scannedPdf(pages = 8): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(scannedPagePng());
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawImage(png, { x: 0, y: 0, width: 595, height: 842 });
  return Buffer.from(await doc.save());
}

/** Bytes that are no document at all (a ZIP header and text). */
export function notADocument(): Buffer {
  return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('this is not a document\n'.repeat(50))]);
}

/**
 * A one-page digital PDF with a small table; `n` makes its bytes unique. `padBytes` of
 * incompressible attachment make it that much larger without changing what is read.
 */
export async function smallPdf(n: number, padBytes = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  const rows = [['Item', 'Qty', 'Amount'], [`Part ${n}`, String((n % 7) + 1), `${n}.50`], ['Service', '2', '19.00']];
  rows.forEach((row, r) => row.forEach((text, c) => page.drawText(text, { x: 60 + c * 150, y: 760 - r * 22, size: 11, font })));
  if (padBytes > 0) await doc.attach(randomBytes(padBytes), 'pad.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save());
}

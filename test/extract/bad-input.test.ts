/**
 * Bad input gets the right processing_error code, quickly: empty, garbage, truncated, corrupt,
 * zero-page, encrypted and too-long PDFs, all made here from real bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractDocument, toProcessingError } from '../../src/extract/index.js';
import { ExtractError } from '../../src/extract/types.js';
import { ICDAR_DIR } from '../paths.js';

const ICDAR = ICDAR_DIR;

async function codeOf(bytes: Uint8Array, maxPages = 100): Promise<string> {
  try {
    await extractDocument(bytes, { maxPages });
  } catch (err) {
    expect(err).toBeInstanceOf(ExtractError);
    return (err as ExtractError).code;
  }
  return 'ok';
}

async function pdfWithPages(n: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < n; i++) doc.addPage([300, 300]).drawText(`page ${i + 1} of a test document`, { x: 20, y: 250, size: 12, font });
  // pdf-lib adds a blank page to a document without pages unless told not to.
  return doc.save({ addDefaultPage: false });
}

/** RC4, for the PDF standard security handler (revision 2, 40-bit); OpenSSL 3 hides it behind "legacy". */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');
const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);
const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/** A one-page PDF encrypted (ISO 32000-1 §7.6.3, algorithms 2–4) with user password "secret". */
function encryptedPdf(): Buffer {
  const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
  const O = rc4(md5(padded('owner')).subarray(0, 5), padded('secret'));
  const P = -4;
  const p = Buffer.alloc(4);
  p.writeInt32LE(P);
  const key = md5(padded('secret'), O, p, id).subarray(0, 5);
  const U = rc4(key, PAD);
  const objKey = (n: number) => md5(key, Buffer.from([n & 255, (n >> 8) & 255, 0, 0, 0])).subarray(0, 10);
  const stream = rc4(objKey(4), Buffer.from('BT /F1 12 Tf 20 250 Td (hidden text) Tj ET'));
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 4 0 R >>',
    null,
    `<< /Filter /Standard /V 1 /R 2 /O <${O.toString('hex')}> /U <${U.toString('hex')}> /P ${P} >>`,
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let len = chunks[0].length;
  objs.forEach((body, i) => {
    offsets.push(len);
    const b = body === null
      ? Buffer.concat([Buffer.from(`${i + 1} 0 obj\n<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream\nendobj\n')])
      : Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`);
    chunks.push(b);
    len += b.length;
  });
  const xref = ['xref', `0 ${objs.length + 1}`, '0000000000 65535 f ', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `)].join('\n');
  chunks.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objs.length + 1} /Root 1 0 R /Encrypt 5 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\nstartxref\n${len}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

describe('bad input', () => {
  it('refuses an empty file as corrupt_file', async () => {
    expect(await codeOf(new Uint8Array(0))).toBe('corrupt_file');
  });

  it('refuses bytes of no known format as unsupported_format', async () => {
    expect(await codeOf(Buffer.from('name,amount\nwidget,12.50\n'))).toBe('unsupported_format');
  });

  it('refuses a truncated PDF as corrupt_file', async () => {
    const real = readFileSync(`${ICDAR}/eu-002.pdf`);
    expect(await codeOf(real.subarray(0, Math.floor(real.length / 3)))).toBe('corrupt_file');
  });

  it('refuses a PDF header followed by garbage as corrupt_file', async () => {
    expect(await codeOf(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]))).toBe('corrupt_file');
  });

  it('refuses a PDF with zero pages as corrupt_file', async () => {
    expect(await codeOf(await pdfWithPages(0))).toBe('corrupt_file');
  });

  it('refuses a password-protected PDF as encrypted_file, fast', async () => {
    const t = performance.now();
    expect(await codeOf(encryptedPdf())).toBe('encrypted_file');
    expect(performance.now() - t).toBeLessThan(10_000);
  });

  it('refuses more pages than maxPages as too_many_pages and reads one under the limit', async () => {
    const bytes = await pdfWithPages(3);
    expect(await codeOf(bytes, 2)).toBe('too_many_pages');
    const ok = await extractDocument(bytes, { maxPages: 3 });
    expect(ok.page_count).toBe(3);
  });

  it('maps thrown values, including plain objects from a worker thread, to processing errors', () => {
    expect(toProcessingError(new ExtractError('encrypted_file', 'locked'))).toEqual({ code: 'encrypted_file', message: 'locked' });
    expect(toProcessingError({ code: 'too_many_pages', message: 'the PDF has 101 pages' })).toEqual({ code: 'too_many_pages', message: 'the PDF has 101 pages' });
    expect(toProcessingError(new TypeError('x is undefined'))).toEqual({ code: 'extraction_failed', message: 'x is undefined' });
    expect(toProcessingError({ code: 'no_such_code', message: 'odd' }).code).toBe('extraction_failed');
    expect(toProcessingError(null)).toEqual({ code: 'extraction_failed', message: 'extraction failed' });
  });
});

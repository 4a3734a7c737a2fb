/**
 * Bounds a PDF's decoded size before pdf.js parses it. pdf.js inflates a content stream whole
 * and decodes an image at its declared size, so a 2 MB page whose content stream inflates to
 * 2 GiB, or a 389 KB one drawing a 20000×20000 image, cost gigabytes of memory. Here every
 * stream's dictionary is read from the raw bytes (dictionaries are never encrypted or inside
 * object streams): an image over `maxMegapixels` fails at once, and the Flate streams other than
 * images are inflated without keeping the output, counting bytes, up to `maxInflatedBytes` for
 * the whole document. Either ends the document `resource_limit`. Streams that do not inflate
 * (encrypted, damaged) count what they gave; pdf.js reports their real fault.
 */
import { constants, createInflate } from 'node:zlib';
import { ExtractError } from '../types.js';

export interface PdfBounds {
  maxMegapixels: number;
  maxInflatedBytes: number;
}

/** How far before `stream` its dictionary is looked for. */
const DICT_WINDOW = 4096;

/** Throws `resource_limit` when `bytes` (a PDF) holds an image or inflates beyond `bounds`. */
export async function checkPdfBounds(bytes: Uint8Array, bounds: PdfBounds): Promise<void> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let inflated = 0;
  for (const { dict, data } of streams(buf)) {
    if (/\/Subtype\s*\/Image\b/.test(dict)) {
      checkImage(dict, bounds.maxMegapixels);
      continue;
    }
    if (!/\/(FlateDecode|Fl)\b/.test(dict)) continue;
    inflated += await inflatedSize(data, bounds.maxInflatedBytes - inflated + 1);
    if (inflated > bounds.maxInflatedBytes) {
      throw new ExtractError('resource_limit', `the PDF's streams inflate to more than ${mb(bounds.maxInflatedBytes)} MB (the limit)`);
    }
  }
}

function mb(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

function checkImage(dict: string, maxMegapixels: number): void {
  const w = Number(/\/Width\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict)?.[1] ?? 0);
  const h = Number(/\/Height\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict)?.[1] ?? 0);
  if (w * h > maxMegapixels * 1e6) {
    throw new ExtractError('resource_limit', `the PDF holds a ${w}×${h} image (${Math.round((w * h) / 1e6)} megapixels; the limit is ${maxMegapixels})`);
  }
}

/** Each `stream … endstream` of the raw file with the dictionary text before it. */
function* streams(buf: Buffer): Generator<{ dict: string; data: Buffer }> {
  let pos = 0;
  for (;;) {
    const at = buf.indexOf('stream', pos, 'latin1');
    if (at < 0) return;
    pos = at + 6;
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    // The keyword is followed by CRLF or LF; anything else is the word inside other data.
    let start = at + 6;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a) continue;
    start++;
    const before = buf.toString('latin1', Math.max(0, at - DICT_WINDOW), at);
    const open = before.lastIndexOf(' obj');
    const dict = open >= 0 ? before.slice(open) : before;
    let end = buf.indexOf('endstream', start, 'latin1');
    if (end < 0) end = buf.length;
    pos = end;
    yield { dict, data: buf.subarray(start, end) };
  }
}

/** Bytes `data` inflates to, counted without keeping them; stops once past `limit`. */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let n = 0;
    const z = createInflate({ chunkSize: 1 << 20, finishFlush: constants.Z_SYNC_FLUSH });
    const done = () => resolve(n);
    z.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > limit) {
        z.destroy();
        done();
      }
    });
    z.on('end', done);
    z.on('error', done);
    z.on('close', done);
    z.end(data);
  });
}

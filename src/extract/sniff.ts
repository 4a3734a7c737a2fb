/**
 * Recognises a file by its bytes, never by its declared type (API.md §5). Five formats, each with
 * a fixed signature, so a table of magic numbers is all it takes (a general detector such as
 * file-type knows hundreds of formats we would only have to refuse).
 */
export type SniffedType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/tiff' | 'image/webp';

const PDF = Buffer.from('%PDF-');

/** The media type of `head` (the first bytes of a file; 1 KiB is enough), or null. */
export function sniffType(head: Uint8Array): SniffedType | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  // PDF readers accept the header anywhere in the first 1024 bytes (ISO 32000-1, annex H).
  const pdfAt = b.subarray(0, 1024).indexOf(PDF);
  if (pdfAt >= 0) return 'application/pdf';
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 4) {
    const le = b[0] === 0x49 && b[1] === 0x49 && (b[2] === 0x2a || b[2] === 0x2b) && b[3] === 0x00;
    const be = b[0] === 0x4d && b[1] === 0x4d && b[2] === 0x00 && (b[3] === 0x2a || b[3] === 0x2b);
    if (le || be) return 'image/tiff';
  }
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

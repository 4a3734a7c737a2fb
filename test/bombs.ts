/**
 * Hostile PDFs built in code (tests and `npm run bench -- bombs`): a content stream that inflates
 * to gigabytes, and a page drawing an image of side × side grey pixels. Both are small files;
 * the deflated data is made in 1 MiB steps, so building them holds no more than their output.
 */
import { createDeflate } from 'node:zlib';

/** Deflates `total` bytes of `fill` (a byte, or a pattern repeated) without holding them. */
async function deflateFill(total: number, fill: number | string): Promise<Buffer> {
  const z = createDeflate({ level: 9, memLevel: 9 });
  const parts: Buffer[] = [];
  z.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((resolve, reject) => z.on('end', resolve).on('error', reject));
  const chunk = typeof fill === 'number' ? Buffer.alloc(1 << 20, fill) : Buffer.alloc(Math.floor((1 << 20) / fill.length) * fill.length, fill, 'latin1');
  for (let left = total; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    if (!z.write(piece)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await ended;
  return Buffer.concat(parts);
}

/** A PDF of `objects` (object n is `objects[n-1]`); a Buffer body is a stream's data. */
function pdf(objects: Array<{ dict: string; stream?: Buffer }>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0].length;
  const offsets: number[] = [];
  const push = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  objects.forEach((o, i) => {
    offsets.push(length);
    if (o.stream) {
      push(Buffer.from(`${i + 1} 0 obj\n<< ${o.dict} /Length ${o.stream.length} >>\nstream\n`, 'latin1'));
      push(o.stream);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else push(Buffer.from(`${i + 1} 0 obj\n${o.dict}\nendobj\n`, 'latin1'));
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) tail += `${String(o).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

const CATALOG = { dict: '<< /Type /Catalog /Pages 2 0 R >>' };
const PAGES = { dict: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' };

/** One page whose content stream inflates to `inflatedBytes` of spaces (2 GiB: a ~2 MB file). */
export async function compressionBombPdf(inflatedBytes = 2 ** 31): Promise<Buffer> {
  return pdf([
    CATALOG,
    PAGES,
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>' },
    { dict: '/Filter /FlateDecode', stream: await deflateFill(inflatedBytes, 0x20) },
  ]);
}

/** One page drawing a `side`×`side` 8-bit grey image (20000: 400 megapixels in a ~400 KB file). */
export async function imageBombPdf(side = 20_000): Promise<Buffer> {
  return pdf([
    CATALOG,
    PAGES,
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>' },
    { dict: '', stream: Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q', 'latin1') },
    {
      dict: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      stream: await deflateFill(side * side, 0x80),
    },
  ]);
}

/**
 * One page drawing `strokes` wide diagonal strokes (a content stream of `strokes` × 30 bytes,
 * within the inflation limit): parsing and painting it keeps pdf.js busy for many seconds.
 */
export async function slowPagePdf(strokes = 3_000_000): Promise<Buffer> {
  const op = '40 w 0 0 m 612 792 l 612 0 l S\n';
  return pdf([
    CATALOG,
    PAGES,
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>' },
    { dict: '/Filter /FlateDecode', stream: await deflateFill(strokes * op.length, op) },
  ]);
}

/**
 * Hostile XML with an invoice's root (UBL `Invoice`, so that it passes the upload's sniffing and
 * reaches the parser), or with `root` given: entity expansion (billion laughs: 10 levels of 10,
 * 10^9 characters from a 1 KB file), an external entity (XXE, a file and a URL), quadratic
 * blowup (one 2 KB entity referenced 500,000 times: 1 GB from 1.5 MB) and deep nesting.
 */
const UBL_OPEN = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">';
export function billionLaughsXml(root = 'Invoice'): Buffer {
  let dtd = '<!ENTITY lol0 "lol">';
  for (let i = 1; i <= 9; i++) dtd += `\n <!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
  const open = root === 'Invoice' ? UBL_OPEN : `<${root}>`;
  return Buffer.from(`<?xml version="1.0"?>\n<!DOCTYPE ${root} [\n ${dtd}\n]>\n${open}<ID>&lol9;</ID></${root}>\n`);
}

export function externalEntityXml(): Buffer {
  return Buffer.from(`<?xml version="1.0"?>\n<!DOCTYPE Invoice [\n <!ENTITY xxe SYSTEM "file:///etc/passwd">\n <!ENTITY net SYSTEM "http://127.0.0.1:9/x">\n]>\n${UBL_OPEN}<ID>&xxe;&net;</ID></Invoice>\n`);
}

export function quadraticBlowupXml(): Buffer {
  const big = 'a'.repeat(2000);
  return Buffer.from(`<?xml version="1.0"?>\n<!DOCTYPE Invoice [<!ENTITY a "${big}">]>\n${UBL_OPEN}<ID>${'&a;'.repeat(500_000)}</ID></Invoice>\n`);
}

export function deepNestingXml(depth = 200_000): Buffer {
  return Buffer.from(`<?xml version="1.0"?>\n${UBL_OPEN}${'<n>'.repeat(depth)}${'</n>'.repeat(depth)}</Invoice>\n`);
}

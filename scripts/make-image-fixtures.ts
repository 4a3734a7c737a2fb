/**
 * Generates the golden image fixtures of the raster path (test/fixtures/images/): synthetic
 * invoices drawn as SVG (DejaVu Sans, the font Debian ships with librsvg), rendered at 150 dpi,
 * then made to look like scans and photos — turned 2°, speckled with seeded noise,
 * JPEG-compressed — in each accepted image format. The manifest lists every file's expected
 * line items and totals. Run: `node bin/run-ts.js scripts/make-image-fixtures.ts`.
 */
import sharp from 'sharp';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const OUT = resolve('test/fixtures/images');
/** 150 dpi A4: the smallest resolution a phone scan app produces; keeps the fixtures small. */
const W = 1240;
const H = 1754;

interface Item {
  description: string;
  quantity: number;
  unit_price: number;
  amount: number;
}
interface Invoice {
  name: string;
  number: string;
  grid: boolean;
  items: Item[];
  subtotal: number;
  tax: number;
  total: number;
}

function item(description: string, quantity: number, unit: number): Item {
  return { description, quantity, unit_price: unit, amount: Math.round(quantity * unit * 100) / 100 };
}

function invoice(name: string, number: string, grid: boolean, items: Item[]): Invoice {
  const subtotal = Math.round(items.reduce((s, i) => s + i.amount, 0) * 100) / 100;
  const tax = Math.round(subtotal * 0.2 * 100) / 100;
  return { name, number, grid, items, subtotal, tax, total: Math.round((subtotal + tax) * 100) / 100 };
}

const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function svgOf(inv: Invoice, extraPage = false): string {
  const cols = [110, 660, 800, 980, 1130]; // Description | Qty | Unit price | Amount
  const top = 520;
  const rowH = 54;
  const parts: string[] = [];
  const text = (x: number, y: number, s: string, o: { anchor?: string; size?: number; bold?: boolean } = {}) =>
    parts.push(`<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${o.size ?? 22}" ${o.bold ? 'font-weight="bold"' : ''} text-anchor="${o.anchor ?? 'start'}">${esc(s)}</text>`);
  text(110, 150, extraPage ? 'Terms and conditions' : 'INVOICE', { size: 44, bold: true });
  text(110, 210, `Invoice number ${inv.number}`);
  text(110, 250, 'Date 2026-11-30');
  text(760, 150, 'Millbrook Supplies Ltd', { size: 24, bold: true });
  text(760, 190, '14 Harbour Road, Leeds');
  if (extraPage) {
    text(110, 320, 'Payment is due within 30 days of the invoice date.');
    text(110, 360, 'Late payments carry interest at 2% a month.');
    return wrap(parts);
  }
  const header = ['Description', 'Qty', 'Unit price', 'Amount'];
  const baseline = (r: number) => top + r * rowH + 36;
  header.forEach((h, c) => text(c === 0 ? cols[0] + 12 : cols[c + 1] - 12, baseline(0), h, { bold: true, anchor: c === 0 ? 'start' : 'end' }));
  inv.items.forEach((it, r) => {
    const row = [it.description, String(it.quantity), money(it.unit_price), money(it.amount)];
    row.forEach((v, c) => text(c === 0 ? cols[0] + 12 : cols[c + 1] - 12, baseline(r + 1), v, { anchor: c === 0 ? 'start' : 'end' }));
  });
  const n = inv.items.length + 1;
  const bottom = top + n * rowH;
  const line = (x0: number, y0: number, x1: number, y1: number, w = 2) =>
    parts.push(`<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y1}" stroke="black" stroke-width="${w}"/>`);
  if (inv.grid) {
    for (let r = 0; r <= n; r++) line(cols[0], top + r * rowH, cols[4], top + r * rowH);
    for (const x of cols) line(x, top, x, bottom);
  } else {
    line(cols[0], top + rowH - 6, cols[4], top + rowH - 6, 3);
  }
  const sums: [string, number][] = [
    ['Subtotal', inv.subtotal],
    ['VAT 20%', inv.tax],
    ['Total', inv.total],
  ];
  sums.forEach(([label, v], i) => {
    const y = bottom + 60 + i * 46;
    text(cols[3] - 12, y, label, { anchor: 'end', bold: label === 'Total' });
    text(cols[4] - 12, y, money(v), { anchor: 'end', bold: label === 'Total' });
  });
  text(110, 1600, 'Thank you for your business.');
  return wrap(parts);
}

function wrap(parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>`;
}

/** Seeded xorshift, so regenerating gives the same bytes. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** Greyscale pixels of an SVG page, optionally turned, speckled and shaded like a phone photo. */
async function scanLike(svg: string, o: { degrees: number; noise: number; seed: number }): Promise<{ data: Buffer; width: number; height: number }> {
  let img = sharp(Buffer.from(svg), { density: 72 }).flatten({ background: '#fff' }).grayscale();
  if (o.degrees) img = img.rotate(o.degrees, { background: '#ffffff' });
  const { data, info } = await img.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const rand = rng(o.seed);
  for (let i = 0; i < data.length; i++) {
    // Gaussian-ish sensor noise plus a soft light gradient (brighter at the top left).
    const n = (rand() + rand() + rand() - 1.5) * o.noise;
    const y = Math.floor(i / info.width);
    const shade = (o.noise > 0 ? 18 : 0) * (y / info.height);
    data[i] = Math.max(0, Math.min(255, Math.round(data[i] + n - shade)));
  }
  return { data, width: info.width, height: info.height };
}

const raw = (p: { width: number; height: number }) => ({ raw: { width: p.width, height: p.height, channels: 1 as const } });

export async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const a = invoice('grid-clean', 'INV-2041', true, [
    item('Copy paper A4 box', 4, 23.5),
    item('Toner cartridge black', 2, 89.9),
    item('Desk lamp LED', 3, 41.25),
    item('Stapler heavy duty', 1, 18.75),
  ]);
  const b = invoice('stream-photo', 'INV-2042', false, [
    item('Network cable 5m', 10, 6.4),
    item('USB-C hub 7 port', 2, 54.0),
    item('Wireless mouse', 5, 19.99),
  ]);
  const c = invoice('grid-scan', 'INV-2043', true, [
    item('Office chair mesh', 2, 189.0),
    item('Whiteboard 120x90', 1, 129.5),
    item('Marker set 12 colours', 6, 8.25),
  ]);
  const manifest: Record<string, unknown>[] = [];
  const add = (file: string, inv: Invoice, note: string, pages = 1) =>
    manifest.push({ file, note, pages, items: inv.items, totals: { subtotal: inv.subtotal, tax: inv.tax, total: inv.total } });

  const pa = await scanLike(svgOf(a), { degrees: 0, noise: 0, seed: 1 });
  writeFileSync(join(OUT, 'grid-clean.png'), await sharp(pa.data, raw(pa)).png({ compressionLevel: 9, palette: true, colours: 16 }).toBuffer());
  add('grid-clean.png', a, 'ruled table, clean render, PNG');

  const pb = await scanLike(svgOf(b), { degrees: 2, noise: 24, seed: 2 });
  writeFileSync(join(OUT, 'stream-photo.jpg'), await sharp(pb.data, raw(pb)).jpeg({ quality: 60 }).toBuffer());
  add('stream-photo.jpg', b, 'unruled table, turned 2°, noise and shading, JPEG q60');

  // Stored sideways with EXIF orientation 6 (turn 90° clockwise to view), as phones do.
  const pc = await scanLike(svgOf(c), { degrees: -2, noise: 16, seed: 3 });
  writeFileSync(join(OUT, 'grid-exif6.jpg'), await sharp(pc.data, raw(pc)).rotate(-90).jpeg({ quality: 70 }).withMetadata({ orientation: 6 }).toBuffer());
  add('grid-exif6.jpg', c, 'ruled table, turned −2°, stored sideways with EXIF orientation 6, JPEG q70');

  // Two-page TIFF: the invoice, then a page of terms (no table).
  const p1 = await scanLike(svgOf(a), { degrees: 1, noise: 10, seed: 4 });
  const p2 = await scanLike(svgOf(a, true), { degrees: 0, noise: 10, seed: 5 });
  const pages = await Promise.all([p1, p2].map((p) => sharp(p.data, raw(p)).png().toBuffer()));
  writeFileSync(join(OUT, 'two-page.tiff'), await sharp(pages, { join: { animated: true } }).tiff({ compression: 'jpeg', quality: 70 }).toBuffer());
  add('two-page.tiff', a, 'two-page TIFF (JPEG-compressed): the invoice turned 1°, then a page without a table', 2);

  writeFileSync(join(OUT, 'stream-photo.webp'), await sharp(pb.data, raw(pb)).webp({ quality: 60 }).toBuffer());
  add('stream-photo.webp', b, 'the photo-like invoice as WebP q60');

  writeFileSync(join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  console.log(`wrote ${manifest.length} fixtures to ${OUT}`);
}

await main();

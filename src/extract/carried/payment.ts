/**
 * Payment QR codes on a document's pages: the EPC069-12 credit transfer code ("GiroCode",
 * `BCD`) and the Swiss QR-bill (`SPC`). Each gives `iban`, `amount_due` and the beneficiary
 * (`vendor_name` only where the document names no vendor), with `source: "barcode"`, and its
 * reference as a key-value pair; what the page prints otherwise is a `barcode_mismatch`.
 * Pages are looked at only where a code can be: page images decoded, and on PDF pages the regions
 * that draw an image or a square of dark modules (`qr-regions.ts`) painted at 2× = 144 dpi; a
 * cheap scan for the 1:1:3:1:1 runs of QR finder patterns first, and ZXing (zxing-wasm, its wasm
 * read from the package) only then.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { isValidIban } from '../document/iban.js';
import { canvasFactoryOf } from '../raster/pdf-page.js';
import { ExtractError, type BBox, type ExtractOptions, type ExtractResult, type Field, type FieldName, type KeyValuePair, type PageLayout } from '../types.js';
import { findPrinted, mismatches, type Print, type Printed } from './check.js';
import type { CarriedValue } from './invoice.js';
import { codeRegions } from './qr-regions.js';

/** Pages looked at: a payment slip is on the first or second page of the invoices seen. */
export const CODE_PAGES = 4;
/** A PDF page rendered for its codes: 2× (144 dpi), a module of a 25 mm QR code is then ~4 px. */
const PDF_SCALE = 2;
/** Page images larger than this many pixels on their long side are scaled down for the scan. */
const MAX_SIDE = 3000;

export interface PaymentCode {
  kind: 'epc' | 'swiss';
  iban: string;
  amount: number | null;
  currency: string | null;
  beneficiary: string | null;
  reference: string | null;
  message: string | null;
  raw: string;
}

/** The payment in a QR code's text, or null when it is no EPC or Swiss QR-bill code. */
export function parsePaymentCode(text: string): PaymentCode | null {
  const lines = text.split(/\r\n|\n|\r/);
  const at = (i: number) => lines[i]?.trim() || null;
  if (at(0) === 'BCD' && /^00[12]$/.test(at(1) ?? '') && /^(SCT|INST)$/.test(at(3) ?? '')) {
    const iban = (at(6) ?? '').replace(/\s+/g, '').toUpperCase();
    const amount = /^([A-Z]{3})(\d+(?:\.\d{1,2})?)$/.exec(at(7) ?? '');
    if (!isValidIban(iban)) return null;
    return { kind: 'epc', iban, amount: amount ? Number(amount[2]) : null, currency: amount?.[1] ?? null, beneficiary: at(5), reference: at(9), message: at(10), raw: text };
  }
  if (at(0) === 'SPC' && at(1)?.startsWith('02')) {
    const iban = (at(3) ?? '').replace(/\s+/g, '').toUpperCase();
    if (!isValidIban(iban)) return null;
    const amount = at(18) && /^\d+(\.\d{1,2})?$/.test(at(18)!) ? Number(at(18)) : null;
    const reference = at(27) && at(27) !== 'NON' ? at(28) : null;
    return { kind: 'swiss', iban, amount, currency: at(19), beneficiary: at(5), reference, message: at(29), raw: text };
  }
  return null;
}

interface Pixels {
  page: number;
  rgba: Uint8ClampedArray;
  width: number;
  height: number;
  /** Page units per pixel. */
  unit: number;
  /** Where the pixels start on the page painted whole, in its pixels (a painted region's corner). */
  x0?: number;
  y0?: number;
}

/** True when a few rows of the image cross dark-light runs in the ratio 1:1:3:1:1 (QR finders). */
export function hasFinderPatterns(rgba: Uint8ClampedArray, width: number, height: number): boolean {
  let hits = 0;
  const runs: number[] = [];
  for (let y = 0; y < height; y += 2) {
    runs.length = 0;
    let dark = false;
    let run = 0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const d = rgba[i]! * 0.3 + rgba[i + 1]! * 0.59 + rgba[i + 2]! * 0.11 < 128;
      if (d === dark) run++;
      else {
        runs.push(run);
        dark = d;
        run = 1;
        // runs alternate light, dark, …: a window of five ending on a dark run is d l D l d.
        const n = runs.length;
        if (!d && n >= 6 && finder(runs[n - 5]!, runs[n - 4]!, runs[n - 3]!, runs[n - 2]!, runs[n - 1]!) && ++hits >= 6) return true;
      }
    }
  }
  return false;
}

function finder(a: number, b: number, c: number, d: number, e: number): boolean {
  const module = (a + b + c + d + e) / 7;
  if (module < 1) return false;
  const near = (v: number, m: number) => Math.abs(v - m * module) <= module * 0.7 * m;
  return near(a, 1) && near(b, 1) && near(c, 3) && near(d, 1) && near(e, 1);
}

let zxing: Promise<typeof import('zxing-wasm/reader')> | null = null;

/** ZXing's reader with its wasm from the package's own file: nothing is fetched. */
function reader(): Promise<typeof import('zxing-wasm/reader')> {
  zxing ??= (async () => {
    const mod = await import('zxing-wasm/reader');
    const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    await mod.prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
    return mod;
  })();
  return zxing;
}

async function decode(px: Pixels): Promise<Array<{ code: PaymentCode; page: number; bbox: BBox }>> {
  if (!hasFinderPatterns(px.rgba, px.width, px.height)) return [];
  const { readBarcodes } = await reader();
  // An ImageData's shape: Node has no ImageData class, and ZXing reads only these members.
  const image = { data: px.rgba, width: px.width, height: px.height, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0];
  const found = await readBarcodes(image, { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 4 });
  const out: Array<{ code: PaymentCode; page: number; bbox: BBox }> = [];
  for (const r of found) {
    const code = r.isValid ? parsePaymentCode(r.text) : null;
    if (!code) continue;
    const pts = [r.position.topLeft, r.position.topRight, r.position.bottomRight, r.position.bottomLeft];
    const bbox: BBox = [Math.min(...pts.map((p) => p.x)), Math.min(...pts.map((p) => p.y)), Math.max(...pts.map((p) => p.x)), Math.max(...pts.map((p) => p.y))].map((v, i) => (v + (i % 2 ? (px.y0 ?? 0) : (px.x0 ?? 0))) * px.unit) as BBox;
    out.push({ code, page: px.page, bbox });
  }
  return out;
}

async function* imagePages(bytes: Uint8Array, layouts: PageLayout[]): AsyncGenerator<Pixels> {
  for (const layout of layouts.slice(0, CODE_PAGES)) {
    const scale = Math.min(1, MAX_SIDE / Math.max(layout.width, layout.height));
    const img = sharp(bytes, { page: layout.page - 1, limitInputPixels: false }).rotate();
    const { data, info } = await (scale < 1 ? img.resize(Math.round(layout.width * scale)) : img).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    yield { page: layout.page, rgba: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, unit: layout.width / info.width };
  }
}

async function* pdfPages(doc: PDFDocumentProxy): AsyncGenerator<Pixels> {
  for (let n = 1; n <= Math.min(doc.numPages, CODE_PAGES); n++) {
    const page = await doc.getPage(n);
    try {
      // A QR code is drawn as an image or as filled modules: only those regions are painted.
      for (const region of await codeRegions(page)) yield await paintRegion(page, n, region, doc);
    } finally {
      page.cleanup();
    }
  }
}

/**
 * The `region` (page units) of `page` painted at `PDF_SCALE`, its pixels where a whole-page paint
 * would have them: the region's corner on whole pixels, multiples of 8 (ZXing's binariser works
 * in blocks of 8 px from the image's corner). The canvas is given back before the code is read.
 */
async function paintRegion(page: PDFPageProxy, n: number, region: BBox, doc: PDFDocumentProxy): Promise<Pixels> {
  const full = page.getViewport({ scale: PDF_SCALE });
  const x0 = Math.floor((region[0] * PDF_SCALE) / 8) * 8;
  const y0 = Math.floor((region[1] * PDF_SCALE) / 8) * 8;
  const width = Math.max(1, Math.min(Math.floor(full.width), Math.ceil(region[2] * PDF_SCALE)) - x0);
  const height = Math.max(1, Math.min(Math.floor(full.height), Math.ceil(region[3] * PDF_SCALE)) - y0);
  const viewport = page.getViewport({ scale: PDF_SCALE, offsetX: -x0, offsetY: -y0 });
  const factory = canvasFactoryOf(page, doc);
  const entry = factory.create(width, height);
  try {
    await page.render({ canvasContext: entry.context as never, canvas: entry.canvas as never, viewport }).promise;
    // getImageData gives the pixels in a buffer of their own, which outlives the canvas.
    const rgba = entry.context!.getImageData(0, 0, width, height).data;
    return { page: n, rgba, width, height, unit: 1 / PDF_SCALE, x0, y0 };
  } catch (err) {
    throw new ExtractError('corrupt_file', `page ${n} cannot be rendered: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    factory.destroy(entry);
  }
}

/**
 * `result` with the payment codes of its pages read in; a code disagreeing with the print is a
 * `barcode_mismatch`. Values the e-invoice's XML gave stay.
 */
export async function readPaymentCodes(result: ExtractResult, src: { pdf?: PDFDocumentProxy; image?: Uint8Array; layouts: PageLayout[]; print: () => Print; opts: ExtractOptions }): Promise<ExtractResult> {
  const codes: Array<{ code: PaymentCode; page: number; bbox: BBox }> = [];
  const pages = src.pdf ? pdfPages(src.pdf) : src.image ? imagePages(src.image, src.layouts) : null;
  if (!pages) return result;
  for await (const px of pages) {
    if (src.opts.deadlineAt && Date.now() > src.opts.deadlineAt) break;
    codes.push(...(await decode(px)));
    if (codes.length) break;
  }
  const first = codes[0];
  if (!first) return result;
  const { code, page, bbox } = first;
  const carried: Partial<Record<FieldName, CarriedValue>> = { iban: { value: code.iban, text: code.iban } };
  if (code.amount !== null) carried.amount_due = { value: code.amount, text: String(code.amount) };
  if (code.currency) carried.currency = { value: code.currency, text: code.currency };
  if (code.beneficiary) carried.vendor_name = { value: code.beneficiary, text: code.beneficiary };
  const fields = { ...result.fields };
  const found: Partial<Record<FieldName, Printed | null>> = {};
  for (const [name, v] of Object.entries(carried) as Array<[FieldName, CarriedValue]>) {
    const held = fields[name];
    if (held?.source === 'embedded') continue;
    if (name === 'vendor_name' && held) continue;
    if (name === 'currency' && held) continue;
    found[name] = findPrinted(src.print(), name, v);
    fields[name] = { value: v.value, text: v.text, confidence: 1, page, bbox, source: 'barcode' } satisfies Field;
  }
  // The page's own amount due, or its total where it prints none, is what the code must match.
  const read = { ...result.fields, amount_due: result.fields.amount_due ?? result.fields.total };
  const checked = (['iban', 'amount_due'] as FieldName[]).filter((n) => fields[n]?.source === 'barcode');
  const warnings = mismatches('barcode_mismatch', carried, read, found, checked);
  const pairs: KeyValuePair[] = [];
  const pair = (key: string, value: string | null) => {
    if (value) pairs.push({ key: { text: key, bbox }, value: { text: value, bbox }, page, bbox, confidence: 1, source: 'barcode' });
  };
  pair('Payment reference', code.reference);
  pair('Remittance information', code.message);
  pair('Beneficiary', code.beneficiary);
  return { ...result, fields, key_value_pairs: [...result.key_value_pairs, ...pairs], warnings: [...(result.warnings ?? []), ...warnings] };
}

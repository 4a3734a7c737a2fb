/**
 * What a document carries in machine-readable form (API.md §4c), read after its page: an
 * e-invoice's XML (attached to a PDF, or the uploaded file itself), a PDF's form fields and payment
 * QR codes. Carried values fill `fields` and `line_items` with confidence 1; the page's reading
 * stays in `tables` and `key_value_pairs`, and where the page prints another invoice number,
 * total, tax, due date or IBAN than the XML holds, a warning names what it prints.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf } from '../pdf/load.js';
import type { RenderLimits, RenderedPage } from '../render.js';
import { ExtractError, type ExtractOptions, type ExtractResult, type Field, type FieldName, type KeyValuePair, type LineItem, type PageLayout, type Warning } from '../types.js';
import { findPrinted, mismatches, printOf, type Print, type Printed } from './check.js';
import { checkboxesInInk, glyphCheckboxes, inkCheckboxes } from './checkboxes.js';
import { readInvoice, type CarriedInvoice } from './invoice.js';
import { invoicePage, paintInvoicePage, type InvoicePage } from './page.js';
import { formPairs, invoiceAttachment } from './pdf.js';
import { readPaymentCodes } from './payment.js';
import { sniffFormat, XML_TYPE, type DocumentFormat } from './sniff.js';
import { parseXml } from './xml.js';

export { sniffFormat, XML_TYPE, type DocumentFormat } from './sniff.js';
export { CODE_PAGES } from './payment.js';

/** The invoice of an XML file; throws `ExtractError` when it does not parse or is no invoice. */
export function xmlInvoice(bytes: Uint8Array): CarriedInvoice {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const inv = readInvoice(parseXml(text));
  if (!inv) throw new ExtractError('unsupported_format', 'the XML is no CII or UBL invoice');
  return inv;
}

/** The one page of an invoice uploaded as XML, laid out from its values (`carried/page.ts`). */
export function xmlLayouts(bytes: Uint8Array): PageLayout[] {
  return [invoicePage(xmlInvoice(bytes)).layout];
}

/** The page of an XML invoice for a viewer: its layout drawn `width` pixels wide. */
export async function renderXmlPage(bytes: Uint8Array, page: number, width: number, limits: RenderLimits): Promise<RenderedPage> {
  if (page !== 1) throw new ExtractError('too_many_pages', `page ${page} does not exist: the document has 1 page`);
  const layout = invoicePage(xmlInvoice(bytes)).layout;
  const cap = Math.floor(Math.sqrt((limits.maxMegapixels * 1e6 * layout.width) / layout.height));
  const drawn = await paintInvoicePage(layout, Math.max(64, Math.min(width, cap)));
  return { ...drawn, page_width: layout.width, page_height: layout.height, page_count: 1 };
}

/**
 * `result` (the page's reading of `layouts`) with what `bytes` carries read into it, and its
 * `warnings`; a PDF is read from `open` when it is open already. With `embedded: "ignore"` the
 * page's reading is returned as it is.
 */
export async function readCarried(bytes: Uint8Array, layouts: PageLayout[], result: ExtractResult, opts: ExtractOptions, open?: PDFDocumentProxy): Promise<ExtractResult> {
  const format = sniffFormat(bytes.subarray(0, 4096));
  if (format !== XML_TYPE) result = { ...result, key_value_pairs: [...result.key_value_pairs, ...(await printedCheckboxes(bytes, layouts, format, opts, open))] };
  if (opts.embedded === 'ignore') return { ...result, warnings: [] };
  if (format === XML_TYPE) {
    const inv = xmlInvoice(bytes);
    return withInvoice({ ...result, warnings: [] }, inv, null, invoicePage(inv));
  }
  // The print's lines and locale, made only for something carried to check against them.
  let printed: Print | undefined;
  const print = () => (printed ??= printOf(layouts));
  let out: ExtractResult = { ...result, warnings: [] };
  let pairs: KeyValuePair[] = [];
  if (format === 'application/pdf') {
    const doc = open ?? (await openPdf(bytes, opts.maxMegapixels));
    try {
      const attachment = await invoiceAttachment(doc);
      if (attachment) {
        try {
          out = withInvoice(out, xmlInvoice(attachment.content), print(), null);
        } catch (err) {
          const why = err instanceof ExtractError ? err.message : String(err);
          out.warnings!.push({ code: 'embedded_invalid', field: null, message: `the attached ${attachment.filename} cannot be read (${why}); the page's reading is used`, printed: null });
        }
      }
      pairs = await formPairs(doc, bytes);
      out = await readPaymentCodes(out, { pdf: doc, layouts, print, opts });
    } finally {
      if (!open) await doc.destroy();
    }
  } else if (format) {
    out = await readPaymentCodes(out, { image: bytes, layouts, print, opts });
  }
  return pairs.length ? { ...out, key_value_pairs: [...out.key_value_pairs, ...pairs] } : out;
}

/** Pages whose words were read by OCR (a text layer's words have no confidence). */
const readByOcr = (layout: PageLayout) => layout.words.some((w) => w.confidence !== null);
/** How many first pages are searched for boxes of ink (each costs a decode or a render, and a pass over its pixels). */
export const INK_PAGES = 4;

/**
 * The checkboxes a page prints (its reading, `source: "page"`): box glyphs of a PDF's words;
 * square outlines of ink on the first pages of an image file, and on those of a PDF's first pages
 * that were read by OCR (each rendered again as it was read, in the layout's PDF points), from
 * `open` when the PDF is open already.
 */
async function printedCheckboxes(bytes: Uint8Array, layouts: PageLayout[], format: DocumentFormat | null, opts: ExtractOptions, open?: PDFDocumentProxy): Promise<KeyValuePair[]> {
  if (!format) return [];
  const out: KeyValuePair[] = [];
  if (format !== 'application/pdf') {
    for (const layout of layouts.slice(0, INK_PAGES)) out.push(...(await inkCheckboxes(bytes, layout).catch(() => [])));
    return out;
  }
  const scanned = layouts.slice(0, INK_PAGES).filter(readByOcr);
  out.push(...glyphCheckboxes(layouts.filter((l) => !scanned.includes(l))));
  if (!scanned.length) return out;
  const { grayOfPdfPage } = await import('../raster/pdf-page.js');
  const doc = open ?? (await openPdf(bytes, opts.maxMegapixels).catch(() => null));
  if (!doc) return out;
  try {
    for (const layout of scanned) {
      const found = await doc
        .getPage(layout.page)
        .then(async (page) => {
          const { gray, scale } = await grayOfPdfPage(page, layout.page, opts, doc);
          page.cleanup();
          return checkboxesInInk(gray, scale, layout);
        })
        .catch(() => []);
      out.push(...found);
    }
  } finally {
    if (!open) await doc.destroy();
  }
  return out.sort((a, b) => a.page - b.page);
}

/** `result` with the invoice's fields, lines and sums; checked against `print` when there is one. */
function withInvoice(result: ExtractResult, inv: CarriedInvoice, print: Print | null, page: InvoicePage | null): ExtractResult {
  const fields = { ...result.fields };
  const found: Partial<Record<FieldName, Printed | null>> = {};
  for (const [name, v] of Object.entries(inv.fields) as Array<[FieldName, NonNullable<CarriedInvoice['fields'][FieldName]>]>) {
    const at = print ? findPrinted(print, name, v) : page?.boxes[name] ? { text: v.text, page: 1, bbox: page.boxes[name]! } : null;
    found[name] = at;
    fields[name] = { value: v.value, text: v.text, confidence: 1, page: at?.page ?? 1, bbox: at?.bbox ?? [0, 0, 0, 0], source: 'embedded' } satisfies Field;
  }
  const warnings: Warning[] = print ? mismatches('embedded_mismatch', inv.fields, result.fields, found) : [];
  const currency = typeof inv.fields.currency?.value === 'string' ? inv.fields.currency.value : null;
  const used = new Set<LineItem>();
  const line_items = inv.lines.map((line, i): LineItem => {
    const read = page ? null : matchingItem(result.line_items, line.amount, line.description, used);
    const cells = read?.cells ?? {
      Description: line.description ?? '',
      Quantity: line.quantity === null ? '' : String(line.quantity),
      'Unit price': line.unit_price === null ? '' : String(line.unit_price),
      Amount: line.amount === null ? '' : String(line.amount),
    };
    const geometry = read
      ? { table_index: read.table_index, row: read.row, page: read.page, bbox: read.bbox }
      : { table_index: page && result.tables.length ? 0 : -1, row: i + 1, page: 1, bbox: page?.rows[i] ?? ([0, 0, 0, 0] as LineItem['bbox']) };
    return { ...geometry, ...line, currency, cells, flags: [], source: 'embedded' };
  });
  const num = (name: FieldName) => (typeof inv.fields[name]?.value === 'number' ? (inv.fields[name]!.value as number) : null);
  return {
    ...result,
    document_type: 'invoice',
    fields,
    line_items: line_items.length ? line_items : result.line_items,
    totals: { subtotal: num('subtotal'), tax: num('tax'), total: num('total'), currency, flags: [] },
    warnings: [...(result.warnings ?? []), ...warnings],
  };
}

/** The page's item with the same amount (and, of several, the most words of the description in common). */
function matchingItem(items: LineItem[], amount: number | null, description: string | null, used: Set<LineItem>): LineItem | null {
  if (amount === null) return null;
  const words = new Set((description ?? '').toLowerCase().split(/\W+/).filter((w) => w.length > 1));
  let best: LineItem | null = null;
  let bestScore = -1;
  for (const it of items) {
    if (used.has(it) || it.amount === null || Math.abs(Math.abs(it.amount) - Math.abs(amount)) >= 0.005) continue;
    const score = (it.description ?? '')
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => words.has(w)).length;
    if (score > bestScore) [best, bestScore] = [it, score];
  }
  if (best) used.add(best);
  return best;
}

/**
 * The engine: bytes in, `{page_count, document_type, fields, tables, line_items, totals}` out.
 * Sniffs the format, reads PDF text layers (scanned pages and images go to the raster/OCR path,
 * loaded only when needed), finds tables per page, stitches tables continued across pages, maps
 * line items, then classifies the document and reads its fields (document/).
 * Tables list a cell for every grid position (empty text allowed; spanning cells cover several),
 * cell text joins a cell's lines with "\n", and `pages` lists every page a stitched table spans.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PROCESSING_ERROR_CODES, type ProcessingError, type ProcessingErrorCode } from '../domain/errors.js';
import { sniffType } from './sniff.js';
import { CODE_PAGES, INK_PAGES, readCarried, sniffFormat, XML_TYPE, xmlLayouts } from './carried/index.js';
import { DEFAULT_EXTRACT_OPTIONS, ExtractError, type ExtractOptions, type ExtractResult, type Field, type PageLayout, type Table } from './types.js';
import { checkPdfBounds } from './pdf/bounds.js';
import { openPdf, pdfError } from './pdf/load.js';
import { textLayout } from './pdf/page.js';
import { documentTables } from './layout/index.js';
import { extractLineItems } from './lineitems/index.js';
import { understandDocument } from './document/index.js';
import { documentLocale } from './locale/index.js';
import { documentLines } from './locale/lines.js';
import { dateOfLine, lostDateLines, teach } from './memory/index.js';
import { pass } from './passes.js';

export { detectTables } from './layout/index.js';

/** Extracts tables and line items from a PDF or image. Throws `ExtractError` on bad input. */
export async function extractDocument(bytes: Uint8Array, options: Partial<ExtractOptions> = {}): Promise<ExtractResult> {
  const opts: ExtractOptions = { ...DEFAULT_EXTRACT_OPTIONS, ...options };
  // A PDF is opened once for its pages and what it carries: the fonts and objects pdf.js parsed
  // for the text layer serve the carried step too.
  const doc = bytes.byteLength && sniffFormat(bytes.subarray(0, 4096)) === 'application/pdf' ? await openCheckedPdf(bytes, opts).catch((err: unknown) => {
    throw asExtractError(err);
  }) : undefined;
  try {
    const layouts = await readLayouts(bytes, opts, doc);
    return rereadLost(bytes, await readWhatCarries(bytes, layouts, resultFromLayouts(layouts, opts), opts, doc), opts);
  } finally {
    await doc?.destroy();
  }
}

/**
 * The page's reading with what the file carries (e-invoice XML, form fields, payment codes) read
 * into it; `doc` is the PDF `bytes` open already, else it is opened here.
 */
export async function readWhatCarries(bytes: Uint8Array, layouts: PageLayout[], result: ExtractResult, opts: ExtractOptions, doc?: PDFDocumentProxy): Promise<ExtractResult> {
  try {
    return await readCarried(bytes, layouts, result, opts, doc);
  } catch (err) {
    throw asExtractError(err);
  }
}

/**
 * The last step for an image file read with a vendor's memory: dates the memory learned that
 * neither it nor the engine read are looked for again on the page's date lines, each line cropped
 * from the image, enlarged and read alone (`source: "vendor_memory"`, confidence 0.6).
 */
export async function rereadLost(bytes: Uint8Array, result: ExtractResult, opts: ExtractOptions): Promise<ExtractResult> {
  const mem = result.vendor_memory_id ? opts.vendorMemory?.find((m) => m.id === result.vendor_memory_id) : undefined;
  const type = sniffType(bytes.subarray(0, 1024));
  if (!mem || !result.words || !type || type === 'application/pdf') return result;
  const fields = { ...result.fields } as Record<string, Field | null>;
  const lost = lostDateLines(mem, result.words, (key) => key in fields && !fields[key]);
  if (!lost.length) return result;
  try {
    const raster = await import('./raster/index.js');
    const texts = await raster.readImageLines(bytes, type, lost, opts);
    lost.forEach((line, i) => {
      const value = fields[line.key] ? null : dateOfLine(texts[i]!, line);
      if (value) fields[line.key] = { value, text: texts[i]!, confidence: 0.6, page: line.page, bbox: line.bbox, source: 'vendor_memory' };
    });
  } catch {
    return result;
  }
  return { ...result, fields: fields as ExtractResult['fields'] };
}

/**
 * The first half of `extractDocument`: each page's words, rulings and figures, from the text
 * layer or by OCR; a PDF from `doc` when it is open already. Throws `ExtractError` on bad input.
 */
export async function readLayouts(bytes: Uint8Array, opts: ExtractOptions, doc?: PDFDocumentProxy): Promise<PageLayout[]> {
  if (bytes.byteLength === 0) throw new ExtractError('corrupt_file', 'the file is empty (0 bytes)');
  const type = sniffFormat(bytes.subarray(0, 4096));
  if (!type) throw new ExtractError('unsupported_format', 'not a PDF, PNG, JPEG, TIFF, WebP or invoice XML file');
  try {
    if (type === XML_TYPE) return xmlLayouts(bytes);
    if (type === 'application/pdf') return await pdfLayouts(bytes, opts, doc);
    const raster = await import('./raster/index.js');
    return await raster.extractImagePages(bytes, type, opts);
  } catch (err) {
    throw asExtractError(err);
  }
}

/** The second half of `extractDocument`: tables, line items, fields and totals from the pages. */
export function resultFromLayouts(layouts: PageLayout[], opts: ExtractOptions): ExtractResult {
  try {
    const tables = documentTables(layouts);
    // The locale is worked out once, for the line items and the fields alike.
    const lines = pass('document lines', () => documentLines(layouts));
    const locale = pass('locale', () => documentLocale(layouts, lines));
    const items = pass('line items', () => extractLineItems(tables, layouts, locale));
    const doc = pass('fields', () => understandDocument(layouts, tables, items, { lines, locale }));
    const result: ExtractResult = { page_count: layouts.length, document_type: doc.document_type, fields: doc.fields, key_value_pairs: doc.key_value_pairs, tables, line_items: doc.line_items, totals: doc.totals };
    return pass('memory', () => teach(result, layouts, { customFields: opts.customFields, vendorMemory: opts.vendorMemory, order: locale.order }));
  } catch (err) {
    throw asExtractError(err);
  }
}

function asExtractError(err: unknown): ExtractError {
  return err instanceof ExtractError ? err : new ExtractError('extraction_failed', `extraction failed: ${(err as Error)?.message ?? String(err)}`);
}

/** `bytes` opened as a PDF once its bounds are checked (a bomb is refused before pdf.js reads it). */
export async function openCheckedPdf(bytes: Uint8Array, opts: ExtractOptions): Promise<PDFDocumentProxy> {
  await checkPdfBounds(bytes, opts);
  return openPdf(bytes, opts.maxMegapixels);
}

async function pdfLayouts(bytes: Uint8Array, opts: ExtractOptions, open?: PDFDocumentProxy): Promise<PageLayout[]> {
  const doc = open ?? (await openCheckedPdf(bytes, opts));
  try {
    // Checked from the page count alone, before any page is parsed.
    if (doc.numPages > opts.maxPages) {
      throw new ExtractError('too_many_pages', `the PDF has ${doc.numPages} pages; the limit is ${opts.maxPages}`);
    }
    const layouts: PageLayout[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      let page;
      try {
        page = await doc.getPage(n);
      } catch (err) {
        throw pdfError(err);
      }
      const layout = await textLayout(page, n);
      if (layout) layouts.push(layout);
      else {
        const raster = await import('./raster/index.js');
        // On a document kept open for the carried step, which looks at a scanned first page's
        // checkboxes in the pixels it was read from, those pixels are kept for it.
        layouts.push(await raster.layoutFromPdfPage(page, n, opts, undefined, !!open && n <= INK_PAGES));
      }
      // The payment code search walks the first pages' operator lists again: on a document kept
      // open for it, pdf.js keeps them (and the images they drew) until that search cleans up.
      if (!open || n > CODE_PAGES) page.cleanup();
    }
    return layouts;
  } finally {
    if (!open) await doc.destroy();
  }
}

/** Maps any thrown value, including plain objects from a worker thread, to a `processing_error`. */
export function toProcessingError(err: unknown): ProcessingError {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' && (PROCESSING_ERROR_CODES as readonly string[]).includes(e.code) ? (e.code as ProcessingErrorCode) : 'extraction_failed';
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : typeof err === 'string' ? err : 'extraction failed';
  return { code, message };
}

export type { Table };

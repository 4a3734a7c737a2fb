/**
 * A PDF page without a usable text layer: rendered with pdf.js' own canvas factory
 * (@napi-rs/canvas under Node), OCRed like an image, and returned in PDF points so it matches
 * the digital path.
 */
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ExtractError, type ExtractOptions, type PageLayout } from '../types.js';
import { rgbToGray, type GrayImage } from './gray.js';
import { layoutFromGray } from './page.js';
import { workingScale } from './decode.js';

/** Scanned pages are rendered at 300 dpi: Tesseract's models are trained on ~300 dpi text. */
export const RENDER_DPI = 300;

/** Grey pages kept by `layoutFromPdfPage` for one more look, until `grayOfPdfPage` takes them. */
const kept = new WeakMap<PDFPageProxy, { gray: GrayImage; scale: number; maxMegapixels: number }>();

interface CanvasAndContext {
  canvas: { width: number; height: number } | null;
  context: {
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  } | null;
}
export interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(entry: CanvasAndContext): void;
}

/** The canvas factory pdf.js renders a page with (its own, @napi-rs/canvas under Node). */
export function canvasFactoryOf(page: PDFPageProxy, doc?: PDFDocumentProxy): CanvasFactory {
  // PDFDocumentProxy.canvasFactory is public in pdfjs-dist 5; a page reaches the same object
  // through its transport when the document is not at hand.
  const f = (doc as unknown as { canvasFactory?: CanvasFactory } | undefined)?.canvasFactory ??
    (page as unknown as { _transport?: { canvasFactory?: CanvasFactory } })._transport?.canvasFactory;
  if (!f) throw new ExtractError('extraction_failed', 'pdf.js gave no canvas factory to render a scanned page');
  return f;
}

/**
 * Paints `page` at `scale` on pdf.js' canvas and hands its RGBA pixels to `use` (before the
 * canvas is given back). The one PDF-page render of the engine: scanned pages for OCR and page
 * images for viewers both come through here.
 */
export async function paintPdfPage<T>(
  page: PDFPageProxy,
  pageNumber: number,
  scale: number,
  doc: PDFDocumentProxy | undefined,
  use: (rgba: Uint8ClampedArray, width: number, height: number) => T | Promise<T>,
): Promise<T> {
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const factory = canvasFactoryOf(page, doc);
  const entry = factory.create(width, height);
  try {
    await page.render({ canvasContext: entry.context as never, canvas: entry.canvas as never, viewport }).promise;
    return await use(entry.context!.getImageData(0, 0, width, height).data, width, height);
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError('corrupt_file', `page ${pageNumber} cannot be rendered: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    factory.destroy(entry);
  }
}

/**
 * `page` painted grey as it is read: 300 dpi, the long side capped as an image's (workingScale),
 * never above the page pixel limit; `scale` is pixels per PDF point.
 */
export async function grayOfPdfPage(page: PDFPageProxy, pageNumber: number, opts: ExtractOptions, doc?: PDFDocumentProxy): Promise<{ gray: GrayImage; scale: number }> {
  const held = kept.get(page);
  if (held) {
    kept.delete(page);
    if (held.maxMegapixels === opts.maxMegapixels) return { gray: held.gray, scale: held.scale };
  }
  const base = page.getViewport({ scale: 1 });
  let scale = RENDER_DPI / 72;
  // A poster-sized page at 300 dpi would be hundreds of megapixels: cap the long side the
  // same way as an image (workingScale), and never above the page pixel limit.
  const w300 = base.width * scale;
  const h300 = base.height * scale;
  scale *= workingScale(w300, h300) < 1 ? workingScale(w300, h300) : 1;
  const limit = opts.maxMegapixels * 1e6;
  if (base.width * scale * base.height * scale > limit) scale = Math.sqrt(limit / (base.width * base.height));
  // The same grey as an image file's (coloured ink counts dark); pdf.js paints the page white first.
  const gray = await paintPdfPage(page, pageNumber, scale, doc, (rgba, width, height) =>
    rgbToGray(new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength), 4, width, height),
  );
  return { gray, scale };
}

/**
 * Renders, OCRs and lays out one PDF page; boxes in PDF points, origin top-left. With `keep`, a
 * copy of the grey page made before it is read is kept for the next `grayOfPdfPage` of the same
 * page (the carried step looks at a scanned page's checkboxes in the same pixels).
 */
export async function layoutFromPdfPage(page: PDFPageProxy, pageNumber: number, opts: ExtractOptions, doc?: PDFDocumentProxy, keep = false): Promise<PageLayout> {
  const base = page.getViewport({ scale: 1 });
  const { gray, scale } = await grayOfPdfPage(page, pageNumber, opts, doc);
  if (keep) kept.set(page, { gray: { ...gray, data: gray.data.slice() }, scale, maxMegapixels: opts.maxMegapixels });
  return layoutFromGray(gray, { page: pageNumber, unitsScale: scale, width: base.width, height: base.height, dpi: scale * 72 }, opts);
}

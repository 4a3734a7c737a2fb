/**
 * Page images for the web app's document view: one page of a PDF (through pdf.js, with the
 * document's own canvas factory) or of an image (through sharp, EXIF orientation applied) as a
 * PNG of a given width. `page_width`/`page_height` are the page in the units of the engine's
 * boxes (PDF points, or image pixels), so a viewer can draw a table's `bbox` on the image.
 */
import sharp from 'sharp';
import { openPdf, pdfError } from './pdf/load.js';
import { checkPdfBounds } from './pdf/bounds.js';
import { paintPdfPage } from './raster/pdf-page.js';
import { sniffType } from './sniff.js';
import { ExtractError } from './types.js';

/** A rendered page. */
export interface RenderedPage {
  png: Buffer;
  /** The PNG's size in pixels. */
  width: number;
  height: number;
  /** The page in the engine's units (PDF points, image pixels). */
  page_width: number;
  page_height: number;
  page_count: number;
}

/** What a render may cost: the extraction's page pixel, page count and inflation limits. */
export interface RenderLimits {
  maxMegapixels: number;
  maxPages: number;
  maxInflatedBytes: number;
}

/** Renders page `page` (1-based) of `bytes` at `width` pixels wide (never above the pixel limit). */
export async function renderPage(bytes: Uint8Array, page: number, width: number, limits: RenderLimits): Promise<RenderedPage> {
  const type = sniffType(bytes.subarray(0, 1024));
  if (!type) throw new ExtractError('unsupported_format', 'not a PDF, PNG, JPEG, TIFF or WebP file');
  return type === 'application/pdf' ? renderPdfPage(bytes, page, width, limits) : renderImagePage(bytes, page, width, limits);
}

/** The output size for a page of `w`×`h` units at `width` pixels wide, capped at the pixel limit. */
function fit(w: number, h: number, width: number, limits: RenderLimits): { width: number; height: number } {
  let out = width;
  const cap = limits.maxMegapixels * 1e6;
  if (out * ((out * h) / w) > cap) out = Math.floor(Math.sqrt((cap * w) / h));
  return { width: Math.max(1, Math.round(out)), height: Math.max(1, Math.round((out * h) / w)) };
}

function noSuchPage(page: number, count: number): ExtractError {
  return new ExtractError('too_many_pages', `page ${page} does not exist: the document has ${count} page${count === 1 ? '' : 's'}`);
}

async function renderPdfPage(bytes: Uint8Array, n: number, width: number, limits: RenderLimits): Promise<RenderedPage> {
  // The extraction's own bound on inflated streams and image sizes, before pdf.js holds any of it.
  await checkPdfBounds(bytes, limits);
  const doc = await openPdf(bytes, limits.maxMegapixels);
  try {
    if (n > doc.numPages || n > limits.maxPages) throw noSuchPage(n, doc.numPages);
    const page = await doc.getPage(n).catch((err: unknown) => {
      throw pdfError(err);
    });
    const base = page.getViewport({ scale: 1 });
    const size = fit(base.width, base.height, width, limits);
    // A quarter pixel over: the canvas floors the viewport, which must not lose the last column.
    return await paintPdfPage(page, n, (size.width + 0.25) / base.width, doc, async (rgba, w, h) => {
      const png = await sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width: w, height: h, channels: 4 } })
        .png({ compressionLevel: 6 })
        .toBuffer();
      return { png, width: w, height: h, page_width: base.width, page_height: base.height, page_count: doc.numPages };
    });
  } finally {
    await doc.destroy();
  }
}

async function renderImagePage(bytes: Uint8Array, n: number, width: number, limits: RenderLimits): Promise<RenderedPage> {
  const pixelLimit = Math.floor(limits.maxMegapixels * 1e6);
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    const count = meta.format === 'tiff' ? Math.max(1, meta.pages ?? 1) : 1;
    if (n > count || n > limits.maxPages) throw noSuchPage(n, count);
    const m = n === 1 ? meta : await sharp(bytes, { page: n - 1, limitInputPixels: false }).metadata();
    const w = m.autoOrient?.width ?? m.width ?? 0;
    const h = m.autoOrient?.height ?? m.height ?? 0;
    if (w <= 0 || h <= 0) throw new ExtractError('corrupt_file', `page ${n} has no size in its header`);
    if (w * h > pixelLimit) throw new ExtractError('image_too_large', `page ${n} is ${w}×${h} pixels; the limit is ${limits.maxMegapixels} megapixels a page`);
    const size = fit(w, h, Math.min(width, w), limits);
    const png = await sharp(bytes, { page: n - 1, pages: 1, limitInputPixels: pixelLimit, failOn: 'truncated' })
      .rotate()
      .resize(size.width, size.height, { fit: 'fill' })
      .png({ compressionLevel: 6 })
      .toBuffer();
    return { png, ...size, page_width: w, page_height: h, page_count: count };
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError('corrupt_file', `the image cannot be read: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}

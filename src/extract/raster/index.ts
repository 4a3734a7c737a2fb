/**
 * The raster path: image files (PNG, JPEG, TIFF — every page —, WebP) and PDF pages without a
 * text layer → `PageLayout`s with OCR words (confidence 0..1) and rulings found in the pixels.
 */
import type { SniffedType } from '../sniff.js';
import type { ExtractOptions, PageLayout } from '../types.js';
import { decodePage, readHeader } from './decode.js';
import { layoutFromGray } from './page.js';
import { closeOcr as closeJs } from './ocr-js.js';
import { closeAddon } from './ocr-addon.js';
import { closePaddle } from './ocr-paddle.js';

export { layoutFromPdfPage, RENDER_DPI } from './pdf-page.js';
export { nativeAvailable } from './ocr-native.js';
export { readHeader } from './decode.js';
export { readImageLines } from './lines.js';
export { addonAvailable, addonVersion } from './ocr-addon.js';

/** Ends this process' OCR engines: tesseract.js workers, the addon's and PP-OCR's loaded models (call at shutdown). */
export async function closeOcr(): Promise<void> {
  await Promise.all([closeJs(), closeAddon(), closePaddle()]);
}

/** Long side of an A4 page in inches: an image without a stated density is taken as a whole page. */
const A4_LONG_INCHES = 11.7;

/**
 * One layout per image page, in pixels of the image as the user sent it (after EXIF orientation
 * and levelling of small skew about the page centre). Pages are decoded one at a time, so memory
 * is bounded by the largest page, not the file.
 */
export async function extractImagePages(bytes: Uint8Array, type: SniffedType, opts: ExtractOptions): Promise<PageLayout[]> {
  const header = await readHeader(bytes, type, opts);
  const layouts: PageLayout[] = [];
  for (let i = 0; i < header.pages.length; i++) {
    const { width, height, density } = header.pages[i];
    const { image, scale } = await decodePage(bytes, header, i, opts);
    // An image's stated density is often a default (72 or 96 for screenshots and phone photos);
    // only trust it from 150 dpi up, as scanners write it.
    const dpi = density && density >= 150 ? density * scale : Math.max(70, (Math.max(width, height) * scale) / A4_LONG_INCHES);
    layouts.push(await layoutFromGray(image, { page: i + 1, unitsScale: scale, width, height, dpi }, opts));
  }
  return layouts;
}

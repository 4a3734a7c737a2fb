/**
 * One PDF page as a `PageLayout`: words from the text layer and ruling lines from the drawing,
 * in page units (points, origin top-left, /Rotate applied).
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageLayout } from '../types.js';
import { pageWords } from './words.js';
import { pageDrawing } from './rulings.js';

/** Fewer text-layer characters than this on a page means a scan: it goes to OCR instead. */
const MIN_TEXT_CHARS = 20;
/** ... but only when images cover this share of the page: a blank or nearly blank page has nothing to read. */
const MIN_IMAGE_SHARE = 0.25;

/** The page's layout from its text layer, or null when it is a scan (images and no usable text layer). */
export async function textLayout(page: PDFPageProxy, pageNumber: number): Promise<PageLayout | null> {
  const viewport = page.getViewport({ scale: 1 });
  const [words, { rulings, imageShare }] = await Promise.all([pageWords(page), pageDrawing(page)]);
  const chars = words.reduce((s, w) => s + w.text.length, 0);
  // Text made of U+FFFD or private-use glyphs only (fonts without a Unicode map) is unusable too.
  const readable = words.reduce((s, w) => s + w.text.replace(/[\uFFFD\uE000-\uF8FF]/g, '').length, 0);
  if ((chars < MIN_TEXT_CHARS || readable < chars / 2) && imageShare >= MIN_IMAGE_SHARE) return null;
  return { page: pageNumber, width: viewport.width, height: viewport.height, words, rulings };
}

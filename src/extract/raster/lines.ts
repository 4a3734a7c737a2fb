/**
 * A second reading of a few lines of an image file's pages, each cropped from the decoded page,
 * enlarged to a steady glyph height and read as one line of text (PSM 7): for a value a vendor
 * memory says stands on a line the page's reading lost (`INV Date` read without its date).
 */
import type { SniffedType } from '../sniff.js';
import type { BBox, ExtractOptions } from '../types.js';
import { decodePage, readHeader } from './decode.js';
import { cropRect, resizeGray, type GrayImage } from './gray.js';
import { addonAvailable, recognizeAddonMany } from './ocr-addon.js';
import { TARGET_GLYPH_HEIGHT } from './text-size.js';

/** A line's box is this much of the crop's height: glyphs about 1.5× the target, as Tesseract reads a lone line best. */
const LINE_GLYPH = 1.5 * TARGET_GLYPH_HEIGHT;
const MAX_UPSCALE = 4;

/** The text of each region (`page` 1-based, box in the layout's units: the image's pixels), '' where the addon is missing or nothing is read. */
export async function readImageLines(bytes: Uint8Array, type: SniffedType, regions: { page: number; bbox: BBox }[], opts: ExtractOptions): Promise<string[]> {
  const out = regions.map(() => '');
  if (!regions.length || !addonAvailable(opts.ocrLangs)) return out;
  const header = await readHeader(bytes, type, opts);
  for (const page of new Set(regions.map((r) => r.page))) {
    if (page < 1 || page > header.pages.length) continue;
    const { image, scale } = await decodePage(bytes, header, page - 1, opts);
    const at = regions.flatMap((r, i) => (r.page === page ? [i] : []));
    const crops: GrayImage[] = [];
    for (const i of at) {
      const [x0, y0, x1, y1] = regions[i]!.bbox.map((v) => v * scale) as BBox;
      const c = cropRect(image, Math.floor(x0), Math.floor(y0), Math.ceil(x1), Math.ceil(y1));
      const up = Math.min(MAX_UPSCALE, Math.max(1, LINE_GLYPH / Math.max(1, (y1 - y0) / 2.2)));
      crops.push(up > 1.1 ? await resizeGray(c, Math.round(c.width * up), Math.round(c.height * up)) : c);
    }
    const read = await recognizeAddonMany(crops, { langs: opts.ocrLangs, psm: 7, dpi: 300, deadlineAt: opts.deadlineAt });
    at.forEach((i, k) => (out[i] = read[k]!.map((w) => w.text).join(' ')));
  }
  return out;
}

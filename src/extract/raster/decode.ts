/**
 * Safe image decoding with sharp: the header is read first (sharp's `metadata()` parses no pixel
 * data), the page size is checked against the megapixel limit before anything is decoded, and
 * each page is then decoded alone, oriented, greyscaled and scaled to an OCR-friendly size.
 */
import sharp, { type Metadata } from 'sharp';
import { ExtractError, type ExtractOptions } from '../types.js';
import type { SniffedType } from '../sniff.js';
import { rgbToGray, type GrayImage } from './gray.js';

// Decoded pixels are used once; libvips' operation cache would only keep them alive. One libvips
// thread per call: the engine already runs one document per core.
sharp.cache(false);
sharp.concurrency(1);

/** What the header says about one page, in the orientation the user sees (after EXIF). */
export interface PageHeader {
  width: number;
  height: number;
  /** Pixels per inch from the header, when it gives a plausible one. */
  density: number | null;
  /** A colour page (RGB of any depth, CMYK): decoded to 8-bit sRGB and greyed here (decodePage). */
  colour: boolean;
}

/** The header of an image file: one entry per page (a multi-page TIFF has several). */
export interface ImageHeader {
  format: string;
  pages: PageHeader[];
}

const FORMAT_OF: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/tiff': 'tiff',
  'image/webp': 'webp',
};

function corrupt(type: string, err: unknown): ExtractError {
  const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new ExtractError('corrupt_file', `the ${type} image cannot be read: ${why}`);
}

function pixelLimit(opts: ExtractOptions): number {
  return Math.floor(opts.maxMegapixels * 1_000_000);
}

function checkSize(page: number, w: number, h: number, opts: ExtractOptions): void {
  if (w * h > pixelLimit(opts)) {
    const mp = ((w * h) / 1e6).toFixed(1);
    throw new ExtractError(
      'image_too_large',
      `page ${page} is ${w}×${h} pixels (${mp} megapixels); the limit is ${opts.maxMegapixels} megapixels a page`,
    );
  }
}

/**
 * Reads the header only and refuses the file (image_too_large, too_many_pages, corrupt_file)
 * before any pixel is decoded.
 */
export async function readHeader(bytes: Uint8Array, type: SniffedType, opts: ExtractOptions): Promise<ImageHeader> {
  const format = FORMAT_OF[type];
  if (!format) throw new ExtractError('unsupported_format', `${type} is not a raster image type`);
  if (bytes.byteLength === 0) throw new ExtractError('corrupt_file', 'the file is empty');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw corrupt(format, err);
  }
  if (meta.format !== format && !(format === 'tiff' && meta.format === 'tiff')) {
    throw new ExtractError('corrupt_file', `the file looks like ${format} but decodes as ${meta.format ?? 'nothing'}`);
  }
  const count = format === 'tiff' ? Math.max(1, meta.pages ?? 1) : 1;
  if (count > opts.maxPages) {
    throw new ExtractError('too_many_pages', `the image has ${count} pages; the limit is ${opts.maxPages}`);
  }
  const pages: PageHeader[] = [];
  for (let i = 0; i < count; i++) {
    // Pages of a TIFF may differ in size; each page's own header is read (still no pixels).
    let m = meta;
    if (i > 0) {
      try {
        m = await sharp(bytes, { page: i, limitInputPixels: false }).metadata();
      } catch (err) {
        throw corrupt(format, err);
      }
    }
    const w = m.autoOrient?.width ?? m.width ?? 0;
    const h = m.autoOrient?.height ?? m.height ?? 0;
    if (w <= 0 || h <= 0) throw new ExtractError('corrupt_file', `page ${i + 1} has no size in its header`);
    checkSize(i + 1, w, h, opts);
    const density = m.density && m.density >= 50 && m.density <= 2400 ? m.density : null;
    pages.push({ width: w, height: h, density, colour: m.space === 'cmyk' || (m.channels ?? 1) >= 3 });
  }
  return { format, pages };
}

/**
 * Decode at most this many pixels on the long side (≈ 300 dpi A4 is 3508): beyond it OCR gains
 * nothing and the per-page buffers (grey, ink, labels) grow to hundreds of MB for 50 MP photos.
 * The text-size step (page.ts) then picks the final working resolution.
 */
export const MAX_LONG_SIDE = 3600;

/** Decoding scale (decoded pixels per original pixel) for a page of this size: only ever down. */
export function workingScale(width: number, height: number): number {
  const long = Math.max(width, height);
  return long > MAX_LONG_SIDE ? MAX_LONG_SIDE / long : 1;
}

/**
 * Decodes page `index` (0-based) of an image whose header `readHeader` accepted: EXIF orientation
 * applied, one grey channel, scaled down by `workingScale` when huge. `limitInputPixels` is the second guard,
 * `failOn: 'truncated'` turns a cut-off file into corrupt_file instead of a grey half page.
 */
export async function decodePage(bytes: Uint8Array, header: ImageHeader, index: number, opts: ExtractOptions): Promise<{ image: GrayImage; scale: number }> {
  const page = header.pages[index];
  const scale = workingScale(page.width, page.height);
  try {
    let pipe = sharp(bytes, {
      page: index,
      pages: 1,
      limitInputPixels: pixelLimit(opts),
      failOn: 'truncated',
      autoOrient: true,
    }).flatten({ background: '#ffffff' });
    if (scale !== 1) {
      pipe = pipe.resize({
        width: Math.max(1, Math.round(page.width * scale)),
        height: Math.max(1, Math.round(page.height * scale)),
        fit: 'fill',
        kernel: 'lanczos3',
      });
    }
    // Colour pages as 8-bit sRGB, greyed here (rgbToGray: coloured ink counts dark); grey
    // pages (8- or 16-bit) libvips converts to 8-bit grey.
    pipe = page.colour ? pipe.toColourspace('srgb') : pipe.grayscale().extractChannel(0);
    const { data, info } = await pipe.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    const px = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    let image: GrayImage;
    if (info.channels === 1) image = { data: px, width: info.width, height: info.height };
    else if (page.colour && info.channels >= 3) image = rgbToGray(px, info.channels, info.width, info.height);
    else throw new Error(`expected one channel, got ${info.channels}`);
    return { image, scale: info.width / page.width };
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(msg)) throw new ExtractError('image_too_large', `page ${index + 1} exceeds ${opts.maxMegapixels} megapixels`);
    throw corrupt(header.format, err);
  }
}

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { readHeader, decodePage } from '../../../src/extract/raster/decode.js';
import { extractImagePages } from '../../../src/extract/raster/index.js';
import { DEFAULT_EXTRACT_OPTIONS, ExtractError } from '../../../src/extract/types.js';

const FIX = 'test/fixtures/images';
const opts = DEFAULT_EXTRACT_OPTIONS;

function chunk(type: string, body: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  const tb = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(tb) >>> 0);
  return Buffer.concat([len, tb, crc]);
}

/**
 * A PNG whose header says 14000×14000 followed by deflated zero rows (the first 1000 rows only:
 * deflating all 196 MB takes 7 s, and the refusal must come from the header anyway).
 */
function pixelBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(14000, 0);
  ihdr.writeUInt32BE(14000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc(14001 * 1000), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    expect(err).toBeInstanceOf(ExtractError);
    return (err as ExtractError).code;
  }
}

describe('raster decoding', () => {
  it('refuses a 14000×14000 pixel bomb from its header, without decoding it', async () => {
    const bomb = pixelBomb();
    expect(bomb.length).toBeLessThan(1_000_000);
    const before = process.memoryUsage().rss;
    const err = await extractImagePages(bomb, 'image/png', opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractError);
    expect((err as ExtractError).code).toBe('image_too_large');
    expect((err as ExtractError).message).toMatch(/14000×14000.*196\.0 megapixels.*50 megapixels/);
    // Decoding would need 196 MB for the grey pixels alone.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('turns empty, garbage and truncated files into corrupt_file', async () => {
    const png = readFileSync(`${FIX}/grid-clean.png`);
    const jpg = readFileSync(`${FIX}/stream-photo.jpg`);
    expect(await codeOf(extractImagePages(new Uint8Array(0), 'image/png', opts))).toBe('corrupt_file');
    const garbage = Buffer.concat([png.subarray(0, 8), Buffer.alloc(500, 0x41)]);
    expect(await codeOf(extractImagePages(garbage, 'image/png', opts))).toBe('corrupt_file');
    expect(await codeOf(extractImagePages(png.subarray(0, Math.floor(png.length / 2)), 'image/png', opts))).toBe('corrupt_file');
    expect(await codeOf(extractImagePages(jpg.subarray(0, Math.floor(jpg.length / 2)), 'image/jpeg', opts))).toBe('corrupt_file');
  });

  it('reads every page of a multi-page TIFF and refuses too many pages from the header', async () => {
    const tiff = readFileSync(`${FIX}/two-page.tiff`);
    const h = await readHeader(tiff, 'image/tiff', opts);
    expect(h.pages).toHaveLength(2);
    expect(await codeOf(readHeader(tiff, 'image/tiff', { ...opts, maxPages: 1 }))).toBe('too_many_pages');
    const { image } = await decodePage(tiff, h, 1, opts);
    expect(image.width * image.height).toBe(image.data.length);
  });

  it('applies EXIF orientation: a sideways-stored photo decodes upright', async () => {
    const jpg = readFileSync(`${FIX}/grid-exif6.jpg`);
    const stored = await sharp(jpg).metadata();
    expect(stored.orientation).toBe(6);
    expect(stored.width).toBeGreaterThan(stored.height!);
    const h = await readHeader(jpg, 'image/jpeg', opts);
    expect(h.pages[0].height).toBeGreaterThan(h.pages[0].width);
    const { image } = await decodePage(jpg, h, 0, opts);
    expect(image.height).toBeGreaterThan(image.width);
  });

  it('guards a small limit too: a 1 MP limit refuses a 2 MP page', async () => {
    const png = readFileSync(`${FIX}/grid-clean.png`);
    expect(await codeOf(readHeader(png, 'image/png', { ...opts, maxMegapixels: 1 }))).toBe('image_too_large');
  });
  it('greys RGB, transparent RGBA and 16-bit RGB PNGs of one picture alike, and a grey PNG as it is', async () => {
    // A red-ish bar and a black bar on white; the RGBA copy has a transparent background.
    const w = 64;
    const h = 32;
    const rgba = Buffer.alloc(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        const [r, g, b, a] = y < 10 ? [200, 40, 30, 255] : y < 20 ? [0, 0, 0, 255] : [255, 255, 255, 0];
        rgba[i] = r;
        rgba[i + 1] = g;
        rgba[i + 2] = b;
        rgba[i + 3] = a;
      }
    }
    const raw = { raw: { width: w, height: h, channels: 4 as const } };
    const decode = async (png: Buffer) => (await decodePage(png, await readHeader(png, 'image/png', opts), 0, opts)).image.data;
    const fromRgba = await decode(await sharp(rgba, raw).png().toBuffer());
    const fromRgb = await decode(await sharp(rgba, raw).flatten({ background: '#ffffff' }).png().toBuffer());
    const rgb16 = await sharp(rgba, raw).flatten({ background: '#ffffff' }).toColourspace('rgb16').png().toBuffer();
    expect(Array.from(fromRgba)).toEqual(Array.from(fromRgb));
    const c16 = await decode(rgb16);
    for (let i = 0; i < c16.length; i++) expect(Math.abs(c16[i] - fromRgb[i])).toBeLessThanOrEqual(1);
    // A grey PNG of those greys (8- and 16-bit) decodes to them.
    const greyRaw = { raw: { width: w, height: h, channels: 1 as const } };
    const grey = await sharp(Buffer.from(fromRgb), greyRaw).png().toBuffer();
    const grey16 = await sharp(Buffer.from(fromRgb), greyRaw).toColourspace('grey16').png().toBuffer();
    expect(Array.from(await decode(grey))).toEqual(Array.from(fromRgb));
    const g16 = await decode(grey16);
    for (let i = 0; i < g16.length; i++) expect(Math.abs(g16[i] - fromRgb[i])).toBeLessThanOrEqual(1);
    // Paper white, the red bar dark grey (its luminance, 98, darkened by its saturation), the black bar black.
    expect([fromRgb[0], fromRgb[15 * w], fromRgb[25 * w]]).toEqual([expect.any(Number), 0, 255]);
    expect(fromRgb[0]).toBeGreaterThan(1);
    expect(fromRgb[0]).toBeLessThan(60);
  });
});

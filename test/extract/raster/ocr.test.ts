import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';
import { extractImagePages, closeOcr, nativeAvailable, addonAvailable } from '../../../src/extract/raster/index.js';
import { cancelAllRecognitions, openmpRegionsRun, recognizeAddon, recognizeAddonMany } from '../../../src/extract/raster/ocr-addon.js';
import sharp from 'sharp';
import { languageDir } from '../../../src/extract/raster/ocr-js.js';
import { recognizeNativeMany } from '../../../src/extract/raster/ocr-native.js';
import { cropFor } from '../../../src/extract/raster/rescue.js';
import { toPgm } from '../../../src/extract/raster/gray.js';
import { debianPackage } from '../../../src/extract/raster/languages.js';
import { scannedPagePng } from '../../e2e/fixtures.js';
import { extractDocument } from '../../../src/extract/index.js';
import { DEFAULT_EXTRACT_OPTIONS, ExtractError } from '../../../src/extract/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ICDAR_DIR, REPO_ROOT } from '../../paths.js';

const FIX = 'test/fixtures/images';
const photo = readFileSync(`${FIX}/stream-photo.jpg`);
const numbers = (words: { text: string }[]) => words.map((w) => w.text).filter((t) => /^\d+\.\d\d$/.test(t)).sort();

afterAll(closeOcr);

describe('OCR', () => {
  it('reads words with boxes in the sent image pixels and confidences 0..1, offline', { timeout: 180_000 }, async () => {
    expect(languageDir('eng')).toMatch(/@tesseract\.js-data\/eng\/4\.0\.0_best_int$/);
    // tesseract.js explicitly: the default (auto) picks the program where it is installed.
    const [page] = await extractImagePages(photo, 'image/jpeg', { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'js' });
    expect([page.page, page.width, page.height]).toEqual([1, 1300, 1796]);
    const total = page.words.find((w) => w.text === '326.34');
    expect(total).toBeDefined();
    // Drawn at x ≈ 1130 − width, y ≈ 893 in the 150 dpi page (turned 2° about the centre).
    expect(total!.x1).toBeGreaterThan(1100);
    expect(total!.x1).toBeLessThan(1160);
    expect(total!.y0).toBeGreaterThan(860);
    expect(total!.y1).toBeLessThan(925);
    for (const w of page.words) {
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
      expect(w.x1).toBeGreaterThan(w.x0);
      expect(w.size).toBeGreaterThan(0);
    }
    expect(numbers(page.words)).toEqual(['108.00', '19.99', '271.95', '326.34', '54.00', '54.39', '6.40', '64.00', '99.95']);
    // The header underline, found in the pixels, level after deskew.
    const under = page.rulings.find((r) => r.y0 === r.y1 && r.x1 - r.x0 > 900);
    expect(under).toBeDefined();
  });

  it.skipIf(!nativeAvailable('eng'))('the tesseract program gives the same result shape and numbers', { timeout: 180_000 }, async () => {
    const [page] = await extractImagePages(photo, 'image/jpeg', { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'program' });
    expect(numbers(page.words)).toEqual(['108.00', '19.99', '271.95', '326.34', '54.00', '54.39', '6.40', '64.00', '99.95']);
    expect(page.words.every((w) => w.confidence !== null && w.confidence >= 0 && w.confidence <= 1)).toBe(true);
  });

  // .ci/run builds the addon and fails when it does not load, so in CI this never skips.
  it.skipIf(!addonAvailable('eng') || !nativeAvailable('eng'))(
    'libtesseract in-process (the addon, what native and auto pick) reads word for word what the program reads',
    { timeout: 180_000 },
    async () => {
      const opts = { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'native' as const };
      const regions = openmpRegionsRun()!;
      const [inProcess] = await extractImagePages(photo, 'image/jpeg', opts);
      // libtesseract's OpenMP regions (one per LSTM time step) ran in the addon's serial stand-ins,
      // not through libgomp's team of one and its futex call each, as in the program.
      expect(openmpRegionsRun()! - regions).toBeGreaterThan(1000);
      const [program] = await extractImagePages(photo, 'image/jpeg', { ...opts, ocrEngine: 'program' });
      expect(inProcess.words.length).toBeGreaterThan(40);
      // Same library, same model, same 1-bit page: the same words, boxes and confidences.
      expect(inProcess.words).toEqual(program.words);
      expect(inProcess.rulings).toEqual(program.rulings);
      expect((await extractImagePages(photo, 'image/jpeg', { ...opts, ocrEngine: 'auto' }))[0].words).toEqual(inProcess.words);
    },
  );

  it.skipIf(!addonAvailable('eng'))('the addon refuses a pixel buffer smaller than its size, and missing languages, clearly', async () => {
    const err = await recognizeAddon({ data: new Uint8Array(10), width: 100, height: 100 }, { langs: 'eng', psm: 3, dpi: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractError);
    expect((err as ExtractError).message).toMatch(/smaller than width x height/);
    expect(addonAvailable('xyz')).toBe(false);
    // The engine still works after a refused call: a blank page has no words.
    const white = { data: new Uint8Array(200 * 60).fill(255), width: 200, height: 60 };
    expect(await recognizeAddon(white, { langs: 'eng', psm: 3, dpi: 200 })).toEqual([]);
  });

  it.skipIf(!addonAvailable('eng'))(
    'a worker thread terminated mid-recognition (the document time limit) leaves the process alive',
    { timeout: 60_000 },
    () => {
      // The pool's time limit terminates the thread running a document; the recognition then
      // completes on a dying environment. This once aborted the whole server ("terminate called
      // after throwing an instance of 'Napi::Error'"), so it runs in a child process of its own.
      const thread = `
        const a = require(${JSON.stringify(`${process.cwd()}/native/build/Release/tablemill_ocr.node`)});
        const e = new a.Engine('eng', {});
        const w = 2000, h = 2800, px = new Uint8Array(w * h).fill(255);
        for (let i = 0; i < w * h; i++) if (((i * 2654435761) >>> 0) % 7 === 0) px[i] = 0;
        e.recognize(px, w, h, 200, 3, 0, true).then(() => console.log('finished before the terminate'));
        require('node:worker_threads').parentPort.postMessage('started');`;
      const main = `
        const { Worker } = require('node:worker_threads');
        (async () => {
          for (let i = 0; i < 3; i++) {
            const wk = new Worker(${JSON.stringify(thread)}, { eval: true });
            await new Promise((r) => wk.once('message', r));
            await new Promise((r) => setTimeout(r, 100));
            await wk.terminate();
          }
          console.log('alive');
        })();`;
      const r = spawnSync(process.execPath, ['-e', main], { encoding: 'utf8', timeout: 50_000, env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
      expect(r.stderr).not.toMatch(/terminate called|Aborted/);
      expect({ status: r.status, signal: r.signal }).toEqual({ status: 0, signal: null });
      expect(r.stdout).toMatch(/alive/);
    },
  );

  it.skipIf(!addonAvailable('eng'))('the addon stops at the document deadline and on cancelAll, saying which, and reads on after', async () => {
    // A 300 dpi A4 page of 53 text lines: seconds of recognition.
    const { data, info } = await sharp(scannedPagePng()).grayscale().raw().toBuffer({ resolveWithObject: true });
    const page = { data: Uint8Array.from(data, (v) => (v < 128 ? 0 : 255)), width: info.width, height: info.height };
    const o = { langs: 'eng', psm: 3, dpi: 200 };
    let t = Date.now();
    const late = await recognizeAddon(page, { ...o, deadlineAt: Date.now() + 200 }).catch((e: unknown) => e);
    expect((late as ExtractError).message).toMatch(/past the document's time limit/);
    const lateMs = Date.now() - t;
    t = Date.now();
    const running = recognizeAddon(page, o).catch((e: unknown) => e);
    setTimeout(cancelAllRecognitions, 200);
    expect(((await running) as ExtractError).message).toMatch(/cancelled \(the service is stopping\)/);
    const cancelMs = Date.now() - t;
    t = Date.now();
    expect((await recognizeAddon(page, { ...o, deadlineAt: Date.now() + 60_000 })).length).toBeGreaterThan(500);
    const fullMs = Date.now() - t;
    // Both stop well before a full recognition of the page would.
    expect(lateMs).toBeLessThan(fullMs / 2);
    expect(cancelMs).toBeLessThan(fullMs / 2);
    const white = { data: new Uint8Array(200 * 60).fill(255), width: 200, height: 60 };
    expect(await recognizeAddon(white, o)).toEqual([]);
  }, 60_000);

  it.skipIf(!nativeAvailable('eng'))('native tesseract reads several crops in one run, each crop its own words, in order', { timeout: 60_000 }, async () => {
    // A level scan without EXIF, so the layout's word boxes are pixels of the file itself.
    const clean = readFileSync(`${FIX}/grid-clean.png`);
    const { data, info } = await sharp(clean).grayscale().raw().toBuffer({ resolveWithObject: true });
    const page = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
    expect(info.channels).toBe(1);
    const [layout] = await extractImagePages(clean, 'image/png', { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: 'native' });
    const sure = layout.words.filter((w) => w.confidence! > 0.9 && /^[A-Za-z0-9.]{4,}$/.test(w.text)).slice(0, 3);
    expect(sure).toHaveLength(3);
    const crops = sure.map((w) => (cropFor(page, { x0: Math.round(w.x0), y0: Math.round(w.y0), x1: Math.round(w.x1), y1: Math.round(w.y1) }, w.size).crop));
    const o = { langs: 'eng', psm: 8, dpi: 200 };
    // Reversed, so the answer must follow the list, not the page. The padding may catch a
    // neighbour's edge, so each crop's first word is compared.
    const read = await recognizeNativeMany(crops.map(toPgm).reverse(), o);
    expect(read.map((ws) => ws[0]?.text)).toEqual(sure.map((w) => w.text).reverse());
    expect(await recognizeNativeMany([], o)).toEqual([]);
    if (addonAvailable('eng')) {
      // The addon reads the same crops on its loaded model, one after another, as the program does.
      const inProcess = await recognizeAddonMany([...crops].reverse(), o);
      expect(inProcess.map((ws) => ws.map((w) => w.text))).toEqual(read.map((ws) => ws.map((w) => w.text)));
    }
  });

  it('refuses a language whose traineddata is not installed, naming the Debian package, on every engine', async () => {
    // Ukrainian: a real Tesseract language that .ci/run does not install.
    const engines = ['auto', ...(nativeAvailable('eng') ? (['native', 'program'] as const) : [])] as const;
    for (const ocrEngine of engines) {
      const err = await extractImagePages(photo, 'image/jpeg', { ...DEFAULT_EXTRACT_OPTIONS, ocrLangs: 'eng+ukr', ocrEngine }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExtractError);
      expect((err as ExtractError).code).toBe('extraction_failed');
      expect((err as ExtractError).message).toMatch(nativeAvailable('eng') ? /not installed: ukr \(on Debian: apt-get install tesseract-ocr-ukr/ : /not installed: ukr/);
    }
    expect(debianPackage('chi_sim')).toBe('tesseract-ocr-chi-sim');
  });

  it.skipIf(!nativeAvailable('eng+deu'))('reads eng+deu on the addon and the program engines', { timeout: 120_000 }, async () => {
    const page = readFileSync(`${FIX}/de-invoice.png`);
    for (const ocrEngine of [...(addonAvailable('eng+deu') ? (['native'] as const) : []), 'program'] as const) {
      const res = await extractDocument(page, { ocrLangs: 'eng+deu', ocrEngine });
      expect(res.line_items.map((i) => i.amount)).toEqual([94, 179.8, 123.75]);
    }
  });

  it('a PDF page without a text layer is rendered, OCRed and returned in PDF points', { timeout: 180_000 }, async () => {
    const pdf = await PDFDocument.create();
    const png = await pdf.embedPng(readFileSync(`${FIX}/grid-clean.png`));
    const page = pdf.addPage([595.28, 841.89]);
    page.drawImage(png, { x: 0, y: 0, width: 595.28, height: 841.89 });
    const res = await extractDocument(await pdf.save());
    expect(res.page_count).toBe(1);
    expect(res.line_items.map((i) => i.amount)).toEqual([94, 179.8, 123.75, 18.75]);
    const t = res.tables[res.line_items[0].table_index];
    // The table spans x 110..1130 of the 1240 px (150 dpi) image: 52.8..542.4 pt.
    expect(t.bbox[0]).toBeGreaterThan(45);
    expect(t.bbox[2]).toBeLessThan(560);
    expect(t.bbox[3]).toBeLessThan(841.89);
    expect(t.cells.some((c) => c.confidence !== null && c.confidence > 0.5)).toBe(true);
  });
  it('reads a column of one-digit cells row by row, not as one word down the column', { timeout: 120_000 }, async () => {
    // ICDAR eu-027 page 3: a Max column of "90", then "1"s; page layout analysis took it for a
    // line of vertical text and read one tall word ("eee") over several rows.
    const dir = mkdtempSync(join(tmpdir(), 'tablemill-ocr-column-'));
    try {
      const png = join(dir, 'crop');
      const crop = ['-r', '200', '-png', '-f', '3', '-l', '3', '-x', '700', '-y', '420', '-W', '700', '-H', '700', '-singlefile'];
      expect(spawnSync('pdftoppm', [...crop, join(ICDAR_DIR, 'eu-027.pdf'), png]).status).toBe(0);
      const [page] = await extractImagePages(readFileSync(`${png}.png`), 'image/png', DEFAULT_EXTRACT_OPTIONS);
      const column = page.words.filter((w) => w.x0 > 560 && w.x0 < 600).sort((a, b) => a.y0 - b.y0);
      // No word spans two rows (glyphs 20 px high, rows 33 px apart; units are the crop's pixels).
      for (const w of column) expect(w.y1 - w.y0, w.text).toBeLessThan(30);
      const ones = column.filter((w) => w.text === '1');
      // 16 rows of "1", "9" or "8" in the crop: most read as single digits in their own rows.
      expect(ones.length).toBeGreaterThanOrEqual(10);
      expect(new Set(ones.map((w) => Math.round(w.y0))).size).toBe(ones.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a table printed sideways in small print upright, however unsure OSD is of its side', { timeout: 180_000 }, async () => {
    // The layout fixture turned-ruled (a ruled table turned a quarter on an upright page) at
    // 150 dpi: no sign of lying sideways before reading, read unsure all over as it lies, and OSD
    // answers at 1.5, below what it is trusted at otherwise.
    const dir = mkdtempSync(join(tmpdir(), 'tablemill-ocr-sideways-'));
    try {
      const png = join(dir, 'page');
      expect(spawnSync('pdftoppm', ['-r', '150', '-png', '-singlefile', join(REPO_ROOT, 'test/fixtures/layouts/turned-ruled.pdf'), png]).status).toBe(0);
      const [page] = await extractImagePages(readFileSync(`${png}.png`), 'image/png', DEFAULT_EXTRACT_OPTIONS);
      const text = page.words.map((w) => w.text);
      for (const word of ['Code', 'Population', 'Aguascalientes', '648765']) expect(text).toContain(word);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!addonAvailable('eng'))("keeps Tesseract's own diagnostics off the service's stderr", { timeout: 120_000 }, () => {
    // Page 11 of ICDAR eu-004 at 200 dpi made libtesseract print STATS dumps ("Mean= 0.00", …).
    const dir = mkdtempSync(join(tmpdir(), 'tablemill-ocr-stderr-'));
    try {
      const png = join(dir, 'page');
      expect(spawnSync('pdftoppm', ['-r', '200', '-png', '-f', '11', '-l', '11', '-singlefile', join(ICDAR_DIR, 'eu-004.pdf'), png]).status).toBe(0);
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/tablemill'), 'extract', '--ocr-engine', 'native', `${png}.png`], { encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).page_count).toBe(1);
      expect(r.stderr).not.toMatch(/Mean=|Total count=|Detected \d+ diacritics/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Child process of pdfjs.test.ts: reads a page image with the engine, then prints which of the
 * PDF reader's modules the process loaded (pdf.js and its worker, either @napi-rs/canvas build).
 */
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { extractDocument } from '../../../src/extract/index.js';

const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
const result = await extractDocument(png, { ocrEngine: 'fast' });
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@napi-rs/canvas'));
process.stdout.write(JSON.stringify({ pages: result.page_count, pdfjs: 'pdfjsWorker' in globalThis, canvas: loaded.length }) + '\n');

/**
 * `node bin/run-ts.js scripts/make-ocr-fixtures.ts`: test/fixtures/ocr/umlauts.png, a few lines
 * of German and money with letters PP-OCR's dictionary lacks (ö ß €) beside ones it has, drawn
 * with @napi-rs/canvas at about 150 dpi (the vote test, test/extract/raster/ocr-paddle.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';

const lines = ['Größe der Lieferung: 12 Stück', 'Straße 14, 50667 Köln', 'Summe netto 278,61 €', 'Umsatzsteuer 19 % 52,94 €'];
const canvas = createCanvas(900, 60 + lines.length * 56);
const ctx = canvas.getContext('2d');
ctx.fillStyle = '#fff';
ctx.fillRect(0, 0, canvas.width, canvas.height);
ctx.fillStyle = '#000';
ctx.font = '30px sans-serif';
lines.forEach((l, i) => ctx.fillText(l, 40, 60 + i * 56));
writeFileSync('test/fixtures/ocr/umlauts.png', canvas.toBuffer('image/png'));

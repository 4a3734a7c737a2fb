// Printed checkboxes (API.md §4c): square boxes drawn in ink on a scanned page (an image file, or
// a PDF whose page is that image), empty, crossed and ticked, and box glyphs in a text layer,
// become pairs with source "page" and value.selected.
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { glyphCheckboxes } from '../../../src/extract/carried/checkboxes.js';
import { extractDocument } from '../../../src/extract/index.js';
import type { PageLayout, Word } from '../../../src/extract/types.js';

/** A form at 150 dpi with three boxes (empty, crossed, ticked), scanned: blurred a little, JPEG. */
async function scannedForm(): Promise<Buffer> {
  const canvas = createCanvas(1240, 700);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, 1240, 700);
  g.fillStyle = '#000';
  g.strokeStyle = '#000';
  g.font = '34px sans-serif';
  g.fillText('Delivery confirmation', 80, 100);
  const rows: Array<[string, 'empty' | 'cross' | 'tick']> = [
    ['Paid by card', 'empty'],
    ['Paid by transfer', 'cross'],
    ['Goods received complete', 'tick'],
  ];
  rows.forEach(([label, mark], i) => {
    const y = 200 + i * 120;
    g.lineWidth = 3;
    g.strokeRect(80, y - 30, 34, 34);
    g.lineWidth = 4;
    g.beginPath();
    if (mark === 'cross') {
      g.moveTo(86, y - 24);
      g.lineTo(108, y - 2);
      g.moveTo(108, y - 24);
      g.lineTo(86, y - 2);
    } else if (mark === 'tick') {
      g.moveTo(85, y - 14);
      g.lineTo(95, y - 2);
      g.lineTo(112, y - 32);
    }
    g.stroke();
    g.fillText(label, 140, y);
  });
  return sharp(canvas.toBuffer('image/png')).blur(0.8).jpeg({ quality: 85 }).toBuffer();
}

const word = (text: string, x0: number, y0 = 100): Word => ({ text, x0, y0, x1: x0 + text.length * 6, y1: y0 + 10, size: 10, confidence: null });

describe('printed checkboxes', () => {
  it('reads empty, crossed and ticked boxes on a scan with their labels', async () => {
    const r = await extractDocument(await scannedForm(), { embedded: 'ignore' });
    const boxes = r.key_value_pairs.filter((p) => p.value.selected !== undefined);
    expect(boxes.map((p) => [p.key.text, p.value.selected, p.source])).toEqual([
      ['Paid by card', false, 'page'],
      ['Paid by transfer', true, 'page'],
      ['Goods received complete', true, 'page'],
    ]);
    // The box's own place, in image pixels.
    const [x0, y0, x1, y1] = boxes[0]!.value.bbox;
    expect(Math.abs(x0 - 80)).toBeLessThan(4);
    expect(Math.abs(y0 - 170)).toBeLessThan(4);
    expect(Math.abs(x1 - 114)).toBeLessThan(4);
    expect(Math.abs(y1 - 204)).toBeLessThan(4);
  });

  it('reads the boxes of a scanned PDF page, in PDF points', async () => {
    // The scan as a PDF's only content: 1240×700 pixels at 150 dpi fill a 595.2×336 pt page.
    const doc = await PDFDocument.create();
    const scan = await doc.embedJpg(await scannedForm());
    doc.addPage([595.2, 336]).drawImage(scan, { x: 0, y: 0, width: 595.2, height: 336 });
    const r = await extractDocument(await doc.save(), { embedded: 'ignore' });
    const boxes = r.key_value_pairs.filter((p) => p.value.selected !== undefined);
    expect(boxes.map((p) => [p.key.text, p.value.selected, p.source, p.page])).toEqual([
      ['Paid by card', false, 'page', 1],
      ['Paid by transfer', true, 'page', 1],
      ['Goods received complete', true, 'page', 1],
    ]);
    // 80, 170, 114, 204 pixels at 150 dpi.
    boxes[0]!.value.bbox.forEach((v, i) => expect(Math.abs(v - [38.4, 81.6, 54.7, 97.9][i]!)).toBeLessThan(2));
  });

  it('reads box glyphs of a text layer, alone or starting a word', () => {
    const layout: PageLayout = {
      page: 1,
      width: 595,
      height: 842,
      rulings: [],
      words: [word('☒', 50), word('Express', 62), word('delivery', 110), word('☐Invoice', 200), word('by', 260), word('post', 280), word('Total', 50, 200)],
    };
    expect(glyphCheckboxes([layout]).map((p) => [p.key.text, p.value.text, p.value.selected, p.source])).toEqual([
      ['Express delivery', '☒', true, 'page'],
      ['Invoice by post', '☐', false, 'page'],
    ]);
  });
});

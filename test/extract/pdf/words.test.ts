/** Words from the text layer: boxes in page units (top-left origin), split and joined correctly. */
import { describe, expect, it } from 'vitest';
import { degrees } from 'pdf-lib';
import { pageWords } from '../../../src/extract/pdf/words.js';
import { firstPage, makePdf } from './helpers.js';

describe('pageWords', () => {
  it('places words top-left in points and splits runs on spaces', async () => {
    const bytes = await makePdf((page, font) => {
      page.drawText('Invoice total 1,234.56', { x: 50, y: 300, size: 12, font });
    });
    const words = await pageWords(await firstPage(bytes));
    expect(words.map((w) => w.text)).toEqual(['Invoice', 'total', '1,234.56']);
    const [first] = words;
    expect(first.x0).toBeCloseTo(50, 0);
    // Baseline at y=300 from the bottom of a 400 pt page is 100 pt from the top.
    expect(first.y1).toBeGreaterThan(100);
    expect(first.y0).toBeLessThan(100);
    expect(first.y0).toBeGreaterThan(85);
    expect(first.size).toBeCloseTo(12, 1);
    expect(first.confidence).toBeNull();
    expect(words[1].x0).toBeGreaterThan(first.x1);
  });

  it('joins glyph-per-run text into one word and keeps a real gap as two', async () => {
    const bytes = await makePdf((page, font) => {
      let x = 40;
      for (const ch of 'Widget') {
        page.drawText(ch, { x, y: 200, size: 10, font });
        x += font.widthOfTextAtSize(ch, 10);
      }
      page.drawText('42', { x: x + 30, y: 200, size: 10, font });
    });
    const words = await pageWords(await firstPage(bytes));
    expect(words.map((w) => w.text)).toEqual(['Widget', '42']);
  });

  it('applies /Rotate 90: text drawn turned in the content reads left to right on the landscape page', async () => {
    const bytes = await makePdf((page, font) => {
      // Turned 90° in PDF space, as producers of landscape pages draw it.
      page.drawText('Rotated page', { x: 250, y: 50, size: 10, font, rotate: degrees(90) });
    }, { width: 300, height: 400, rotate: 90 });
    const page = await firstPage(bytes);
    const vp = page.getViewport({ scale: 1 });
    expect([vp.width, vp.height]).toEqual([400, 300]);
    const words = await pageWords(page);
    expect(words.map((w) => w.text)).toEqual(['Rotated', 'page']);
    const [w] = words;
    // Viewport of /Rotate 90 maps PDF (x, y) to (y, x): the baseline start (250, 50) lands at (50, 250).
    expect(w.x1 - w.x0).toBeGreaterThan(w.y1 - w.y0);
    expect(w.x0).toBeCloseTo(50, 0);
    expect(w.y1).toBeGreaterThan(250);
    expect(w.y0).toBeLessThan(250);
    expect(words[1].x0).toBeGreaterThan(w.x1);
  });
});

/** Ruling lines from the operator list: strokes, thin filled rectangles, edges of wide fills. */
import { describe, expect, it } from 'vitest';
import { rgb } from 'pdf-lib';
import { pageDrawing } from '../../../src/extract/pdf/rulings.js';
import { mergeRulings } from '../../../src/extract/layout/prepare/rulings.js';
import { firstPage, makePdf } from './helpers.js';

describe('pageDrawing', () => {
  it('finds stroked lines, thin rectangles and the edges of filled boxes, in top-left page units', async () => {
    const bytes = await makePdf((page) => {
      page.drawLine({ start: { x: 50, y: 350 }, end: { x: 350, y: 350 }, thickness: 1 });
      page.drawRectangle({ x: 50, y: 300, width: 300, height: 0.8, color: rgb(0, 0, 0) });
      page.drawRectangle({ x: 100, y: 100, width: 100, height: 50, color: rgb(0.8, 0.8, 0.8) });
      page.drawRectangle({ x: 0, y: 0, width: 400, height: 400, color: rgb(1, 1, 1) }); // white: paints nothing
    });
    const { rulings, imageShare } = await pageDrawing(await firstPage(bytes));
    expect(imageShare).toBe(0);
    const r = mergeRulings(rulings);
    const hy = r.h.map((l) => Math.round(l.y0));
    // y is measured from the top of the 400 pt page.
    expect(hy).toEqual([50, 100, 250, 300]);
    expect(r.h[0].x0).toBeCloseTo(50, 0);
    expect(r.h[0].x1).toBeCloseTo(350, 0);
    expect(r.v.map((l) => Math.round(l.x0))).toEqual([100, 200]);
    expect(r.v[0].y0).toBeCloseTo(250, 0);
    expect(r.v[0].y1).toBeCloseTo(300, 0);
  });

  it('finds no rules between boxes shaded again in the grey they lie on, and finds them on another shade or on white', async () => {
    const grey = rgb(0.88, 0.88, 0.88);
    const bytes = await makePdf((page) => {
      // A grey cell 200-300 (page y 100-200 from the top) with each of its two text lines shaded again in its grey.
      page.drawRectangle({ x: 50, y: 200, width: 150, height: 100, color: grey });
      page.drawRectangle({ x: 52, y: 250, width: 146, height: 20, color: grey });
      page.drawRectangle({ x: 52, y: 230, width: 146, height: 20, color: grey });
      // A white cell beside it holding a grey box: that box shows.
      page.drawRectangle({ x: 250, y: 200, width: 100, height: 100, color: rgb(1, 1, 1) });
      page.drawRectangle({ x: 260, y: 240, width: 80, height: 20, color: grey });
    });
    const r = mergeRulings((await pageDrawing(await firstPage(bytes))).rulings);
    const left = r.h.filter((l) => l.x1 < 220).map((l) => Math.round(l.y0));
    expect(left).toEqual([100, 200]);
    const right = r.h.filter((l) => l.x0 > 220).map((l) => Math.round(l.y0));
    expect(right).toEqual([140, 160]);
  });

  it('merges a rule drawn in pieces and drops specks', async () => {
    const bytes = await makePdf((page) => {
      for (let x = 50; x < 350; x += 50) page.drawLine({ start: { x, y: 200 }, end: { x: x + 49, y: 200 }, thickness: 0.5 });
      page.drawLine({ start: { x: 10, y: 10 }, end: { x: 12, y: 10 }, thickness: 0.5 });
    });
    const r = mergeRulings((await pageDrawing(await firstPage(bytes))).rulings);
    expect(r.h).toHaveLength(1);
    expect(r.h[0].x0).toBeCloseTo(50, 0);
    expect(r.h[0].x1).toBeCloseTo(349, 0);
  });
});

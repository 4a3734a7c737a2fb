import { describe, expect, it } from 'vitest';
import { impossibleDate, possibleDate, secondLook } from '../../../src/extract/raster/rescue.js';
import type { OcrWord } from '../../../src/extract/raster/tsv.js';

const word = (text: string, confidence: number, x0 = 100, y0 = 50, x1 = 300, y1 = 74): OcrWord => ({ text, confidence, x0, y0, x1, y1, lineHeight: 24, image: 1 });

describe('second look at impossible dates', () => {
  it('tells dates no calendar has (a month above 12, a mark for a digit) from possible ones', () => {
    // Misreadings of faded receipt dates (sroie-dev): 29/10/2017 as 29/18/2017, 03/02/2018 as 03/0:/2018.
    for (const t of ['29/18/2017', '03/0:/2018', '45.13.2020', '32-13-18']) expect(impossibleDate(t), t).toBe(true);
    // Either order fits: 12/31/2018 is month-first, 31/12/2018 day-first.
    for (const t of ['29/10/2017', '12/31/2018', '07-02-17', ':28/04/18', 'Date:24/07/2017']) expect(impossibleDate(t), t).toBe(false);
    // Not a date at all: amounts, phone numbers, two-part figures.
    for (const t of ['12.60', '03-77343662', '1706/2018', '2005/06']) expect([impossibleDate(t), possibleDate(t)], t).toEqual([false, false]);
    expect(possibleDate('03/02/2018')).toBe(true);
  });

  it('reads an impossible date again, however sure, and takes a possible reading even when unsure', async () => {
    const img = { data: new Uint8Array(400 * 130).fill(255), width: 400, height: 130 };
    const crops: number[] = [];
    const read = async (c: { width: number }[]) => {
      crops.push(c.length);
      // The enlarged crop reads the right digits, with the confidence Tesseract gave (0.45).
      return c.map(() => [word('03/02/2018', 0.45, 10, 10, 250, 40)]);
    };
    const { words } = await secondLook(img, [], [word('03/0:/2018', 0.93), word('TOTAL', 0.97, 100, 90, 180, 114)], 24, read);
    expect(crops).toEqual([1]);
    expect(words.map((w) => w.text).sort()).toEqual(['03/02/2018', 'TOTAL']);
    // A possible date stays unless a surer reading comes: an unsure re-reading does not replace it.
    const kept = await secondLook(img, [], [word('03/02/2018', 0.55), word('TOTAL', 0.97, 100, 90, 180, 114)], 24, async (c) => c.map(() => [word('08/02/2018', 0.45, 10, 10, 250, 40)]));
    expect(kept.words.map((w) => w.text).sort()).toEqual(['03/02/2018', 'TOTAL']);
    // A re-reading that lost a digit is no fix of the impossible date it overlaps.
    const short = await secondLook(img, [], [word('83-02-16', 0.9), word('TOTAL', 0.97, 100, 90, 180, 114)], 24, async (c) => c.map(() => [word('5-02-16', 0.45, 10, 10, 250, 40)]));
    expect(short.words.map((w) => w.text).sort()).toEqual(['83-02-16', 'TOTAL']);
    // Nor does it replace a sure possible date it overlaps beside the impossible one.
    const both = await secondLook(img, [], [word('0:/02/2016', 0.9), word('03-02-16', 0.995, 120, 52, 280, 72)], 24, async (c) => c.map(() => [word('05/02/2016', 0.33, 10, 10, 250, 40)]));
    expect(both.words.map((w) => w.text).sort()).toEqual(['03-02-16', '0:/02/2016']);
  });
  it('without the unsure words (`fast`), reads again only impossible dates', async () => {
    const img = { data: new Uint8Array(400 * 130).fill(255), width: 400, height: 130 };
    const crops: number[] = [];
    const read = async (c: { width: number }[]) => {
      crops.push(c.length);
      return c.map(() => [word('03/02/2018', 0.95, 10, 10, 250, 40)]);
    };
    // An unsure short word and a very unsure long one are read again by default, not here.
    const page = [word('03/0:/2018', 0.93), word('N', 0.82, 100, 90, 120, 114), word('Subtotaf', 0.41, 200, 90, 300, 114)];
    await secondLook(img, [], page, 24, read);
    await secondLook(img, [], page, 24, read, false);
    expect(crops).toEqual([3, 1]);
  });
});

import { describe, expect, it } from 'vitest';
import { agreeDecimalMarks, restoreMarks } from '../../../src/extract/raster/marks.js';
import type { OcrWord } from '../../../src/extract/raster/tsv.js';
import type { Component } from '../../../src/extract/raster/text-size.js';

const word = (text: string, x0: number, x1: number): OcrWord => ({ text, x0, y0: 100, x1, y1: 120, confidence: 0.9, lineHeight: 20, image: 1 });
const comp = (x0: number, y0: number, x1: number, y1: number): Component => ({ x0, y0, x1, y1, pixels: (x1 - x0 + 1) * (y1 - y0 + 1) });
// Two 20 px digits at 100–111 and 118–129 on a baseline at y 119.
const digits = [comp(100, 100, 111, 119), comp(118, 100, 129, 119)];

describe('decimal marks the recogniser dropped', () => {
  it('puts back a point that sits on the baseline between two digits', () => {
    expect(restoreMarks([word('79', 100, 130)], [...digits, comp(113, 116, 115, 119)])[0].text).toBe('7.9');
  });
  it('puts back a comma where the mark reaches below the digits', () => {
    expect(restoreMarks([word('79', 100, 130)], [...digits, comp(113, 116, 115, 124)])[0].text).toBe('7,9');
  });
  it('puts back a lost point of an abbreviation, and the point of a percentage', () => {
    const dot = (x: number) => comp(x, 116, x + 2, 119);
    // "na." whose ink shows "n.a.": glyphs at 100–111 and 118–129, points at 113 and 131.
    expect(restoreMarks([word('na.', 100, 134)], [...digits, dot(113), dot(131)])[0].text).toBe('n.a.');
    // "15%" whose ink shows "1.5%": the percent sign's slash is a glyph, its circles are small.
    const percent = [comp(136, 100, 145, 119), comp(135, 100, 139, 106), comp(143, 113, 147, 119)];
    expect(restoreMarks([word('15%', 100, 148)], [...digits, ...percent, dot(113)])[0].text).toBe('1.5%');
    expect(restoreMarks([word('15%', 100, 148)], [...digits, ...percent])[0].text).toBe('15%');
  });
  it('leaves a word alone without such a mark, with one already, with letters, or when the blobs do not match its digits', () => {
    expect(restoreMarks([word('79', 100, 130)], digits)[0].text).toBe('79');
    // A blob at mid-height is a hyphen or noise, not a decimal point.
    expect(restoreMarks([word('79', 100, 130)], [...digits, comp(113, 108, 115, 110)])[0].text).toBe('79');
    expect(restoreMarks([word('7.9', 100, 130)], [...digits, comp(113, 116, 115, 119)])[0].text).toBe('7.9');
    // A number holds one mark at most: a second blob beside it is a speck.
    expect(restoreMarks([word('7,9', 100, 130)], [...digits, comp(113, 116, 115, 124), comp(122, 116, 124, 119)])[0].text).toBe('7,9');
    expect(restoreMarks([word('ab', 100, 130)], [...digits, comp(113, 116, 115, 119)])[0].text).toBe('ab');
    expect(restoreMarks([word('791', 100, 130)], [...digits, comp(113, 116, 115, 119)])[0].text).toBe('791');
  });
});

describe("the page's decimal mark", () => {
  const texts = (ws: string[]) => agreeDecimalMarks(ws.map((text) => ({ text }))).map((w) => w.text);
  it('gives the few decimals read with the other mark the one most of the page uses', () => {
    expect(texts(['24.7', '40.5', '35.7', '19.5', '17,1', '11.5', '7.0%', '(8.4%)', '1,234'])).toEqual(['24.7', '40.5', '35.7', '19.5', '17.1', '11.5', '7.0%', '(8.4%)', '1,234']);
    expect(texts(['24,7', '40,5', '35,7', '19,5', '17.1', '11,5', '1.234,56', '20.03.2023'])).toEqual(['24,7', '40,5', '35,7', '19,5', '17,1', '11,5', '1.234,56', '20.03.2023']);
  });
  it('leaves a page alone with few decimals or no clear majority', () => {
    expect(texts(['24.7', '40.5', '17,1'])).toEqual(['24.7', '40.5', '17,1']);
    expect(texts(['24.7', '40.5', '35.7', '19,5', '17,1', '11,5'])).toEqual(['24.7', '40.5', '35.7', '19,5', '17,1', '11,5']);
  });
});

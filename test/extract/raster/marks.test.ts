import { describe, expect, it } from 'vitest';
import { agreeDecimalMarks, dashesByLength, dropPhantomMarks, restoreMarks } from '../../../src/extract/raster/marks.js';
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
    expect(restoreMarks([word('7912', 100, 130)], [...digits, comp(113, 116, 115, 119)])[0].text).toBe('7912');
  });
});

describe('marks read at the end of a word that the ink does not show', () => {
  const dot = (x: number) => comp(x, 116, x + 2, 119);
  it('drops a trailing comma or point with no mark in the ink after the last glyph', () => {
    expect(dropPhantomMarks([word('79,', 100, 133)], digits)[0].text).toBe('79');
    expect(dropPhantomMarks([word('7.9.', 100, 133)], [...digits, dot(113)])[0].text).toBe('7.9');
  });
  it('keeps a trailing mark the ink shows, also just past the word box', () => {
    expect(dropPhantomMarks([word('79,', 100, 135)], [...digits, comp(131, 116, 133, 124)])[0].text).toBe('79,');
    expect(dropPhantomMarks([word('79.', 100, 130)], [...digits, dot(132)])[0].text).toBe('79.');
  });
  it('leaves a word alone whose blobs do not account for its characters, or that ends in two marks', () => {
    // Three characters before the mark over two glyph blobs: the box is not the word's ink.
    expect(dropPhantomMarks([word('791,', 100, 133)], digits)[0].text).toBe('791,');
    expect(dropPhantomMarks([word('ab,', 100, 133)], [digits[0]])[0].text).toBe('ab,');
    expect(dropPhantomMarks([word('79..', 100, 133)], digits)[0].text).toBe('79..');
  });
  it('keeps a trailing point whose ink is a speck (a faded receipt)', () => {
    expect(dropPhantomMarks([word('79.', 100, 133)], [...digits, comp(132, 118, 133, 118)])[0].text).toBe('79.');
  });
  it('keeps a comma set under the edge of the last glyph, and takes no glyph of the next word for a mark', () => {
    // An italic comma whose left half stands under the last figure.
    expect(dropPhantomMarks([word('79,', 100, 133)], [...digits, comp(128, 116, 132, 124)])[0].text).toBe('79,');
    // The next word's first letter, just past the box, is neither a glyph of this word nor its mark.
    expect(dropPhantomMarks([word('ab.', 100, 131)], [...digits, comp(136, 100, 146, 119)])[0].text).toBe('ab');
  });
  it('judges letters one blob a letter', () => {
    expect(dropPhantomMarks([word('ab.', 100, 133)], digits)[0].text).toBe('ab');
    expect(dropPhantomMarks([word('ab.', 100, 133)], [...digits, dot(131)])[0].text).toBe('ab.');
  });
});

describe('what a decimal mark is in the ink', () => {
  const dot = (x: number) => comp(x, 116, x + 2, 119);
  it('takes no speck smaller than a point, nor a piece of a glyph, for a point (eu-026: "138" read "1.38")', () => {
    expect(restoreMarks([word('79', 100, 130)], [...digits, comp(114, 118, 114, 119)])[0].text).toBe('79');
    // The lower end of a "3" cut off by the binarisation: within the glyph's span.
    expect(restoreMarks([word('79', 100, 130)], [...digits, comp(117, 116, 119, 119)])[0].text).toBe('79');
    // The lower end of a "5" cut off its bowl, under the 5's top stroke (eu-026: "53" read ".53").
    const five = [comp(101, 100, 109, 108), comp(102, 106, 110, 119), comp(100, 112, 102, 115)];
    expect(restoreMarks([word('53', 100, 124)], [...five, comp(113, 100, 123, 119)])[0].text).toBe('53');
  });
  it('puts back the point a number begins with (".2%")', () => {
    const two = comp(106, 100, 115, 119);
    const percent = [comp(120, 100, 129, 119), comp(119, 100, 123, 106), comp(127, 113, 131, 119)];
    expect(restoreMarks([word('2%', 100, 132)], [dot(101), two, ...percent])[0].text).toBe('.2%');
    expect(restoreMarks([word('2%', 100, 132)], [two, ...percent])[0].text).toBe('2%');
  });
  it('reads letters taken for digits as the number whose point the ink shows ("4.7" read "AT", "7.4" read "7A")', () => {
    expect(restoreMarks([word('AT', 100, 130)], [...digits, dot(113)])[0].text).toBe('4.7');
    expect(restoreMarks([word('7A', 100, 130)], [...digits, dot(113)])[0].text).toBe('7.4');
    expect(restoreMarks([word('AT', 100, 130)], digits)[0].text).toBe('AT');
  });
  it('reads a point the recogniser took for a digit as the point ("1.1" read "141", eu-008)', () => {
    expect(restoreMarks([word('141', 100, 130)], [...digits, dot(113)])[0].text).toBe('1.1');
    expect(restoreMarks([word('141', 100, 130)], digits)[0].text).toBe('141');
  });
  it('counts two figures that touch as two glyphs ("44.3" read "443")', () => {
    const ink = [comp(100, 100, 121, 119), dot(124), comp(129, 100, 139, 119)];
    expect(restoreMarks([word('443', 100, 140)], ink)[0].text).toBe('44.3');
  });
});

describe('dashes by their length', () => {
  const dash = (text: string, width: number): OcrWord => ({ text, x0: 100, y0: 110, x1: 100 + width, y1: 112, confidence: 0.8, lineHeight: 27, image: 1 });
  it('reads a dash half an em long as an en dash and one an em long as an em dash (eu-011: "Q2 2006 – Q1 2010")', () => {
    expect(dashesByLength([dash('—', 16)])[0].text).toBe('–');
    expect(dashesByLength([dash('–', 30)])[0].text).toBe('—');
    expect(dashesByLength([dash('—', 30)])[0].text).toBe('—');
    expect(dashesByLength([{ ...dash('—', 16), lineHeight: 6 }])[0].text).toBe('—');
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

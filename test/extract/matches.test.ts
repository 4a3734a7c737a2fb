import { describe, expect, it } from 'vitest';
import { allMatches } from '../../src/extract/matches.js';

const asMatchAll = (re: RegExp, text: string) => [...text.matchAll(re)].map((m) => [m.index, ...m]);
const asAllMatches = (re: RegExp, text: string) => allMatches(re, text).map((m) => [m.index, ...m]);

describe('allMatches', () => {
  it('gives what matchAll gives, empty matches and surrogate pairs included', () => {
    const cases: Array<[RegExp, string]> = [
      [/(?<![\p{L}])(inv(?:oice)?|no\.?)(?![\p{L}])/gu, 'invoice no. 7, inv no 8; invno'],
      [/\d*/g, 'a12b3'],
      [/(?:)/gu, 'a😀b'],
      [/x?/g, '😀x'],
      [/(\d{1,3}(?:[,.]\d{3})+|\d+)\s?([.,])\s?(\d{2})/g, 'EUR 1.234,56 and 12. 50'],
    ];
    for (const [re, text] of cases) expect(asAllMatches(re, text)).toEqual(asMatchAll(re, text));
  });

  it('leaves lastIndex as it was, and starts from it as matchAll does', () => {
    const re = /a/g;
    re.lastIndex = 2;
    expect(asAllMatches(re, 'aaaa')).toEqual(asMatchAll(re, 'aaaa'));
    expect(re.lastIndex).toBe(2);
  });

  it('refuses a regex without the g flag, as matchAll does', () => {
    expect(() => allMatches(/a/, 'a')).toThrow(TypeError);
  });
});

/** The shared geometry of words and boxes: medians, a word's middle in a box, coordinates to hundredths. */
import { describe, expect, it } from 'vitest';
import { hundredths, inside, median } from '../../src/extract/geometry.js';

describe('geometry', () => {
  it('median of odd and even lists, 0 for none, the list left as it was', () => {
    const xs = [9, 1, 5];
    expect(median(xs)).toBe(5);
    expect(xs).toEqual([9, 1, 5]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it('a word is inside a box when its middle is, edges included', () => {
    const w = { x0: 10, y0: 10, x1: 30, y1: 20 };
    expect(inside(w, [0, 0, 20, 15])).toBe(true);
    expect(inside(w, [21, 0, 40, 40])).toBe(false);
    expect(inside(w, [0, 16, 40, 40])).toBe(false);
  });

  it('rounds coordinates to hundredths', () => {
    expect(hundredths(12.3456)).toBe(12.35);
    expect(hundredths(-0.004)).toBe(-0);
  });
});

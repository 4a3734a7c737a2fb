import { describe, expect, it } from 'vitest';
import { splitBars } from '../../../src/extract/raster/bars.js';

const w = (text: string, x0: number, x1: number) => ({ text, x0, x1 });

describe('bars read from short rules', () => {
  it('takes bar-only words apart and strips bars from the ends of words, with their share of the box', () => {
    const { words, bars } = splitBars([w('|', 10, 14), w('|Product', 20, 100), w('Margarine|', 120, 220), w('||', 300, 310), w('a|b', 400, 430)]);
    expect(bars.map((b) => b.x0)).toEqual([10, 300]);
    expect(words).toEqual([w('Product', 30, 100), w('Margarine', 120, 210), w('a|b', 400, 430)]);
  });
});

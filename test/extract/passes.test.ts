/** The pass tally the extract benchmark prints: what each named pass of the engine cost. */
import { describe, expect, it } from 'vitest';
import { pass, tallyPasses } from '../../src/extract/passes.js';
import { detectTables } from '../../src/extract/index.js';
import type { PageLayout, Word } from '../../src/extract/types.js';

/** Work that takes some time: a sum over `n` numbers. */
const busy = (n: number) => {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.sqrt(i);
  return s;
};

describe('pass tally', () => {
  it('without a tally a pass only runs its function', () => {
    expect(pass('a', () => 42)).toBe(42);
  });

  it('counts each pass, leaves inner passes out of outer ones, and adds up to the whole', () => {
    const { result, tally } = tallyPasses(() => {
      busy(1e4);
      return pass('outer', () => {
        busy(1e4);
        pass('inner', () => busy(1e4));
        pass('inner', () => busy(1e4));
        return 'done';
      });
    });
    expect(result).toBe('done');
    expect([...tally.ms.keys()].sort()).toEqual(['inner', 'other', 'outer']);
    expect(tally.calls.get('inner')).toBe(2);
    expect(tally.calls.get('outer')).toBe(1);
    for (const ms of tally.ms.values()) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('a pass that throws is still counted, and the tally closes', () => {
    expect(() => tallyPasses(() => pass('fails', () => { throw new Error('no'); }))).toThrow('no');
    // Closed: a new tally opens, and the failed one's passes are not in it.
    const { tally } = tallyPasses(() => pass('ok', () => 1));
    expect([...tally.ms.keys()].sort()).toEqual(['ok', 'other']);
  });

  it("names the layout passes of a page's table finding", () => {
    const words: Word[] = [];
    const row = (y: number, cells: string[]) => cells.forEach((t, i) => words.push({ text: t, x0: 50 + 120 * i, y0: y, x1: 50 + 120 * i + 8 * t.length, y1: y + 10, size: 10, confidence: null }));
    row(100, ['Region', '2019', '2020']);
    for (let k = 0; k < 5; k++) row(116 + 16 * k, [`Area ${k}`, `${10 + k}.5`, `${20 + k}.1`]);
    const layout: PageLayout = { page: 1, width: 600, height: 800, words, rulings: [] };
    const { result, tally } = tallyPasses(() => detectTables(layout));
    expect(result).toHaveLength(1);
    for (const name of ['text lines', 'table blocks', 'stream table', 'lattice']) expect(tally.calls.get(name), name).toBeGreaterThan(0);
  });
});

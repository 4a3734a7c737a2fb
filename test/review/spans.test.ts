/**
 * Where a corrected text value is printed (`occurrences`): the spans it passes over by their
 * words' normalised lengths are only spans `matches` could never take, so it finds what measuring
 * every span finds — on words with punctuation, accents, ligatures and empty norms — and a value
 * of 1,000 characters on a page of 2,000 words costs milliseconds, not seconds.
 */
import { describe, expect, it } from 'vitest';
import { matches, occurrences, spans } from '../../src/extract/memory/spans.js';
import { norm, pageLines } from '../../src/extract/memory/words.js';
import type { StoredPage } from '../../src/extract/types.js';
import { densePage } from './harness.js';

/** A page of `n` lines of words drawn from a seeded mix. */
function mixedPage(n: number, seed: number): StoredPage {
  const vocab = ['Invoice', 'No.', '4711', '—', 'Müller', 'ﬁnal', 'GmbH', '&', 'Co.', 'KG', '(DE)', 'total:', '1.234,56', 'Straße', '12', '-', 'Σ', 'ΟΔΟΣ', ':', 'PO-7781'];
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) % vocab.length;
  const words: StoredPage['words'] = [];
  for (let l = 0; l < n; l++) for (let k = 0; k < 8; k++) words.push([vocab[next()]!, 10 + k * 40, 10 + l * 12, 10 + k * 40 + 35, 10 + l * 12 + 9]);
  return { page: 1, width: 400, height: 20 + n * 12, words };
}

/** Every span of up to `max` words that `matches` takes, measured one by one. */
function measuredAll(page: StoredPage, value: string): string[] {
  const max = Math.min(12, norm(value).split(' ').length + 2);
  return [...spans(page, pageLines(page), max)].filter((s) => matches('text', s.text, value)).map((s) => `${s.line.index}:${s.start}-${s.end}`);
}

describe('occurrences of a text value', () => {
  it('finds every span that measuring each span finds', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const page = mixedPage(12, seed);
      const lines = pageLines(page);
      // Values cut from the page's own lines (2 to 6 words), some with a letter changed.
      for (let v = 0; v < 10; v++) {
        const line = lines[(seed * 7 + v) % lines.length]!;
        const start = v % 3;
        const text = line.words.slice(start, start + 2 + (v % 5)).map((w) => w.text).join(' ');
        const value = v % 2 ? text : text.replace(/[a-z]/, 'x');
        const found = occurrences([page], 'text', value).map((o) => `${o.span.line.index}:${o.span.start}-${o.span.end}`);
        expect(found.sort(), value).toEqual(measuredAll(page, value).sort());
      }
    }
  });

  it('a value of 1,000 characters on a page of 2,000 words: milliseconds', () => {
    const page = densePage(100);
    const value = 'Invoice total '.repeat(72).slice(0, 1000);
    const t0 = performance.now();
    expect(occurrences([page], 'text', value)).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

import { describe, expect, it } from 'vitest';
import { backoffMs, sleep } from '../../src/domain/time.js';

describe('sleep', () => {
  it('resolves after the time asked', async () => {
    const t0 = performance.now();
    await sleep(30);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it('resolves at once when its signal aborts, and when the signal was aborted before', async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const waiting = sleep(60_000, ac.signal);
    setTimeout(() => ac.abort(), 10);
    await waiting;
    await sleep(60_000, ac.signal);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});

describe('backoffMs', () => {
  it('doubles from the first pause up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, 1000, 10_000))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect([1, 2, 3].map((n) => backoffMs(n, 500))).toEqual([1000, 2000, 4000]);
  });
});

/**
 * A process counts ahead of the shared store by at most its share: points sent and not yet
 * answered count as unconfirmed as points not sent. The store here is rate-limiter-flexible's
 * in-memory limiter answering late, as a database does under load.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { SettledCounts } from '../../src/api/rate-counts.js';

describe('SettledCounts', () => {
  it('admits no more than its share from memory while its last points are still on their way', async () => {
    const memory = new RateLimiterMemory({ points: 120, duration: 60 });
    let calls = 0;
    // The store answers after 50 ms.
    const slow = {
      consume: async (key: string, n: number) => {
        calls++;
        await new Promise((r) => setTimeout(r, 50));
        return memory.consume(key, n);
      },
    } as unknown as RateLimiterAbstractLike;
    const counts = new SettledCounts({ store: () => slow, points: 120, windowMs: 60_000, settleMs: 10_000 });
    // Twelve (the share) from memory; the thirteenth sends them and waits.
    const first = Array.from({ length: 12 }, () => counts.hit('k'));
    expect(first.every((c) => !(c instanceof Promise))).toBe(true);
    const waiting = counts.hit('k');
    expect(waiting).toBeInstanceOf(Promise);
    // While those 13 points are on their way, nothing more is answered from memory.
    const during = Array.from({ length: 12 }, () => counts.hit('k'));
    expect(during.every((c) => c instanceof Promise)).toBe(true);
    const answered = await Promise.all([waiting, ...during]);
    expect(answered.every((c) => c.allowed)).toBe(true);
    expect(calls).toBeGreaterThanOrEqual(2);
    await counts.close();
    expect((await memory.get('k'))?.consumedPoints).toBe(25);
  });
});

type RateLimiterAbstractLike = import('rate-limiter-flexible').RateLimiterAbstract;

// The rendering children's limits and queue: a page over its time limit costs its child, which is
// replaced; the inflation bound answers resource_limit without one; accounts take turns, and a
// caller that leaves is dropped from the queue or has its render stopped.
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PageRenderer, RenderError, type RendererOptions } from '../../src/api/pages/renderer.js';
import { icdarPdf } from '../e2e/fixtures.js';
import { compressionBombPdf, slowPagePdf } from '../bombs.js';

const LIMITS = { maxMegapixels: 50, maxPages: 100, maxInflatedBytes: 256 * 1024 * 1024 };
const options = (over: Partial<RendererOptions> = {}): RendererOptions => ({
  limits: LIMITS,
  child: { heapMb: 512, maxRssMb: 1024, timeoutMs: 60_000 },
  slots: 1,
  maxQueue: 8,
  ...over,
});
const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: RenderError) => e.code);

describe('PageRenderer', () => {
  let renderer: PageRenderer | null = null;
  afterEach(async () => {
    await renderer?.close();
    renderer = null;
  });

  it('fails a page over the time limit with timeout, then renders the next page in a new child', async () => {
    const opts = options({ child: { heapMb: 512, maxRssMb: 1024, timeoutMs: 300 } });
    renderer = new PageRenderer(opts);
    const slow = await slowPagePdf(20_000);
    const before = renderer.pids;
    expect(await code(renderer.render('a', slow, 1, 1200))).toBe('timeout');
    expect(renderer.pids).not.toEqual(before);
    opts.child.timeoutMs = 60_000;
    const page = await renderer.render('a', icdarPdf('eu-002'), 1, 300);
    expect((await sharp(page.png).metadata()).width).toBe(300);
  }, 120_000);

  it('answers a Flate bomb resource_limit from the inflation bound, keeping its child', async () => {
    renderer = new PageRenderer(options());
    await renderer.render('b', icdarPdf('eu-001'), 1, 200);
    const pids = renderer.pids;
    const bomb = await compressionBombPdf();
    const err = await renderer.render('a', bomb, 1, 1200).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).code).toBe('resource_limit');
    expect(renderer.pids).toEqual(pids);
  }, 120_000);

  it('takes accounts in turns, and one account never holds every child', async () => {
    renderer = new PageRenderer(options({ slots: 2 }));
    await Promise.all([renderer.render('warm', icdarPdf('eu-001'), 1, 100), renderer.render('warm2', icdarPdf('eu-001'), 1, 101)]);
    const slow = await slowPagePdf(20_000);
    const gone = new AbortController();
    const hostile = [1, 2, 3].map(() => code(renderer!.render('a', slow, 1, 1200, gone.signal)));
    const t0 = performance.now();
    await renderer.render('b', icdarPdf('eu-002'), 1, 300);
    const ms = performance.now() - t0;
    // Account a's renders wait for its one child; b's page did not wait behind them.
    expect(renderer.queued).toBe(2);
    expect(ms).toBeLessThan(10_000);
    // a's client leaves: its queued renders are dropped and the running one's child stopped.
    const pids = renderer.pids;
    gone.abort();
    expect(await Promise.all(hostile)).toEqual(['gone', 'gone', 'gone']);
    expect(renderer.queued).toBe(0);
    expect(renderer.pids.filter((p) => !pids.includes(p))).toHaveLength(1);
  }, 120_000);

  it('refuses renders beyond the queue bound with busy, and everything queued once closed', async () => {
    renderer = new PageRenderer(options({ maxQueue: 2 }));
    const bytes = icdarPdf('eu-001');
    await renderer.render('a', bytes, 1, 200);
    const settled = [1, 2, 3].map((n) => code(renderer!.render('a', bytes, 1, 200 + n)));
    // The first is running, two wait: a fourth is one too many.
    expect(await code(renderer.render('a', bytes, 1, 204))).toBe('busy');
    expect(await Promise.all(settled)).toEqual(['ok', 'ok', 'ok']);
    const queued = [renderer.render('a', bytes, 1, 210), renderer.render('a', bytes, 1, 211)].map(code);
    await renderer.close();
    expect(await Promise.all(queued)).toEqual(['busy', 'busy']);
  }, 120_000);
});

// The rendering thread's limits: a page over its time limit costs the thread, which is replaced
// for the next page; renders beyond the queue bound are refused, not held.
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PageRenderer, RenderError, type RendererOptions } from '../../src/api/pages/renderer.js';
import { icdarPdf } from '../e2e/fixtures.js';

describe('PageRenderer', () => {
  let renderer: PageRenderer | null = null;
  afterEach(async () => {
    await renderer?.close();
    renderer = null;
  });

  it('fails a page that runs over the time limit with timeout, then renders the next page in a new thread', async () => {
    const opts: RendererOptions = { limits: { maxMegapixels: 50, maxPages: 100 }, timeoutMs: 1, heapMb: 256, maxQueue: 4 };
    renderer = new PageRenderer(opts);
    const err = await renderer.render(icdarPdf('eu-001'), 1, 2400).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).code).toBe('timeout');
    // The limit is read for each page: the next one gets a minute, in a fresh thread.
    opts.timeoutMs = 60_000;
    const page = await renderer.render(icdarPdf('eu-002'), 1, 300);
    expect((await sharp(page.png).metadata()).width).toBe(300);
  }, 120_000);

  it('refuses renders beyond the queue bound with busy, and everything queued once closed', async () => {
    renderer = new PageRenderer({ limits: { maxMegapixels: 50, maxPages: 100 }, timeoutMs: 60_000, heapMb: 256, maxQueue: 2 });
    const bytes = icdarPdf('eu-001');
    const settled = [1, 2, 3].map((n) => renderer!.render(bytes, 1, 200 + n).then(() => 'ok', (e: RenderError) => e.code));
    // The first is running, two wait: a fourth is one too many.
    const fourth = await renderer.render(bytes, 1, 204).then(() => 'ok', (e: RenderError) => e.code);
    expect(fourth).toBe('busy');
    expect(await Promise.all(settled)).toEqual(['ok', 'ok', 'ok']);
    const queued = [renderer.render(bytes, 1, 210), renderer.render(bytes, 1, 211)].map((p) => p.then(() => 'ok', (e: RenderError) => e.code));
    await renderer.close();
    expect(await Promise.all(queued)).toEqual(['busy', 'busy']);
  }, 120_000);
});

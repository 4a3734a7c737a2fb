/**
 * Page images of stored documents: rendered by `PageRenderer`'s child processes, kept in a byte-bounded
 * LRU cache. A document's bytes never change under its id, so `(id, page, width)` names one image
 * for as long as the document exists.
 */
import type { RenderedPage } from '../../extract/render.js';
import { ByteLru } from './cache.js';
import { PageRenderer, RenderError, type RendererOptions } from './renderer.js';

/** 64 MiB: about 200 PNGs of an A4 page 1200 px wide (≈ 150–400 KiB each). */
export const PAGE_CACHE_BYTES = 64 * 1024 * 1024;

/** Documents whose failure is remembered: a hostile file's later pages answer without a render. */
const REMEMBERED_FAILURES = 1000;

/** Failures of the file itself (any page would fail alike), as opposed to a page that does not exist or a busy renderer. */
function documentFault(err: unknown): err is RenderError {
  return err instanceof RenderError && err.code !== 'too_many_pages' && err.code !== 'busy' && err.code !== 'gone';
}

/** Cached page images. */
export class PageImages {
  private readonly cache = new ByteLru<RenderedPage & { byteLength: number }>(PAGE_CACHE_BYTES);
  private readonly renderer: PageRenderer;
  /** The failure of each document that failed to render (oldest first, bounded). */
  private readonly failures = new Map<string, RenderError>();
  /** The render of each document under way: a document renders one page at a time. */
  private readonly rendering = new Map<string, Promise<unknown>>();

  constructor(opts: RendererOptions) {
    this.renderer = new PageRenderer(opts);
  }

  /**
   * The image of page `page` of document `id` of `account`; `load` gives the document's bytes on
   * a cache miss; `signal` (the client gone) drops the render.
   */
  async get(
    account: string,
    id: string,
    page: number,
    width: number,
    load: () => Promise<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<{ image: RenderedPage; cached: boolean }> {
    const key = `${id}/${page}/${width}`;
    // A document's requests wait for its render under way, so that a hostile file's many
    // requests cost one render, and the rest take its remembered failure.
    for (let before = this.rendering.get(id); before; before = this.rendering.get(id)) await before.catch(() => {});
    if (signal?.aborted) throw new RenderError('gone', 'the client went away');
    const hit = this.cache.get(key);
    if (hit) return { image: hit, cached: true };
    const failure = this.failures.get(id);
    if (failure) throw failure;
    const rendering = load().then((bytes) => this.renderer.render(account, bytes, page, width, signal));
    this.rendering.set(id, rendering);
    try {
      const image = await rendering;
      this.cache.set(key, { ...image, byteLength: image.png.byteLength });
      return { image, cached: false };
    } catch (err) {
      if (documentFault(err)) {
        this.failures.set(id, err);
        if (this.failures.size > REMEMBERED_FAILURES) this.failures.delete(this.failures.keys().next().value!);
      }
      throw err;
    } finally {
      if (this.rendering.get(id) === rendering) this.rendering.delete(id);
    }
  }

  /** Ends the rendering processes. */
  close(): Promise<void> {
    return this.renderer.close();
  }
}

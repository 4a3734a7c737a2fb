/**
 * Page images of stored documents: rendered by the `PageRenderer` thread, kept in a byte-bounded
 * LRU cache. A document's bytes never change under its id, so `(id, page, width)` names one image
 * for as long as the document exists.
 */
import type { RenderedPage } from '../../extract/render.js';
import { ByteLru } from './cache.js';
import { PageRenderer, type RendererOptions } from './renderer.js';

/** 64 MiB: about 200 PNGs of an A4 page 1200 px wide (≈ 150–400 KiB each). */
export const PAGE_CACHE_BYTES = 64 * 1024 * 1024;

/** Cached page images. */
export class PageImages {
  private readonly cache = new ByteLru<RenderedPage & { byteLength: number }>(PAGE_CACHE_BYTES);
  private readonly renderer: PageRenderer;

  constructor(opts: RendererOptions) {
    this.renderer = new PageRenderer(opts);
  }

  /** The image of page `page` of document `id`; `load` gives the document's bytes on a cache miss. */
  async get(id: string, page: number, width: number, load: () => Promise<Uint8Array>): Promise<{ image: RenderedPage; cached: boolean }> {
    const key = `${id}/${page}/${width}`;
    const hit = this.cache.get(key);
    if (hit) return { image: hit, cached: true };
    const image = await this.renderer.render(await load(), page, width);
    this.cache.set(key, { ...image, byteLength: image.png.byteLength });
    return { image, cached: false };
  }

  /** Ends the rendering thread. */
  close(): Promise<void> {
    return this.renderer.close();
  }
}

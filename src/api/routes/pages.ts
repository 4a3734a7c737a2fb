/** `GET /v1/documents/{id}/pages/{n}.png?width=W`: a page image for the web app's document view. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, documentNotFound } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { ErrorSchema, errorResponses } from '../../contract/schemas.js';
import { PageImages } from '../pages/images.js';
import { RenderError } from '../pages/renderer.js';

/** Widths the route renders: enough for a phone's thumbnail up to a 4K screen's page. */
export const PAGE_WIDTH = { min: 64, max: 2400, default: 1200 } as const;

/**
 * A render failure as an API error: the file's own fault, limits included, is 422 as a document's
 * `processing_error` would say it; a full queue or a stopping server is 503.
 */
function renderFailure(err: RenderError, page: number): ApiError {
  if (err.code === 'too_many_pages') return new ApiError(404, 'not_found', err.message, { page });
  if (err.code === 'busy' || err.code === 'gone') {
    return new ApiError(503, 'unavailable', err.message, { reason: err.code }, { 'retry-after': '5' });
  }
  return new ApiError(422, 'unprocessable', `page ${page} cannot be rendered: ${err.message}`, { processing_error: { code: err.code, message: err.message } });
}

/** Registers the page image route; its rendering processes end with the app. */
export function pageRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const { store, blobs, config } = deps;
  return async (app) => {
    const { maxMegapixels, maxPages, maxInflatedBytes } = config.limits;
    const images = new PageImages({
      limits: { maxMegapixels, maxPages, maxInflatedBytes },
      child: { heapMb: config.worker.maxHeapMb, maxRssMb: config.worker.maxRssMb, timeoutMs: Math.min(config.pages.timeoutMs, config.worker.timeoutMs) },
      slots: config.pages.processes,
      // Each waiting render holds its document's bytes (up to the file size limit): 16 bounds that memory.
      maxQueue: 16,
    });
    app.addHook('onClose', () => images.close());
    // A stopping process renders nothing more: a render could hold its shutdown for its whole time limit.
    deps.stopping?.addEventListener('abort', () => void images.close(), { once: true });

    app.get(
      '/documents/:id/pages/:n.png',
      {
        schema: {
          tags: ['documents'],
          summary: 'A page of the document as a PNG (PDF pages through pdf.js, images through sharp), for viewers',
          description:
            'Headers `x-page-width` and `x-page-height` give the page in the units of the result boxes (PDF points, image pixels), `x-page-count` the number of pages.',
          security: [{ bearer: [] }],
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }), n: Type.Integer({ minimum: 1, maximum: 100_000 }) }),
          querystring: Type.Object({
            width: Type.Integer({ minimum: PAGE_WIDTH.min, maximum: PAGE_WIDTH.max, default: PAGE_WIDTH.default, description: 'pixels; the height follows the page' }),
          }),
          response: {
            200: {
              description: 'the page image',
              headers: {
                'x-page-width': { type: 'number', description: 'the page width in the units of the result boxes (PDF points, image pixels)' },
                'x-page-height': { type: 'number', description: 'the page height in the same units' },
                'x-page-count': { type: 'integer', description: 'pages in the document' },
              },
              content: { 'image/png': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
            },
            422: ErrorSchema,
            503: ErrorSchema,
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const { id, n } = request.params;
        const row = await store.getDocument(request.account.id, id);
        if (!row) throw documentNotFound(id);
        // The client gone, its render leaves the queue or stops.
        const gone = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) gone.abort();
        };
        reply.raw.once('close', onClose);
        let result;
        try {
          result = await images.get(request.account.id, id, n, request.query.width, () => blobs.get(row.blob_key), gone.signal);
        } catch (err) {
          if (err instanceof RenderError) throw renderFailure(err, n);
          throw err;
        }
        const { image, cached } = result;
        return reply
          .header('content-type', 'image/png')
          .header('x-page-width', String(image.page_width))
          .header('x-page-height', String(image.page_height))
          .header('x-page-count', String(image.page_count))
          .header('x-cache', cached ? 'hit' : 'miss')
          .send(image.png);
      },
    );
  };
}

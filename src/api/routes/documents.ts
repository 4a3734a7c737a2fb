/** Document routes of API.md §3: status, results, the original file, delete. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, conflict, documentNotFound } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { DocumentIdParams, DocumentResultSchema, DocumentSchema, ErrorSchema, ResultsQuery, errorResponses } from '../../contract/schemas.js';
import { documentResultView, documentView } from '../../contract/views.js';
import { sendStatus } from '../long-poll.js';

const security = [{ bearer: [] }];

/** `filename*` (RFC 6266 / 8187) for any name, plus an ASCII fallback for old clients. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Registers the document routes. */
export function documentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const { store, blobs } = deps;
  return async (app) => {
    app.get(
      '/documents/:id',
      {
        config: { statusResource: 'document' },
        schema: {
          tags: ['documents'],
          summary: 'Document status (status endpoint)',
          security,
          params: DocumentIdParams,
          response: { 200: DocumentSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await store.getDocument(request.account.id, request.params.id);
        if (!row) throw documentNotFound(request.params.id);
        return sendStatus(request, reply, 'document', row);
      },
    );

    app.get(
      '/documents/:id/results',
      {
        schema: {
          tags: ['documents'],
          summary: "One document's results (tables, line items, totals; null unless succeeded)",
          security,
          params: DocumentIdParams,
          querystring: Type.Object({
            format: ResultsQuery(1).properties.format,
            view: Type.Optional(Type.Unsafe<'corrected' | 'extracted'>({ type: 'string', enum: ['corrected', 'extracted'], description: '`extracted`: what the engine read, without corrections' })),
          }),
          response: { 200: DocumentResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await store.getDocumentResult(request.account.id, request.params.id);
        if (!row) throw documentNotFound(request.params.id);
        const format = request.query.format ?? 'json';
        if (format !== 'json') {
          const exporter = deps.exporters[format];
          if (!exporter) throw new ApiError(400, 'invalid_request', `format ${format} is not available`);
          await exporter.document({ deps, account: request.account, row, request, reply });
          return reply;
        }
        return documentResultView(row, request.query.view ?? 'corrected');
      },
    );

    app.get(
      '/documents/:id/file',
      {
        schema: {
          tags: ['documents'],
          summary: 'The original upload, byte for byte, with its sniffed content type',
          security,
          params: DocumentIdParams,
          response: { 200: Type.Unsafe({ description: 'the file', type: 'string', format: 'binary' }), ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await store.getDocument(request.account.id, request.params.id);
        if (!row) throw documentNotFound(request.params.id);
        const stream = await blobs.stream(row.blob_key);
        return reply
          .header('content-type', row.content_type)
          .header('content-length', String(row.size_bytes))
          .header('content-disposition', contentDisposition(row.filename))
          .send(stream);
      },
    );

    app.delete(
      '/documents/:id',
      {
        schema: {
          tags: ['documents'],
          summary: 'Cancel if queued (202), delete if finished (204), 409 while processing',
          security,
          params: DocumentIdParams,
          response: { 202: DocumentSchema, 204: Type.Null(), 409: ErrorSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const res = await store.deleteDocument(request.account.id, id, deps.now());
        if (!res) throw documentNotFound(id);
        if (res.outcome === 'conflict') throw conflict(`document ${id} is processing; delete it once it has finished`);
        if (res.outcome === 'deleted') {
          // The row is gone (committed); a blob that fails to delete is only an orphan to log.
          await blobs.delete(res.blob_key).catch((err) => request.log.warn({ err, key: res.blob_key }, 'blob delete failed'));
          return reply.code(204).send(null);
        }
        const row = await store.getDocument(request.account.id, id);
        if (!row) throw documentNotFound(id);
        return reply.code(202).send(documentView(row));
      },
    );
  };
}

/** Batch routes of API.md §3 (the upload lives in upload.ts): process, status, list, results, delete. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { batchStatus, batchTimestamps, isAllDone } from '../../domain/batch.js';
import { ApiError, batchNotFound, invalidRequest } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import {
  BatchListSchema,
  BatchNameParams,
  BatchResultsSchema,
  BatchSchema,
  PageQuery,
  ProcessResponseSchema,
  ResultsQuery,
  errorResponses,
} from '../../contract/schemas.js';
import { batchView, documentResultView, iso } from '../../contract/views.js';
import { sendStatus } from '../long-poll.js';
import type { RunOptions } from '../../review/options.js';
import { MAX_CUSTOM_FIELDS } from '../../review/corrections.js';

const security = [{ bearer: [] }];

/** The optional body of `POST …/process`: the run's custom fields (API.md §4b) and whether to read what documents carry (§4c). */
const ProcessBodySchema = Type.Object(
  {
    custom_fields: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }),
            labels: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 }),
            type: Type.Optional(Type.Unsafe<'text' | 'number' | 'date' | 'amount'>({ type: 'string', enum: ['text', 'number', 'date', 'amount'], default: 'text' })),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_CUSTOM_FIELDS },
      ),
    ),
    embedded: Type.Optional(
      Type.Unsafe<'use' | 'ignore'>({
        type: 'string',
        enum: ['use', 'ignore'],
        default: 'use',
        description: 'use: read e-invoice XML, payment codes and form fields and check them against the print; ignore: read the page alone',
      }),
    ),
  },
  { additionalProperties: false, title: 'ProcessOptions' },
);

/** Registers the batch routes; `deps` gives the store and the exporters. */
export function batchRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const { store } = deps;
  return async (app) => {
    app.post(
      '/batches/:batch_name/process',
      {
        schema: {
          tags: ['batches'],
          summary: 'Submit every not-yet-submitted document of the batch for processing',
          security,
          params: BatchNameParams,
          body: ProcessBodySchema,
          response: { 202: ProcessResponseSchema, ...errorResponses },
        },
        // The body is optional: a bare POST (no body at all) is a run without options.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request, reply) => {
        const { batch_name } = request.params;
        const custom = request.body?.custom_fields ?? [];
        const names = new Set(custom.map((c) => c.name));
        if (names.size !== custom.length) throw invalidRequest('custom_fields names must be unique', { field: 'custom_fields' });
        const run: RunOptions = {};
        if (custom.length) run.custom_fields = custom.map((c) => ({ name: c.name, labels: c.labels, type: c.type ?? 'text' }));
        if (request.body?.embedded === 'ignore') run.embedded = 'ignore';
        const options = Object.keys(run).length ? JSON.stringify(run) : null;
        const res = await store.submitBatch(request.account.id, batch_name, deps.now(), { options_json: options });
        if (!res) throw batchNotFound(batch_name);
        return reply.code(202).send({ batch_name, submitted: res.submitted, batch: batchView(res.batch) });
      },
    );

    app.get(
      '/batches/:batch_name',
      {
        config: { statusResource: 'batch' },
        schema: {
          tags: ['batches'],
          summary: 'Batch status (status endpoint): one row read whatever the batch size',
          security,
          params: BatchNameParams,
          response: { 200: BatchSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await store.getBatch(request.account.id, request.params.batch_name);
        if (!row) throw batchNotFound(request.params.batch_name);
        return sendStatus(request, reply, 'batch', row);
      },
    );

    app.get(
      '/batches',
      {
        schema: {
          tags: ['batches'],
          summary: 'List batches, newest first, cursor-paginated',
          security,
          querystring: PageQuery(50),
          response: { 200: BatchListSchema, ...errorResponses },
        },
      },
      async (request) => {
        const page = await store.listBatches(request.account.id, { cursor: request.query.cursor ?? null, limit: request.query.limit });
        return { batches: page.items.map(batchView), next_cursor: page.next_cursor };
      },
    );

    app.get(
      '/batches/:batch_name/results',
      {
        schema: {
          tags: ['batches'],
          summary: 'Per-document results, cursor-paginated (format=json); csv, xlsx, ndjson and zip export the whole batch',
          security,
          params: BatchNameParams,
          querystring: ResultsQuery(50),
          response: { 200: BatchResultsSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { batch_name } = request.params;
        const batch = await store.getBatch(request.account.id, batch_name);
        if (!batch) throw batchNotFound(batch_name);
        const format = request.query.format ?? 'json';
        if (format !== 'json') {
          const exporter = deps.exporters[format];
          if (!exporter) throw new ApiError(400, 'invalid_request', `format ${format} is not available`);
          await exporter.batch({ deps, account: request.account, batch, request, reply });
          return reply;
        }
        const page = await store.listBatchResults(request.account.id, batch.id, {
          cursor: request.query.cursor ?? null,
          limit: request.query.limit,
        });
        const t = batchTimestamps(batch.counts, batch.created_at, batch.min_started_at, batch.max_completed_at);
        return {
          batch_name,
          status: batchStatus(batch.counts),
          all_done: isAllDone(batch.counts),
          created_at: iso(t.created_at) as string,
          started_at: iso(t.started_at),
          completed_at: iso(t.completed_at),
          documents: page.items.map((r) => documentResultView(r)),
          next_cursor: page.next_cursor,
        };
      },
    );

    app.delete(
      '/batches/:batch_name',
      {
        schema: {
          tags: ['batches'],
          summary: 'Cancel queued documents and free the name; in-flight documents finish',
          security,
          params: BatchNameParams,
          response: { 202: BatchSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await store.deleteBatch(request.account.id, request.params.batch_name, deps.now());
        if (!row) throw batchNotFound(request.params.batch_name);
        return reply.code(202).send(batchView(row));
      },
    );
  };
}

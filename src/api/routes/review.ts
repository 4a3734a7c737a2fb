/** Routes of API.md §4b: a document's corrections, and the account's vendor memories. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { CorrectionThread } from '../correction-thread.js';
import { BBox, DocumentIdParams, DocumentResultSchema, ErrorSchema, LineItemSchema, errorResponses } from '../../contract/schemas.js';
import { pageWords, putCorrection, succeededDocument } from '../../review/service.js';
import { MAX_VENDORS, learnedFields, toMemory } from '../../review/vendors.js';
import { CUSTOM_NAME, MAX_CELLS, MAX_CUSTOM_FIELDS, MAX_VALUE_LENGTH } from '../../review/corrections.js';
import { FIELD_NAMES } from '../../extract/types.js';

const security = [{ bearer: [] }];

/** A corrected value: text, a number, or null for "the document has none"; typed per field by the service. */
const FieldValue = Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'], maxLength: MAX_VALUE_LENGTH, description: `at most ${MAX_VALUE_LENGTH} characters` });
const Text = (description?: string) => Type.String({ maxLength: MAX_VALUE_LENGTH, description });

/** A line item as a person gives it: the shape of `LineItem`, closed, its texts bounded. */
const LineItemInputSchema = Type.Object(
  {
    ...LineItemSchema.properties,
    description: Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: MAX_VALUE_LENGTH }),
    currency: Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: '^[A-Z]{3}$', description: 'an ISO 4217 code' }),
    cells: Type.Record(Type.String(), Text(), { maxProperties: 100, propertyNames: { maxLength: MAX_VALUE_LENGTH }, description: 'header text → cell text' }),
    flags: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 }),
    // A client that corrects items as the results gave them before sources existed sends none: read as `engine`.
    source: Type.Optional(LineItemSchema.properties.source),
  },
  { additionalProperties: false, title: 'LineItemInput' },
);

const CorrectionBodySchema = Type.Object(
  {
    fields: Type.Optional(
      Type.Object(
        {
          ...Object.fromEntries(FIELD_NAMES.map((n) => [n, Type.Optional(FieldValue)])),
          custom: Type.Optional(
            Type.Record(Type.String({ pattern: CUSTOM_NAME.source }), FieldValue, {
              maxProperties: MAX_CUSTOM_FIELDS,
              additionalProperties: false,
              description: `the run's custom fields (at most ${MAX_CUSTOM_FIELDS}), by name`,
            }),
          ),
        },
        { additionalProperties: false, description: 'field name → value, or null for "the document has none"; custom fields under `custom`' },
      ),
    ),
    line_items: Type.Optional(Type.Union([Type.Array(LineItemInputSchema, { maxItems: 5000 }), Type.Null()])),
    tables: Type.Optional(
      Type.Union([
        Type.Array(
          Type.Object(
            {
              index: Type.Integer({ minimum: 0 }),
              cells: Type.Array(Type.Object({ row: Type.Integer({ minimum: 0 }), col: Type.Integer({ minimum: 0 }), text: Text() }, { additionalProperties: false }), {
                maxItems: MAX_CELLS,
              }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 500, description: `at most ${MAX_CELLS} cells in all, each a cell of the table` },
        ),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false, title: 'Correction' },
);

const VendorSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    fields: Type.Array(Type.String(), { description: 'the fields this vendor’s memory reads' }),
    identifiers: Type.Array(Type.String(), { description: 'tax ids, IBANs and registration numbers (digits only) that recognise the vendor' }),
    size_bytes: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Vendor' },
);

const PageWordsSchema = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    width: Type.Number({ description: 'the page width in the units of the result boxes' }),
    height: Type.Number(),
    words: Type.Array(Type.Object({ text: Type.String(), bbox: BBox })),
  },
  { title: 'PageWords' },
);

export function reviewRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const { store } = deps;
  return async (app) => {
    const corrections = new CorrectionThread();
    app.addHook('onClose', () => corrections.close());
    deps.stopping?.addEventListener('abort', () => void corrections.close(), { once: true });

    app.put(
      '/documents/:id/corrections',
      {
        schema: {
          tags: ['documents'],
          summary: "Correct a succeeded document's results (merged over earlier corrections); teaches the vendor's memory",
          security,
          params: DocumentIdParams,
          body: CorrectionBodySchema,
          response: { 200: DocumentResultSchema, 409: ErrorSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { resultJson, notLearned } = await putCorrection(store, request.account.id, request.params.id, request.body, request.jsonText ?? JSON.stringify(request.body), deps.now(), (job) => corrections.run(request.account.id, job));
        if (notLearned) request.log.warn({ document_id: request.params.id, reason: notLearned }, 'a correction was stored without learning from it');
        // Serialised in the corrections thread with this route's response schema: sent as it is.
        return (reply as FastifyReply).type('application/json; charset=utf-8').send(resultJson);
      },
    );

    app.delete(
      '/documents/:id/corrections',
      {
        schema: {
          tags: ['documents'],
          summary: "Remove a document's corrections (204); its results are the engine's again",
          security,
          params: DocumentIdParams,
          response: { 204: Type.Null(), 409: ErrorSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        await succeededDocument(store, request.account.id, request.params.id);
        await store.review.deleteCorrection(request.account.id, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/documents/:id/words',
      {
        schema: {
          tags: ['documents'],
          summary: "The words read on a succeeded document's first and last pages, with their boxes, for reviewers to pick values from",
          security,
          params: DocumentIdParams,
          response: { 200: Type.Object({ pages: Type.Array(PageWordsSchema) }), 409: ErrorSchema, ...errorResponses },
        },
      },
      async (request) => ({ pages: await pageWords(store, request.account.id, request.params.id) }),
    );

    app.get(
      '/vendors',
      {
        schema: {
          tags: ['vendors'],
          summary: "What the account's corrections taught about each vendor, most recently taught first",
          security,
          response: { 200: Type.Object({ vendors: Type.Array(VendorSchema) }), ...errorResponses },
        },
      },
      async (request) => {
        const rows = await store.review.listVendors(request.account.id, MAX_VENDORS);
        return {
          vendors: rows.map((r) => {
            const m = toMemory(r);
            return {
              id: r.id,
              name: r.name,
              fields: learnedFields(m),
              identifiers: [...m.ids, ...(m.regs ?? [])],
              size_bytes: Buffer.byteLength(r.memory_json),
              created_at: new Date(r.created_at).toISOString(),
              updated_at: new Date(r.updated_at).toISOString(),
            };
          }),
        };
      },
    );

    app.delete(
      '/vendors/:id',
      {
        schema: {
          tags: ['vendors'],
          summary: 'Forget what was learned about a vendor (204)',
          security,
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) }),
          response: { 204: Type.Null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        if (!(await store.review.deleteVendor(request.account.id, request.params.id))) throw new ApiError(404, 'not_found', `vendor ${request.params.id} not found`);
        return reply.code(204).send(null);
      },
    );
  };
}

/**
 * Finishing touches on the OpenAPI document @fastify/swagger derives from the route schemas,
 * for what those schemas cannot say: the multipart upload body; query parameters with a default
 * are optional (TypeBox marks every non-Optional property required, and the defaults are what
 * make `limit` and `format` safe to leave out); the 304 of the two status endpoints (the
 * operations that take `wait`); the export formats of the results routes; the answers every /v1
 * route can give (429 with its headers, 503 while the database is out of reach), the 507 of the
 * writes and the 409/422 of an `Idempotency-Key`; and the contract's shapes as named components.
 */
import { nameSchemas } from './openapi-names.js';

type Json = Record<string, any>;

const UPLOAD_PATH = '/v1/batches/{batch_name}/documents';
/** The API.md §5 envelope (named by nameSchemas: every route declares it for its 400s). */
const ENVELOPE = { $ref: '#/components/schemas/Error' };
const WRITES = new Set(['post', 'put', 'patch', 'delete']);

const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'requests allowed in the window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'requests left in the window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'seconds until the window resets', schema: { type: 'integer' } },
};

function errorContent(): Json {
  return { 'application/json': { schema: ENVELOPE } };
}

/** `responses[status]` as an error answer, unless the route declares its own. */
function addError(op: Json, status: string, description: string, headers?: Json): void {
  op.responses[status] ??= { description, ...(headers ? { headers } : {}), content: errorContent() };
}

/** What the results routes answer for each non-JSON `format` (API.md §4a). */
const EXPORT_CONTENT = {
  'text/csv': { schema: { type: 'string', description: 'format=csv: the line items, one row each' } },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    schema: { type: 'string', format: 'binary', description: 'format=xlsx: Documents, Fields and Line items sheets, then one sheet per table' },
  },
  'application/x-ndjson': { schema: { type: 'string', description: 'format=ndjson: one DocumentResult a line' } },
  'application/zip': { schema: { type: 'string', format: 'binary', description: 'format=zip: one CSV per table, line_items.csv and fields.csv' } },
};

/** Adds the multipart request body, which Fastify's own schema cannot describe. */
function describeUpload(doc: Json): void {
  const op = doc.paths?.[UPLOAD_PATH]?.post;
  if (!op) return;
  op.requestBody = {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: { file: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'one part per file, each named `file`' } },
        },
      },
    },
  };
}

/** Returns `doc` with the additions above (changed in place). */
export function finishOpenApi(doc: Json): Json {
  describeUpload(doc);
  for (const [path, ops] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(ops)) {
      if (typeof op !== 'object' || !op.responses) continue;
      for (const p of op.parameters ?? []) if (p.in === 'query' && p.schema && 'default' in p.schema) p.required = false;
      if ((op.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'format') && op.responses['200']?.content) {
        op.responses['200'].content = { ...op.responses['200'].content, ...EXPORT_CONTENT };
      }
      if ((op.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'wait')) {
        const ok = op.responses['200'];
        if (ok) ok.headers = { ...ok.headers, ETag: { description: 'the version of the resource, for If-None-Match', schema: { type: 'string' } } };
        op.parameters.push({ in: 'header', name: 'if-none-match', required: false, schema: { type: 'string' }, description: 'an ETag from an earlier answer: 304 while it is still current' });
        op.responses['304'] = { description: 'Not Modified: the If-None-Match ETag is still current (after up to `wait` seconds); no body' };
      }
      if (path.startsWith('/v1/')) {
        op.responses['429'] = {
          description: 'rate_limited: too many requests for this key; retry after Retry-After seconds',
          headers: { ...rateLimitHeaders, 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } },
          content: errorContent(),
        };
        const retry = { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } };
        addError(op, '503', 'unavailable: the database cannot be reached; retry after Retry-After seconds', retry);
        if (WRITES.has(method)) addError(op, '507', 'insufficient_storage: the disk or the blob store is full; nothing was stored');
        if ((op.parameters ?? []).some((p: Json) => p.in === 'header' && p.name === 'idempotency-key')) {
          addError(op, '409', 'conflict: a request with this Idempotency-Key is still running');
          addError(op, '422', 'unprocessable: this Idempotency-Key was used with a different request');
        }
      }
    }
  }
  return nameSchemas(doc);
}

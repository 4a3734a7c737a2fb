/**
 * The one error handler: every non-2xx answer — ours, Fastify's own 404s,
 * validation, body-size and content-type errors — leaves as the API.md §5 envelope with the
 * request id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ApiErrorCode } from '../domain/errors.js';
import { storeFault } from '../store/faults.js';

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  503: 'unavailable',
};

/** 507: nothing of the request was stored (API.md §5). */
export const storageFull = () =>
  new ApiError(507, 'insufficient_storage', 'the disk or the blob store is full: nothing was stored; try again later', undefined, { 'retry-after': '30' });

/** 503 while the database cannot be reached (a restart, a lost connection). */
export const databaseUnavailable = () => new ApiError(503, 'unavailable', 'the database cannot be reached: try again', { reason: 'database' }, { 'retry-after': '2' });

/** Maps anything thrown in a request to an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const fault = storeFault(err);
  if (fault === 'storage_full') return storageFull();
  const e = err as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (e && Array.isArray(e.validation)) {
    return new ApiError(400, 'invalid_request', e.message, {
      in: e.validationContext ?? 'request',
      errors: e.validation.map((v) => {
        const x = v as { instancePath?: string; message?: string; params?: { limit?: unknown; additionalProperty?: unknown } };
        // The bound a value broke (maxLength, maxItems, maxProperties …), and the key a closed object does not take.
        const limit = typeof x.params?.limit === 'number' ? { limit: x.params.limit } : {};
        const key = typeof x.params?.additionalProperty === 'string' ? { key: x.params.additionalProperty } : {};
        return { path: x.instancePath ?? '', message: x.message ?? 'invalid', ...limit, ...key };
      }),
    });
  }
  // Matched by name: the store's cursor decoder throws it for a cursor that is not one of ours.
  if (e && e.name === 'InvalidCursorError') return new ApiError(400, 'invalid_request', e.message || 'invalid cursor', { in: 'querystring', field: 'cursor' });
  // Matched by name like the cursor error: the blob store (an object store) is not reachable now.
  if (e && e.name === 'BlobUnavailableError') return new ApiError(503, 'unavailable', e.message, { reason: 'blob_store' }, { 'retry-after': '5' });
  if (fault === 'unavailable') return databaseUnavailable();
  // Matched by name like the two above: a multipart body that is not one (./multipart.ts).
  if (e && e.name === 'MultipartError') return new ApiError(400, 'invalid_request', `malformed multipart body: ${e.message}`);
  if (e && e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'payload_too_large', 'request body is too large');
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) return new ApiError(status, CODE_BY_STATUS[status] ?? 'invalid_request', e.message || 'bad request');
  return new ApiError(500, 'internal_error', 'internal error');
}

/** Writes the envelope; used by the error handler, the not-found handler and the auth hook. */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  const body: { code: string; message: string; request_id: string; details?: Record<string, unknown> } = {
    code: err.code,
    message: err.message,
    request_id: request.id,
  };
  if (err.details) body.details = err.details;
  return reply.code(err.status).type('application/json; charset=utf-8').send({ error: body });
}

/** Longest path parameter the router matches: a batch name is at most 128 characters (API.md §2). */
export const MAX_PARAM_LENGTH = 256;

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook runs (a path
 * parameter over MAX_PARAM_LENGTH, a malformed percent-encoding) answers in the envelope too,
 * with the headers the onRequest hook would have set. Both are invalid requests (400): the
 * contract has no 414.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
  const apiErr =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError(400, 'invalid_request', `a path segment is longer than ${MAX_PARAM_LENGTH} characters`)
      : err.code === 'FST_ERR_BAD_URL'
        ? new ApiError(400, 'invalid_request', 'the path is not a valid URL component')
        : toApiError(err);
  void sendError(request, reply, apiErr);
}

/** Installs the error and not-found handlers on the root instance. */
export function registerErrorHandling(app: FastifyInstance, onFault?: (fault: 'storage_full' | 'unavailable') => void): void {
  app.setErrorHandler((err, request, reply) => {
    const apiErr = toApiError(err);
    if (apiErr.status === 507) onFault?.('storage_full');
    else if (apiErr.status === 503 && apiErr.details?.reason === 'database') onFault?.('unavailable');
    // The client's address (behind trusted proxies, the one they forwarded), with what it asked.
    if (apiErr.status >= 500) request.log.error({ err, client: request.ip, method: request.method, url: request.url }, 'request failed');
    return sendError(request, reply, apiErr);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new ApiError(404, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/**
 * `Idempotency-Key` on the upload and process POSTs: the same key with the same request replays
 * the first (successful) answer for 24 h, a different request with the key is 422, and a
 * duplicate while the first still runs is 409. Keys are scoped per API key and kept in the
 * database, so every process of a cluster agrees. The request's fingerprint is its method,
 * path and body; for a multipart upload it is the uploaded files' names and sha256s (the
 * boundary is random per request), which the first request learns from its own answer and a
 * replay computes by hashing the parts as they stream, storing nothing.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, conflict, invalidRequest } from '../domain/errors.js';
import type { AppDeps } from './deps.js';
import { MultipartReader, boundaryOf, pullChunks } from './multipart.js';
import { MAX_FIELDS, cleanFilename } from './routes/upload.js';
import { addRouteHook } from './route-hooks.js';

const TTL_MS = 24 * 3600_000;
/** How long a running request holds its key; a process that died mid-request frees it after this. 5 min covers a 100-file upload at ~10 MB/s. */
const LOCK_MS = 5 * 60_000;
const PURGE_EVERY_MS = 10 * 60_000;
const UPLOAD = '/v1/batches/:batch_name/documents';
const PROCESS = '/v1/batches/:batch_name/process';

interface Held {
  scope: string;
  key: string;
  hash: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request holds an Idempotency-Key (its answer is stored on send). */
    idempotency?: Held;
  }
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** The fingerprint of an upload: path and each file's cleaned name and sha256, in order. */
export function uploadFingerprint(path: string, files: Array<{ filename: string; sha256: string }>): string {
  return sha256(`POST ${path}\n` + files.map((f) => `${f.filename}\n${f.sha256}\n`).join(''));
}

/** Hashes the file parts of a multipart request as they stream (nothing is stored). */
async function hashParts(request: FastifyRequest, limits: { maxFileBytes: number; maxFilesPerRequest: number }): Promise<Array<{ filename: string; sha256: string }>> {
  const files: Array<{ filename: string; sha256: string }> = [];
  const boundary = boundaryOf(request.headers['content-type']);
  const body = pullChunks(request.raw);
  try {
    const reader = new MultipartReader(body.pull, boundary, { files: limits.maxFilesPerRequest + 1, fields: MAX_FIELDS });
    for await (const part of reader.parts()) {
      if (!part.isFile || part.name !== 'file') continue;
      const h = createHash('sha256');
      let size = 0;
      for await (const chunk of part.body) {
        size += chunk.length;
        if (size > limits.maxFileBytes) throw new ApiError(413, 'file_too_large', `a file exceeds ${limits.maxFileBytes} bytes`, { limit: limits.maxFileBytes });
        h.update(chunk);
      }
      files.push({ filename: cleanFilename(part.filename), sha256: h.digest('hex') });
    }
  } finally {
    body.release();
  }
  return files;
}

/** Adds the Idempotency-Key hooks to the /v1 scope (after auth). */
export function registerIdempotency(v1: FastifyInstance, deps: AppDeps): void {
  const store = deps.store.idempotency;
  let lastPurge = 0;

  // Documents the header on the two routes (and /openapi.json) without touching the route files.
  // The hooks go on the two routes only, not on every /v1 request.
  v1.addHook('onRoute', (route) => {
    if (route.method !== 'POST' || (route.url !== UPLOAD && route.url !== PROCESS)) return;
    addRouteHook(route, 'preHandler', takeKey);
    addRouteHook(route, 'onSend', keepAnswer);
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    const headers = (schema.headers as { type?: string; properties?: Record<string, unknown> } | undefined) ?? { type: 'object', properties: {} };
    headers.properties = {
      ...headers.properties,
      'idempotency-key': { type: 'string', minLength: 1, maxLength: 255, description: 'replays the first successful answer for 24 h; another request with the key → 422; while the first runs → 409' },
    };
    schema.headers = headers;
  });

  async function takeKey(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw invalidRequest('Idempotency-Key must be 1 to 255 visible ASCII characters', { field: 'Idempotency-Key' });
    const now = deps.now();
    if (now - lastPurge > PURGE_EVERY_MS) {
      lastPurge = now;
      store.purgeIdempotent(now).catch((err) => request.log.warn({ err }, 'idempotency purge failed'));
    }
    const auth = request.headers.authorization ?? '';
    const scope = sha256(auth.replace(/^Bearer\s+/i, '').trim());
    const path = request.url.split('?')[0];
    const multipart = request.routeOptions.url === UPLOAD;
    const hash = multipart ? null : sha256(`POST ${path}\n${JSON.stringify(request.body ?? null)}`);
    const got = await store.beginIdempotent(scope, key, hash, now, LOCK_MS, TTL_MS);
    if (got.state === 'started') {
      request.idempotency = { scope, key, hash };
      return;
    }
    if (got.state === 'in_progress') {
      if (hash && got.request_hash && got.request_hash !== hash) throw new ApiError(422, 'unprocessable', 'this Idempotency-Key was used with a different request');
      throw conflict('a request with this Idempotency-Key is still in progress; retry after it finishes');
    }
    const mine = multipart ? uploadFingerprint(path, await hashParts(request, deps.config.limits)) : hash;
    if (mine !== got.request_hash) throw new ApiError(422, 'unprocessable', 'this Idempotency-Key was used with a different request');
    return reply
      .code(got.status)
      .headers({ ...got.headers, 'idempotent-replayed': 'true' })
      .send(got.body);
  }

  async function keepAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = undefined;
    const status = reply.statusCode;
    try {
      // Only successes are kept: an error stored nothing (uploads are atomic), so a retry may run again.
      if (status >= 200 && status < 300 && typeof payload === 'string') {
        const hash = held.hash ?? uploadFingerprint(request.url.split('?')[0], (JSON.parse(payload) as { documents: Array<{ filename: string; sha256: string }> }).documents);
        const type = reply.getHeader('content-type');
        await store.completeIdempotent(held.scope, held.key, hash, status, { 'content-type': String(type ?? 'application/json; charset=utf-8') }, payload);
      } else {
        await store.releaseIdempotent(held.scope, held.key);
      }
    } catch (err) {
      request.log.error({ err }, 'idempotency record not written');
    }
    return payload;
  }
}

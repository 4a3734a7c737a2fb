/**
 * ETag / If-None-Match and `?wait=N` long-poll on the two status endpoints (API.md §3): with
 * If-None-Match a request waits for a change from that version, without it for the resource to
 * finish (batch `all_done`, document terminal); a finished resource answers at once. For
 * routes whose config names a `statusResource`, which answer through `sendStatus`. The ETag is a
 * hash of the body, serialised by the route's response schema and sent as it was hashed, so it
 * changes exactly when the answer does. A waiting request re-reads the resource (one indexed
 * row) on each `documents` change of the Store's change stream, and every 250 ms otherwise, so
 * a change the stream cannot carry (another process on the SQLite file) is seen within a
 * quarter second.
 */
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../domain/errors.js';
import type { AppDeps } from './deps.js';
import { addRouteHook } from './route-hooks.js';
import { batchView, documentView } from '../contract/views.js';
import type { BatchRow, DocumentRow } from '../store/types.js';

/** The longest `?wait` (API.md §3): 30 s keeps us under common proxy idle timeouts (60 s). */
export const MAX_WAIT_S = 30;
const POLL_MS = 250;
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

/** The strong ETag of a body: its bytes hashed. */
export function etagOf(json: string): string {
  return `"${hash('sha1', json, 'base64url')}"`;
}

/** True when an If-None-Match header names `etag` (weak comparison, `*` matches anything). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => strip(t) === strip(etag));
}

/** A status answer: the body as the route's response schema serialises it, its ETag, and whether the resource is finished. */
interface StatusBody {
  body: Buffer;
  etag: string;
  done: boolean;
}

const RESOURCES = {
  batch: (row: BatchRow) => {
    const view = batchView(row);
    return { view, done: view.all_done };
  },
  document: (row: DocumentRow) => {
    const view = documentView(row);
    return { view, done: TERMINAL.has(view.status) };
  },
};

/**
 * Status bodies by the row they show. The store hands out the same (frozen) batch row while the
 * batch is unchanged, so a poll between changes builds no view, serialises nothing and hashes
 * nothing: 3–4 µs of CPU a request on a quiet 2-core machine, 13 µs at load 7 (2026-12).
 */
const bodies = new WeakMap<object, StatusBody>();

/** The status answer for `row` (memoised per row object). */
function statusBody<K extends keyof typeof RESOURCES>(reply: FastifyReply, kind: K, row: Parameters<(typeof RESOURCES)[K]>[0]): StatusBody {
  let b = bodies.get(row);
  if (!b) {
    const { view, done } = RESOURCES[kind](row as BatchRow & DocumentRow);
    // The route's response schema makes the JSON (its serialiser returns a string).
    const json = reply.serialize(view) as string;
    b = { body: Buffer.from(json), etag: etagOf(json), done };
    bodies.set(row, b);
  }
  return b;
}

/**
 * Answers a status route with `row`: 200 and the body, or 304 when If-None-Match names its
 * ETag. The body is sent as bytes, so Fastify runs no serialiser and no preSerialization hook.
 */
export function sendStatus<K extends keyof typeof RESOURCES>(request: FastifyRequest, reply: FastifyReply, kind: K, row: Parameters<(typeof RESOURCES)[K]>[0]): FastifyReply {
  const { body, etag } = statusBody(reply, kind, row);
  reply.header('content-type', 'application/json; charset=utf-8').header('etag', etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) reply.code(304);
  return reply.send(body);
}

function parseWait(raw: unknown): number | null {
  if (raw === undefined || raw === '') return null;
  const s = String(raw);
  if (!/^\d{1,6}$/.test(s)) throw invalidRequest(`wait must be a whole number of seconds from 0 to ${MAX_WAIT_S}`, { field: 'wait' });
  const n = Number(s);
  if (n > MAX_WAIT_S) throw invalidRequest(`wait must be at most ${MAX_WAIT_S} seconds, got ${n}`, { field: 'wait', max: MAX_WAIT_S });
  return n;
}

/** Adds the ETag and long-poll hooks to the /v1 scope (before its routes are registered). */
export function registerLongPoll(v1: FastifyInstance, deps: AppDeps): void {
  // On shutdown, waiting requests answer at once instead of holding the close for up to 30 s.
  let closing = false;
  const closers = new Set<() => void>();
  v1.addHook('preClose', async () => {
    closing = true;
    for (const wake of closers) wake();
  });

  // Documents `?wait` in the status routes' schema (validation and /openapi.json) without
  // touching the route files; onRoute sees the routes registered after this call.
  // The hooks go on the status routes only: as /v1 hooks every request of every route paid for two
  // more hook calls that return at once.
  v1.addHook('onRoute', (route) => {
    if (!route.config?.statusResource) return;
    addRouteHook(route, 'preHandler', waitIfAsked);
    if (route.method !== 'GET') return;
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    const query = (schema.querystring as { type?: string; properties?: Record<string, unknown> } | undefined) ?? { type: 'object', properties: {} };
    query.properties = {
      ...query.properties,
      wait: { type: 'integer', minimum: 0, maximum: MAX_WAIT_S, description: 'long-poll: answer when the resource changes (or its ETag differs from If-None-Match), or after this many seconds' },
    };
    schema.querystring = query;
  });

  /** The resource's ETag, and whether it is finished (batch `all_done`, document terminal). */
  async function current(request: FastifyRequest, reply: FastifyReply): Promise<StatusBody | null> {
    const params = request.params as Record<string, string>;
    if (request.routeOptions.config.statusResource === 'batch') {
      const row = await deps.store.getBatch(request.account.id, params.batch_name);
      return row && statusBody(reply, 'batch', row);
    }
    const row = await deps.store.getDocument(request.account.id, params.id);
    return row && statusBody(reply, 'document', row);
  }

  // A callback hook: a request without `?wait` (nearly every poll) passes with no promise.
  function waitIfAsked(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    if ((request.query as Record<string, unknown> | undefined)?.wait === undefined) return done();
    waitForChange(request, reply).then(() => done(), done);
  }

  // With If-None-Match, a request waits for the resource to differ from that ETag (a client
  // holding an older version gets the new one at once). Without it, it waits for the resource
  // to finish, and a finished one answers at once (API.md §3).
  async function waitForChange(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const wait = parseWait((request.query as Record<string, unknown> | undefined)?.wait);
    if (!wait) return;
    const start = await current(request, reply);
    if (start === null) return; // the handler answers 404
    const inm = request.headers['if-none-match'];
    const answered = inm ? (s: { etag: string } | null) => !s || !ifNoneMatchHits(inm, s.etag) : (s: { done: boolean } | null) => !s || s.done;
    if (answered(start)) return;
    const deadline = Date.now() + wait * 1000;
    let gone = false;
    const onClose = () => (gone = true);
    request.raw.once('close', onClose);
    try {
      while (!gone && !closing && !reply.sent && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
          const unsubscribe = deps.store.changes.subscribe('documents', done);
          closers.add(done);
          function done() {
            clearTimeout(t);
            unsubscribe();
            closers.delete(done);
            resolve();
          }
        });
        if (answered(await current(request, reply))) return;
      }
    } finally {
      request.raw.off('close', onClose);
    }
  }
}

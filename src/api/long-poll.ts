/**
 * ETag / If-None-Match and `?wait=N` long-poll on the two status endpoints (API.md §3): with
 * If-None-Match a request waits for a change from that version, without it for the resource to
 * finish (batch `all_done`, document terminal); a finished resource answers at once. For
 * routes whose config names a `statusResource`. The ETag is a hash of the body, serialised
 * once by the route's response schema and sent as it was hashed, so it changes exactly when the
 * answer does. A waiting request re-reads the resource (one indexed row) on each `documents` change
 * of the Store's change stream, and every 250 ms otherwise, so a change the stream cannot carry
 * (another process on the SQLite file) is seen within a quarter second.
 */
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../domain/errors.js';
import type { AppDeps } from './deps.js';
import { addRouteHook } from './route-hooks.js';
import { batchView, documentView } from '../contract/views.js';

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

/** The body the route's response schema makes of `view` (its JSON serialiser returns a string). */
function serialized(reply: FastifyReply, view: unknown): string {
  return reply.serialize(view) as string;
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
    addRouteHook(route, 'preHandler', waitForChange);
    addRouteHook(route, 'preSerialization', setEtag);
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
  async function current(request: FastifyRequest, reply: FastifyReply): Promise<{ etag: string; done: boolean } | null> {
    const params = request.params as Record<string, string>;
    if (request.routeOptions.config.statusResource === 'batch') {
      const row = await deps.store.getBatch(request.account.id, params.batch_name);
      if (!row) return null;
      const view = batchView(row);
      return { etag: etagOf(serialized(reply, view)), done: view.all_done };
    }
    const row = await deps.store.getDocument(request.account.id, params.id);
    if (!row) return null;
    const view = documentView(row);
    return { etag: etagOf(serialized(reply, view)), done: TERMINAL.has(view.status) };
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

  async function setEtag(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    if (reply.statusCode !== 200) return payload;
    // Serialised here for the hash, and sent as is: the body is not serialised a second time.
    const json = serialized(reply, payload);
    const etag = etagOf(json);
    reply.header('etag', etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) reply.code(304);
    reply.serializer(() => json);
    return payload;
  }
}

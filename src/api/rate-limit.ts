/**
 * Per-API-key rate limits (API.md §6) with rate-limiter-flexible, counters in the database so
 * every API process of a cluster shares them: RateLimiterSQLite on the store's better-sqlite3
 * connection (embedded), RateLimiterPostgres on its pool (cluster), both on migration 102's
 * `rate_limits` table. Two classes: the status endpoints (120/min) and everything else.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../domain/errors.js';
import type { RateLimitBackend } from '../store/webhook-types.js';
import type { AppDeps } from './deps.js';
import { sendError } from './errors.js';
import { extensionsOf } from './webhooks-deps.js';

type LimitClass = 'status' | 'default';
const WINDOW_S = 60;

/** One limiter per class over the backend's table; keys are prefixed by class. */
export function buildLimiters(backend: RateLimitBackend, perMinute: Record<LimitClass, number>): Record<LimitClass, RateLimiterAbstract> {
  const make = (cls: LimitClass): RateLimiterAbstract => {
    // A key past its limit is then refused from memory until its window ends, so a client that
    // keeps hammering after its 429 costs no database write (each write is ~0.3 ms on SQLite).
    const common = {
      points: perMinute[cls],
      duration: WINDOW_S,
      keyPrefix: cls,
      tableName: backend.tableName,
      tableCreated: true,
      inMemoryBlockOnConsumed: perMinute[cls] + 1,
      // Every 5 minutes, rows that expired over an hour ago are deleted. RateLimiterPostgres does
      // this by default, RateLimiterSQLite only when asked: embedded mode kept a row per key
      // and class for ever.
      clearExpiredByTimeout: true,
    };
    return backend.kind === 'sqlite'
      ? new RateLimiterSQLite({ ...common, storeClient: backend.db, storeType: 'better-sqlite3' })
      : new RateLimiterPostgres({ ...common, storeClient: backend.pool, schemaName: backend.schemaName ?? undefined });
  };
  return { status: make('status'), default: make('default') };
}

/** The headers of a limited answer: the draft-6 trio plus the IETF structured fields. */
export function rateLimitHeaders(cls: LimitClass, limit: number, res: RateLimiterRes): Record<string, string> {
  const reset = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(res.remainingPoints),
    'ratelimit-reset': String(reset),
    'ratelimit-policy': `"${cls}";q=${limit};w=${WINDOW_S}`,
    ratelimit: `"${cls}";r=${res.remainingPoints};t=${reset}`,
  };
}

/**
 * The onRequest hook of the /v1 routes, after auth (it keys on the API key). A database error
 * lets the request through (logged): the limiter must not turn a hiccup into an outage.
 */
export function rateLimitHook(deps: AppDeps) {
  const { enabled, statusPerMinute, defaultPerMinute } = deps.config.rateLimits;
  const perMinute: Record<LimitClass, number> = { status: statusPerMinute, default: defaultPerMinute };
  let limiters: Promise<Record<LimitClass, RateLimiterAbstract>> | null = null;
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!enabled || reply.sent) return;
    const auth = request.headers.authorization;
    if (!auth || !request.account) return;
    limiters ??= extensionsOf(deps.store, deps.config.dbSchema).then((ext) => buildLimiters(ext.rateLimit, perMinute));
    const cls: LimitClass = request.routeOptions.config.statusResource ? 'status' : 'default';
    const key = createHash('sha256').update(auth.replace(/^Bearer\s+/i, '').trim()).digest('hex').slice(0, 32);
    let res: RateLimiterRes;
    try {
      res = await (await limiters)[cls].consume(key, 1);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        request.log.error({ err }, 'rate limiter unavailable; request let through');
        return;
      }
      const headers = rateLimitHeaders(cls, perMinute[cls], err);
      headers['retry-after'] = String(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      await sendError(
        request,
        reply,
        new ApiError(429, 'rate_limited', `rate limit of ${perMinute[cls]} requests a minute (${cls}) reached; retry in ${headers['retry-after']} s`, { limit: perMinute[cls], class: cls }, headers),
      );
      return;
    }
    reply.headers(rateLimitHeaders(cls, perMinute[cls], res));
  };
}

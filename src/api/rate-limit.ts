/**
 * Per-API-key rate limits (API.md §6) on the Store's counters (`store.rateLimits`), so every
 * API process of a cluster shares them. Two classes: the status endpoints (120/min) and
 * everything else.
 */
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../domain/errors.js';
import type { RateLimitCounters } from '../store/rate-limits.js';
import type { AppDeps } from './deps.js';
import { sendError } from './errors.js';
import { storeFault } from '../store/faults.js';

type LimitClass = 'status' | 'default';
const WINDOW_S = 60;

/** One limiter per class over the store's counters; keys are prefixed by class. */
export function buildLimiters(counters: RateLimitCounters, perMinute: Record<LimitClass, number>): Record<LimitClass, RateLimiterAbstract> {
  const make = (cls: LimitClass): RateLimiterAbstract => {
    // A key past its limit is then refused from memory until its window ends, so a client that
    // keeps hammering after its 429 costs no database write (each write is ~0.3 ms on SQLite).
    return counters.limiter({ points: perMinute[cls], duration: WINDOW_S, keyPrefix: cls, inMemoryBlockOnConsumed: perMinute[cls] + 1 });
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
 * The onRequest hook of the /v1 routes, after auth (it keys on the API key). A counter that
 * cannot be read or written (a full disk, a database away) refuses with 503: letting requests
 * through unchecked is what a flood would wait for. Null when the limits are off (`TABLEMILL_RATE_LIMITS=0`).
 */
export function rateLimitHook(deps: AppDeps): ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | null {
  const { enabled, statusPerMinute, defaultPerMinute } = deps.config.rateLimits;
  if (!enabled) return null;
  const perMinute: Record<LimitClass, number> = { status: statusPerMinute, default: defaultPerMinute };
  let limiters: Record<LimitClass, RateLimiterAbstract> | null = null;
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (reply.sent) return;
    const auth = request.headers.authorization;
    if (!auth || !request.account) return;
    limiters ??= buildLimiters(deps.store.rateLimits, perMinute);
    const cls: LimitClass = request.routeOptions.config.statusResource ? 'status' : 'default';
    const key = hash('sha256', auth.replace(/^Bearer\s+/i, '').trim(), 'hex').slice(0, 32);
    let res: RateLimiterRes;
    try {
      res = await limiters[cls].consume(key, 1);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        request.log.error({ err }, 'rate limiter unavailable; request refused');
        const fault = storeFault(err);
        if (fault) deps.metrics.storeFault(fault, 'api');
        await sendError(request, reply, new ApiError(503, 'unavailable', 'the rate limiter cannot count now: try again', { reason: 'rate_limiter' }, { 'retry-after': '5' }));
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

/**
 * Per-API-key rate limits (API.md §6): counted in memory and settled with the Store's shared
 * counters (`store.rateLimits`) in the background (`SettledCounts`), so every API process of a
 * cluster shares them within a documented bound and one process is exact. Two classes: the
 * status endpoints (120/min) and everything else.
 */
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { RateLimitCounters } from '../store/rate-limits.js';
import type { AppDeps } from './deps.js';
import { sendError } from './errors.js';
import { storeFault } from '../store/faults.js';
import { SettledCounts, type Count, type SettledCountsOptions } from './rate-counts.js';

type LimitClass = 'status' | 'default';
const WINDOW_S = 60;

/** How the counts of a limit meet the store's faults: `limiterFaults`. */
export type LimiterFaults = Pick<SettledCountsOptions, 'onFault' | 'paused'>;

/** Counts of one limit (`points` a minute for each key under `keyPrefix`) over the store's counters. */
export function settledCounts(counters: RateLimitCounters, points: number, keyPrefix: string, faults: LimiterFaults = {}): SettledCounts {
  let store: ReturnType<RateLimitCounters['limiter']> | null = null;
  return new SettledCounts({ store: () => (store ??= counters.limiter({ points, duration: WINDOW_S, keyPrefix })), points, windowMs: WINDOW_S * 1000, ...faults });
}

/** The headers of a limited answer: the draft-6 trio plus the IETF structured fields. */
export function rateLimitHeaders(cls: LimitClass, limit: number, res: Count): Record<string, string> {
  const reset = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(res.remaining),
    'ratelimit-reset': String(reset),
    'ratelimit-policy': `"${cls}";q=${limit};w=${WINDOW_S}`,
    ratelimit: `"${cls}";r=${res.remaining};t=${reset}`,
  };
}

/**
 * A store fault met by settling is logged and counted; while a write recently met a full disk
 * (and nothing was stored since) the counts are not sent at all.
 */
export function limiterFaults(deps: AppDeps, log: { warn(obj: object, msg: string): void }): LimiterFaults {
  return {
    onFault(err) {
      log.warn({ err }, 'rate-limit counters could not be settled with the store; counting in this process meanwhile');
      const fault = storeFault(err);
      if (fault) deps.metrics.storeFault(fault, 'api');
    },
    paused: () => deps.metrics.storageFullRecently(deps.now()),
  };
}

export interface RateLimitHook {
  /** Counts the request; undefined when it is admitted at once (headers set), else the refusal or the wait for the store. */
  (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined;
  close(): Promise<void>;
}

/**
 * The onRequest hook of the /v1 routes, after auth (it keys on the API key). Null when the limits
 * are off (`TABLEMILL_RATE_LIMITS=0`). A request far from its key's limit is answered with no
 * await at all; counters the store cannot keep never refuse a request (see `SettledCounts`).
 */
export function rateLimitHook(deps: AppDeps, log: { warn(obj: object, msg: string): void }): RateLimitHook | null {
  const { enabled, statusPerMinute, defaultPerMinute } = deps.config.rateLimits;
  if (!enabled) return null;
  const perMinute: Record<LimitClass, number> = { status: statusPerMinute, default: defaultPerMinute };
  const faults = limiterFaults(deps, log);
  const counts: Record<LimitClass, SettledCounts> = {
    status: settledCounts(deps.store.rateLimits, statusPerMinute, 'status', faults),
    default: settledCounts(deps.store.rateLimits, defaultPerMinute, 'default', faults),
  };

  async function refuse(request: FastifyRequest, reply: FastifyReply, cls: LimitClass, res: Count): Promise<void> {
    const headers = rateLimitHeaders(cls, perMinute[cls], res);
    headers['retry-after'] = String(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    const message = `rate limit of ${perMinute[cls]} requests a minute (${cls}) reached; retry in ${headers['retry-after']} s`;
    await sendError(request, reply, new ApiError(429, 'rate_limited', message, { limit: perMinute[cls], class: cls }, headers));
  }

  function answer(request: FastifyRequest, reply: FastifyReply, cls: LimitClass, res: Count): Promise<void> | undefined {
    if (!res.allowed) return refuse(request, reply, cls, res);
    reply.headers(rateLimitHeaders(cls, perMinute[cls], res));
    return undefined;
  }

  const hook = function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    if (reply.sent) return undefined;
    const auth = request.headers.authorization;
    if (!auth || !request.account) return undefined;
    const cls: LimitClass = request.routeOptions.config.statusResource ? 'status' : 'default';
    const key = hash('sha256', auth.replace(/^Bearer\s+/i, '').trim(), 'hex').slice(0, 32);
    const res = counts[cls].hit(key);
    return res instanceof Promise ? res.then((r) => answer(request, reply, cls, r)) : answer(request, reply, cls, res);
  } as RateLimitHook;
  hook.close = async () => {
    await Promise.all([counts.status.close(), counts.default.close()]);
  };
  return hook;
}

/**
 * API keys (API.md §2): `tm_` + 32 random bytes base64url, stored as sha256 hex. The hook puts
 * the account on the request; every route below it reads `request.account`.
 */
import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, unauthorized } from '../domain/errors.js';
import type { Account, KeyAuth, Store } from '../store/types.js';
import { sendError } from './errors.js';
import { KeyCache } from './key-cache.js';
import { settledCounts, type LimiterFaults } from './rate-limit.js';
import type { SettledCounts } from './rate-counts.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated account (set by the auth hook on every /v1 route). */
    account: Account;
  }
}

/** A new random API key. */
export function newApiKey(): string {
  return `tm_${randomBytes(32).toString('base64url')}`;
}

/** The stored form of a key. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Creates an account (if new) and a key for it; returns the key, which is never stored, and its id. */
export async function createKey(store: Store, accountName: string, now: number): Promise<{ key: string; keyId: string; account: Account }> {
  const account = await store.getOrCreateAccount(accountName, now);
  const key = newApiKey();
  const keyId = await store.createApiKey(account.id, hashApiKey(key), now);
  return { key, keyId, account };
}

/**
 * How stale `last_used_at` may get: a key used all day writes it once a minute, not once a
 * request, so authenticating stays one indexed read.
 */
const LAST_USED_EVERY_MS = 60_000;

/** The 429 of an address past its failed authentications. */
function tooManyFailures(perMinute: number, msBeforeNext: number): ApiError {
  const retry = String(Math.max(1, Math.ceil(msBeforeNext / 1000)));
  return new ApiError(429, 'rate_limited', `more than ${perMinute} failed authentications a minute from this address; retry in ${retry} s`, { limit: perMinute, class: 'auth_failures' }, { 'retry-after': retry });
}

/**
 * Failed authentications per client address, counted in memory and settled with the store's
 * counters in the background (`SettledCounts`: every API process of a cluster shares them within
 * the bound documented there; one process is exact): past `perMinute`, the address answers 429
 * before its key is even looked at (unless it is one this process has already verified), so
 * guessing keys gains nothing from the answers. Counters the store cannot keep are counted in
 * this process alone meanwhile, never opened and never refusing everyone.
 */
export class AuthFailureLimit {
  private readonly counts: SettledCounts;

  constructor(
    store: Store,
    readonly perMinute: number,
    faults?: LimiterFaults,
  ) {
    this.counts = settledCounts(store.rateLimits, perMinute, 'authfail', faults);
  }

  /** The refusal for `address` when it is past its limit (this process's view: no store read). */
  blocked(address: string): ApiError | null {
    const res = this.counts.peek(address);
    return res.allowed ? null : tooManyFailures(this.perMinute, res.msBeforeNext);
  }

  /** Counts a failure of `address`; the refusal when that one is over the limit. */
  async failed(address: string): Promise<ApiError | null> {
    const res = await this.counts.hit(address);
    return res.allowed ? null : tooManyFailures(this.perMinute, res.msBeforeNext);
  }

  close(): Promise<void> {
    return this.counts.close();
  }
}

/** What the /v1 onRequest hook runs: the synchronous check of keys already verified, then, if it fails, the full one. */
export interface Authenticate {
  /**
   * Sets `request.account` when the request's key is one this process has verified and may
   * still trust (`KeyCache.peekToken`), with no await and no database read; false when `verify`
   * must run.
   */
  cached(request: FastifyRequest): boolean;
  /** The full check, for a request `cached` did not admit: sets `request.account` or answers 401/429. */
  verify(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The onRequest hook of the /v1 routes. Verified keys are cached per process (`KeyCache`); a
 * revocation reaches every API process through the change stream, so a revoked key answers
 * 401 on the next request there. `failures` limits failed attempts per client address.
 */
export function authHook(store: Store, now: () => number, cache: KeyCache = new KeyCache(store.changes, now), failures?: AuthFailureLimit): Authenticate {
  function admit(request: FastifyRequest, found: KeyAuth): void {
    const t = now();
    if (found.last_used_at === null || t - found.last_used_at >= LAST_USED_EVERY_MS) {
      // Best effort: a failed bookkeeping write must not fail the request.
      // The cached entry shares the object: the next touch is a minute away on this process.
      found.last_used_at = t;
      store.touchApiKey(found.key_id, t).catch((err) => request.log.warn({ err }, 'could not record the key\'s last use'));
    }
    request.account = found.account;
  }

  // A key this process has verified (and may still trust) is served without reading the
  // address's failures: only a right key is in the cache, so a guess gains from this only by
  // being right, one chance in 2^256. The read costs a status request 4–5 µs of CPU in SQLite
  // alone (its locks are system calls), beside the limiter's own promises.
  function cached(request: FastifyRequest): boolean {
    const header = request.headers.authorization;
    const m = header ? BEARER.exec(header) : null;
    const found = m ? cache.peekToken(m[1], hashApiKey) : null;
    if (!found) return false;
    admit(request, found);
    return true;
  }

  async function verify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const m = header ? BEARER.exec(header) : null;
    const keyHash = m ? hashApiKey(m[1]) : null;
    const refused = failures ? failures.blocked(request.ip) : null;
    if (refused) {
      await sendError(request, reply, refused);
      return;
    }
    const found = keyHash ? await cache.get(keyHash, () => store.findKey(keyHash)) : null;
    if (!found) {
      const limited = failures ? await failures.failed(request.ip) : null;
      await sendError(request, reply, limited ?? (m ? unauthorized() : unauthorized('missing Authorization: Bearer <api key>')));
      return;
    }
    admit(request, found);
  }
  return { cached, verify };
}

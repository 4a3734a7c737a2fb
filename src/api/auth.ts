/**
 * API keys (API.md §2): `tm_` + 32 random bytes base64url, stored as sha256 hex. The hook puts
 * the account on the request; every route below it reads `request.account`.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../domain/errors.js';
import type { Account, Store } from '../store/types.js';
import { sendError } from './errors.js';

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
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Creates an account (if new) and a key for it; returns the key, which is never stored. */
export async function createKey(store: Store, accountName: string, now: number): Promise<{ key: string; account: Account }> {
  const account = await store.getOrCreateAccount(accountName, now);
  const key = newApiKey();
  await store.createApiKey(account.id, hashApiKey(key), now);
  return { key, account };
}

/**
 * Known keys are cached for 5 s: the status endpoint's budget is 5 ms p99 at 5,000 req/s and a
 * key lookup is a second database read per request. Only known keys are cached (unknown ones
 * always reach the store), and there is no revocation yet, so staleness cannot admit a bad key.
 */
const CACHE_MS = 5000;
const CACHE_MAX = 10_000;

/** The onRequest hook of the /v1 routes. */
export function authHook(store: Store, now: () => number) {
  const cache = new Map<string, { account: Account; until: number }>();
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) {
      await sendError(request, reply, unauthorized('missing Authorization: Bearer <api key>'));
      return;
    }
    const hash = hashApiKey(m[1]);
    const t = now();
    const hit = cache.get(hash);
    if (hit && hit.until > t) {
      request.account = hit.account;
      return;
    }
    const account = await store.findAccountByKeyHash(hash);
    if (!account) {
      await sendError(request, reply, unauthorized());
      return;
    }
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(hash, { account, until: t + CACHE_MS });
    request.account = account;
  };
}

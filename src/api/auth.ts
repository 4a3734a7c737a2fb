/**
 * API keys (API.md §2): `tm_` + 32 random bytes base64url, stored as sha256 hex. The hook puts
 * the account on the request; every route below it reads `request.account`.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../domain/errors.js';
import type { Account, Store } from '../store/types.js';
import { sendError } from './errors.js';
import { KeyCache } from './key-cache.js';

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

/**
 * The onRequest hook of the /v1 routes. Verified keys are cached per process (`KeyCache`); a
 * revocation reaches every API process through the change stream, so a revoked key answers
 * 401 on the next request there.
 */
export function authHook(store: Store, now: () => number, cache: KeyCache = new KeyCache(store.changes, now)) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) {
      await sendError(request, reply, unauthorized('missing Authorization: Bearer <api key>'));
      return;
    }
    const hash = hashApiKey(m[1]);
    const found = await cache.get(hash, () => store.findKey(hash));
    if (!found) {
      await sendError(request, reply, unauthorized());
      return;
    }
    const t = now();
    if (found.last_used_at === null || t - found.last_used_at >= LAST_USED_EVERY_MS) {
      // Best effort: a failed bookkeeping write must not fail the request.
      // The cached entry shares the object: the next touch is a minute away on this process.
      found.last_used_at = t;
      store.touchApiKey(found.key_id, t).catch((err) => request.log.warn({ err }, 'could not record the key\'s last use'));
    }
    request.account = found.account;
  };
}

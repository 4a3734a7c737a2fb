/**
 * `verifyWebhook(headers, body, secret)`: checks a delivery's Standard Webhooks signature
 * (API.md §7) and returns the parsed event, or throws. Receivers should dedupe on `webhook-id`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BatchCompletedEvent } from './types.js';

/** The signature did not verify, or the timestamp is outside the tolerance. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** How far the `webhook-timestamp` may be from now (replay protection): 5 minutes. */
const TOLERANCE_S = 300;

function header(headers: Headers | Record<string, string | string[] | undefined>, name: string): string {
  const v = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) throw new WebhookVerificationError(`missing ${name} header`);
  return s;
}

/**
 * Verifies the raw request `body` (exactly the bytes received) against `secret` (`whsec_…`).
 * `now` is for tests.
 */
export function verifyWebhook(headers: Headers | Record<string, string | string[] | undefined>, body: string | Uint8Array, secret: string, now = Date.now()): BatchCompletedEvent {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d+$/.test(ts) || Math.abs(now / 1000 - Number(ts)) > TOLERANCE_S) throw new WebhookVerificationError('webhook-timestamp is missing or too far from now');
  if (!secret.startsWith('whsec_')) throw new WebhookVerificationError('the secret is not a whsec_ secret');
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${ts}.${text}`).digest();
  // The header may carry several space-separated signatures (during a secret rotation).
  const ok = signatures.split(' ').some((s) => {
    const [version, mac] = s.split(',', 2);
    if (version !== 'v1' || !mac) return false;
    const got = Buffer.from(mac, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!ok) throw new WebhookVerificationError('no webhook-signature matches the secret');
  return JSON.parse(text) as BatchCompletedEvent;
}

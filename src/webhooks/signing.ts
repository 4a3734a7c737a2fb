/**
 * Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256("{id}.{ts}.{body}")>`,
 * keyed with the bytes after `whsec_` (base64-decoded). Secrets are `whsec_` + base64 of 32
 * random bytes (the spec asks for 24–64; 32 is HMAC-SHA256's block-friendly key size).
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A fresh secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The key bytes of a `whsec_…` secret, or null if it is not one (24–64 bytes of strict base64). */
export function secretKey(secret: string): Buffer | null {
  if (!secret.startsWith(PREFIX)) return null;
  const b64 = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return null;
  const key = Buffer.from(b64, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

/** The `webhook-signature` header value for one attempt. */
export function signatureHeader(secret: string, id: string, timestampSec: number, body: string): string {
  const key = secretKey(secret);
  if (!key) throw new Error('webhook secret is not a whsec_ secret');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The secret as GET shows it: prefix and last four characters. */
export function maskSecret(secret: string): string {
  return `${PREFIX}…${secret.slice(-4)}`;
}

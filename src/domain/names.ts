import { randomBytes } from 'node:crypto';

/** Batch names of API.md §2. */
export const BATCH_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isValidBatchName(name: string): boolean {
  return BATCH_NAME_RE.test(name);
}

/** Opaque, prefixed, unguessable ids: 16 random bytes (128 bits) in base32-ish lowercase hex. */
export function newId(prefix: 'doc' | 'bat' | 'acc' | 'key' | 'evt' | 'dlv' | 'req' | 'ven'): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}

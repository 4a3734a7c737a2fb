/**
 * What a failed store, blob or file operation says about the system rather than the request:
 * the disk or blob store is full, or the database cannot be reached now. Callers outside the
 * store answer these without knowing the database behind it (507 and 503 in the API, a backoff
 * in the workers).
 */

export type StoreFault = 'storage_full' | 'unavailable';

/** Node's and the databases' codes for "no space left" (PostgreSQL 53100 disk_full, MinIO's XMinioStorageFull). */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100', 'XMinioStorageFull']);

/**
 * "Cannot reach the database now": refused or dropped connections, a server shutting down or
 * starting (57P01–57P03), connection-class SQLSTATEs (08xxx), and SQLite's lock wait running out.
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', 'SQLITE_BUSY']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|the database system is (starting up|shutting down)/i;

/** The fault `err` (or the error it wraps) reports, or null for anything else. */
export function storeFault(err: unknown): StoreFault | null {
  for (let e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    const httpStatus = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    // An object store's 507 Insufficient Storage, even inside the blob store's "unavailable".
    if (FULL_CODES.has(code) || e.name === 'XMinioStorageFull' || httpStatus === 507) return 'storage_full';
    if (code.startsWith('SQLITE_IOERR') && /disk is full|no space/i.test(String(e.message ?? ''))) return 'storage_full';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return 'unavailable';
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return 'unavailable';
  }
  return null;
}

/**
 * Slow upload bodies: a body that sends nothing for the idle timeout is cut with 408 (its socket
 * and temp file freed), and one client address may run only so many uploads at once.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../domain/errors.js';

/** The error a watched request body ends with when it stays silent too long. */
export class UploadIdleError extends Error {
  constructor(readonly idleMs: number) {
    super(`no upload data for ${idleMs} ms`);
    this.name = 'UploadIdleError';
  }
}

/** 408 `request_timeout` for a body cut at the idle timeout. */
export function uploadIdleApiError(idleMs: number): ApiError {
  return new ApiError(408, 'request_timeout', `the upload sent nothing for ${idleMs} ms`, { idle_timeout_ms: idleMs });
}

/**
 * Watches `raw` until its body ends: after `idleMs` without a byte, it errors with
 * `UploadIdleError`. The multipart reader listens for the request's errors and fails the part
 * being written with it, so the blob store's put removes its temp file and the route's loop ends
 * with that error; the socket stays open for the 408 (the reader never destroys the request). Returns a function that stops watching.
 */
export function watchUploadIdle(raw: IncomingMessage, idleMs: number): { stop(): void; fired(): boolean } {
  let fired = false;
  if (idleMs <= 0 || raw.readableEnded) return { stop: () => {}, fired: () => fired };
  // One timer, pushed back on each chunk (`refresh` re-arms it without a new timer object).
  let timer: NodeJS.Timeout | null = setTimeout(fire, idleMs);
  const arm = () => timer?.refresh();
  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    raw.off('data', arm).off('end', stop).off('close', stop);
  };
  function fire() {
    stop();
    if (raw.readableEnded || raw.destroyed) return;
    fired = true;
    // Never an unhandled 'error' event, should the reader have let go of the request already.
    if (raw.listenerCount('error') === 0) raw.once('error', () => {});
    raw.emit('error', new UploadIdleError(idleMs));
  }
  raw.on('data', arm).once('end', stop).once('close', stop);
  return { stop, fired: () => fired };
}

/** Uploads in flight per client address, at most `max` each (0: no cap). */
export class UploadSlots {
  private readonly active = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot for `address` or throws 429; the returned function gives it back (once). */
  take(address: string): () => void {
    if (this.max <= 0) return () => {};
    const n = this.active.get(address) ?? 0;
    if (n >= this.max) {
      throw new ApiError(429, 'rate_limited', `at most ${this.max} uploads at once from one address`, { limit: this.max }, { 'retry-after': '1' });
    }
    this.active.set(address, n + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.active.get(address) ?? 1) - 1;
      if (left <= 0) this.active.delete(address);
      else this.active.set(address, left);
    };
  }

  /** Uploads in flight from `address`. */
  inFlight(address: string): number {
    return this.active.get(address) ?? 0;
  }
}

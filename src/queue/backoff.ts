/** Capped exponential backoff with full jitter (the pg-boss / AWS pattern). */

export interface BackoffOptions {
  /** Delay scale of the first retry. */
  baseMs: number;
  /** No delay exceeds this. */
  capMs: number;
  /** [0, 1) source, injectable for tests. */
  random?: () => number;
}

/**
 * The delay before retry number `attempt` (1-based): uniform in [0, min(cap, base · 2^(attempt-1))).
 * Full jitter spreads retries of many workers that failed together (a database restart) instead
 * of having them all come back in lock-step.
 */
export function backoffMs(attempt: number, opts: BackoffOptions): number {
  const random = opts.random ?? Math.random;
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  return Math.floor(random() * ceiling);
}

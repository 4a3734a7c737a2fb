/** Waiting: the one `sleep` and the one growing pause between tries. */

/** Resolves after `ms`, or at once when `signal` aborts (it never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The pause before try `n + 1` after `n` failed ones (`n` ≥ 0): `first` doubling each time, never
 * more than `cap`.
 */
export function backoffMs(n: number, first: number, cap = Infinity): number {
  return Math.min(first * 2 ** n, cap);
}

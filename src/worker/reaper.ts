/** The loop that returns expired leases to the queue (or fails them after max attempts). */
import type { Store } from '../store/types.js';

export interface ReaperOptions {
  maxAttempts: number;
  intervalMs: number;
  /** Clock, injectable for tests. */
  now?: () => number;
  onReaped?: (r: { requeued: number; failed: number }) => void;
  onError?: (err: unknown) => void;
}

export interface Reaper {
  /** Stops the loop and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Reaps once at start (leases left by a crashed predecessor), then every `intervalMs`. Every
 * process may run one: on PostgreSQL the store takes an advisory lock so one process does the
 * work per pass, on SQLite the write lock serialises them. A failed pass is reported and the
 * loop goes on (the next pass retries it).
 */
export function startReaper(store: Store, opts: ReaperOptions): Reaper {
  const now = opts.now ?? Date.now;
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;

  const pass = async () => {
    try {
      const r = await store.reapExpiredLeases(opts.maxAttempts, now());
      if (r.requeued || r.failed) opts.onReaped?.(r);
    } catch (err) {
      if (!stopped) opts.onError?.(err);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = pass().then(schedule);
    }, opts.intervalMs);
    timer.unref?.();
  };
  current = pass().then(schedule);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}

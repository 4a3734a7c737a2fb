/**
 * Removes the partial files of uploads cut off by a killed process: at start, then every
 * `intervalMs`. Without it a temp file under `data/blobs/` survived a kill -9 mid-upload forever.
 */
import type { BlobStore } from './types.js';

/** Every 10 minutes; a temp file untouched for an hour is stale even when its pid runs again. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;
export const STALE_TEMP_AGE_MS = 60 * 60_000;

export interface TempSweep {
  /** The first pass, started at once. */
  readonly first: Promise<void>;
  stop(): void;
}

/** Starts sweeping `blobs` (a no-op for stores without temp files). */
export function startTempSweep(blobs: BlobStore, onSwept: (removed: number) => void, onError: (err: unknown) => void, intervalMs = SWEEP_INTERVAL_MS): TempSweep {
  const pass = async () => {
    try {
      const removed = (await blobs.removeStaleTemp?.(STALE_TEMP_AGE_MS)) ?? 0;
      if (removed > 0) onSwept(removed);
    } catch (err) {
      onError(err);
    }
  };
  const timer = setInterval(() => void pass(), intervalMs);
  timer.unref();
  return { first: pass(), stop: () => clearInterval(timer) };
}

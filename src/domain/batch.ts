import type { PublicStatus } from './status.js';

/** Per-status counts kept on the batch row, updated in the transaction of every transition. */
export interface StatusCounts {
  queued: number;
  processing: number;
  succeeded: number;
  failed: number;
  canceled: number;
}

export function emptyCounts(): StatusCounts {
  return { queued: 0, processing: 0, succeeded: 0, failed: 0, canceled: 0 };
}

export function totalOf(c: StatusCounts): number {
  return c.queued + c.processing + c.succeeded + c.failed + c.canceled;
}

/** `all_done`: at least one document and every document terminal (API.md §1). */
export function isAllDone(c: StatusCounts): boolean {
  const total = totalOf(c);
  return total > 0 && c.queued === 0 && c.processing === 0;
}

/** The batch aggregation rule of API.md §1, rules 1–5 in order. */
export function batchStatus(c: StatusCounts): PublicStatus {
  const total = totalOf(c);
  if (total === 0 || c.queued === total) return 'queued';
  if (!isAllDone(c)) return 'processing';
  if (c.canceled === total) return 'canceled';
  if (c.succeeded === 0) return 'failed';
  return 'succeeded';
}

/**
 * The batch timestamps from what the batch row keeps: `created_at` (earliest upload),
 * `min_started_at` (earliest document start), `max_completed_at` (latest document completion).
 */
export function batchTimestamps(
  c: StatusCounts,
  createdAt: number,
  minStartedAt: number | null,
  maxCompletedAt: number | null,
): { created_at: number; started_at: number | null; completed_at: number | null } {
  return {
    created_at: createdAt,
    started_at: minStartedAt,
    completed_at: isAllDone(c) ? maxCompletedAt : null,
  };
}

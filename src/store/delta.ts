/** How one transaction moves a batch row's counters; both adapters apply it in one UPDATE. */
import type { StatusCounts } from '../domain/batch.js';
import type { PublicStatus } from '../domain/status.js';

export interface BatchDelta {
  counts: Partial<StatusCounts>;
  /** Change of `document_count`. */
  documents?: number;
  /** Change of `awaiting_process` (documents uploaded and not yet submitted). */
  awaiting?: number;
  /** A document started at this time: `min_started_at` takes the smaller. */
  startedAt?: number;
  /** A document completed at this time: `max_completed_at` takes the larger. */
  completedAt?: number;
}

/** The bind parameters of the adapters' `bumpBatch` statement. */
export function deltaParams(id: string, d: BatchDelta) {
  return {
    id,
    dq: d.counts.queued ?? 0,
    dp: d.counts.processing ?? 0,
    ds: d.counts.succeeded ?? 0,
    df: d.counts.failed ?? 0,
    dc: d.counts.canceled ?? 0,
    dn: d.documents ?? 0,
    da: d.awaiting ?? 0,
    started: d.startedAt ?? null,
    completed: d.completedAt ?? null,
  };
}

/** One document moving from public status `from` to `to` (either may be absent: insert, delete). */
export function move(from: PublicStatus | null, to: PublicStatus | null, n = 1): Partial<StatusCounts> {
  const c: Partial<StatusCounts> = {};
  if (from) c[from] = (c[from] ?? 0) - n;
  if (to) c[to] = (c[to] ?? 0) + n;
  return c;
}

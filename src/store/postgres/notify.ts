/**
 * The NOTIFY channels, sent inside the transaction that makes the change (delivered at commit).
 * Only latency hints: every listener also polls.
 */
import type { ChangeKind } from '../changes.js';
import type { Q } from './pool.js';

/** Idle workers wait on it: documents became pending. */
export const WORK_CHANNEL = 'tablemill_work';
/** The Store's change stream; the payload is the `ChangeKind`. */
export const CHANGES_CHANNEL = 'tablemill_changes';

export async function notifyWork(q: Q): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [WORK_CHANNEL, '']);
}

export async function notifyChange(q: Q, kind: ChangeKind): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, kind]);
}

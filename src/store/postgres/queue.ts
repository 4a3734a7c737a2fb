/** SQL of the queue: claim, renew, complete, reap (PostgreSQL). */
import type { DocumentOutcome } from '../types.js';
import type { Q } from './pool.js';

type Raw = Record<string, unknown>;

/** The channel `LISTEN`ed by idle workers; NOTIFY is only a latency hint, polling keeps it correct. */
export const WORK_CHANNEL = 'tablemill_work';

/**
 * Claims up to `limit` pending documents in one statement: concurrent claimers skip each
 * other's rows (SKIP LOCKED), so two never get the same one. `attempts` becomes 1 exactly on
 * a first claim.
 */
export async function claimPending(q: Q, limit: number, leaseUntil: number, now: number): Promise<Raw[]> {
  const sql = `UPDATE documents SET state = 'leased', attempts = attempts + 1, lease_until = $2, started_at = coalesce(started_at, $3)
     WHERE id IN (SELECT id FROM documents WHERE state = 'pending' ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id, account_id, batch_id, blob_key, content_type, filename, attempts, seq`;
  const { rows } = await q.query(sql, [limit, leaseUntil, now]);
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** Extends the lease while `attempt` holds it (the attempt fence). */
export async function renewLeased(q: Q, id: string, attempt: number, leaseUntil: number): Promise<boolean> {
  const sql = "UPDATE documents SET lease_until = $3 WHERE id = $1 AND attempts = $2 AND state = 'leased'";
  return (await q.query(sql, [id, attempt, leaseUntil])).rowCount === 1;
}

/** Writes the terminal state if `attempt` still holds the lease; returns the batch id or null. */
export async function completeLeased(q: Q, id: string, attempt: number, outcome: DocumentOutcome, now: number): Promise<string | null> {
  const sql = `UPDATE documents SET state = $3, page_count = $4, processing_error = $5::jsonb, completed_at = $6, lease_until = NULL
     WHERE id = $1 AND attempts = $2 AND state = 'leased' RETURNING batch_id`;
  const error = outcome.status === 'failed' ? JSON.stringify(outcome.error) : null;
  const r = (await q.query(sql, [id, attempt, outcome.status, outcome.page_count, error, now])).rows[0];
  return r ? (r.batch_id as string) : null;
}

/** Expired leases: back to `pending` while attempts remain, else `failed / worker_lost`. */
export async function reapExpired(q: Q, maxAttempts: number, now: number): Promise<{ batch_id: string; state: string }[]> {
  const sql = `UPDATE documents SET
       state = CASE WHEN attempts >= $1 THEN 'failed' ELSE 'pending' END,
       completed_at = CASE WHEN attempts >= $1 THEN $2::bigint END,
       processing_error = CASE WHEN attempts >= $1 THEN $3::jsonb END,
       lease_until = NULL
     WHERE id IN (SELECT id FROM documents WHERE state = 'leased' AND lease_until < $2 FOR UPDATE SKIP LOCKED)
     RETURNING batch_id, state`;
  const error = JSON.stringify({ code: 'worker_lost', message: `the worker stopped renewing its lease ${maxAttempts} times` });
  return (await q.query(sql, [maxAttempts, now, error])).rows;
}

/** Takes the reaper's transaction-scoped advisory lock; false if another process holds it. */
export async function tryReaperLock(q: Q, schema: string | null): Promise<boolean> {
  const r = (await q.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [`tablemill_reaper:${schema ?? 'public'}`])).rows[0];
  return r.ok === true;
}

/** Wakes LISTENing workers when the transaction commits. */
export async function notifyWork(q: Q): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [WORK_CHANNEL, '']);
}

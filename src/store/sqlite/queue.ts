/** SQL of the queue: claim, renew, complete, reap (SQLite). */
import type { DocumentOutcome } from '../types.js';
import { fairOrderBy, fairOrderSql } from '../fair-order.js';
import { prepared, type Db } from './db.js';

type Raw = Record<string, unknown>;

const FAIR = fairOrderSql("JOIN documents d ON d.id IN (SELECT id FROM documents WHERE batch_id = b.id AND state = 'pending' ORDER BY seq LIMIT @limit)");

/**
 * Claims up to `limit` pending documents in one statement, in fair order (see `fairOrderSql`).
 * SQLite has no SKIP LOCKED; the
 * caller holds the write lock (`BEGIN IMMEDIATE`) and the `state = 'pending'` guard in the
 * UPDATE makes a stale pick harmless. `attempts` becomes 1 exactly on a first claim.
 */
export function claimPending(db: Db, limit: number, leaseUntil: number, now: number): Raw[] {
  const sql = `UPDATE documents SET state = 'leased', attempts = attempts + 1, lease_until = @lease, started_at = coalesce(started_at, @now)
     WHERE id IN (SELECT id FROM (${FAIR}) f ORDER BY ${fairOrderBy('f')} LIMIT @limit) AND state = 'pending'
     RETURNING id, account_id, batch_id, blob_key, content_type, filename, attempts, queued_at`;
  return prepared(db, sql).all({ lease: leaseUntil, now, limit }) as Raw[];
}

/** Stamps the batches a claim took documents from, for the fair order's turns. */
export function markClaimed(db: Db, batchIds: Iterable<string>, now: number): void {
  const stmt = prepared(db, 'UPDATE batches SET last_claimed_at = ? WHERE id = ?');
  for (const id of batchIds) stmt.run(now, id);
}

/** Extends the lease while `attempt` holds it (the attempt fence). */
export function renewLeased(db: Db, id: string, attempt: number, leaseUntil: number): boolean {
  const sql = "UPDATE documents SET lease_until = ? WHERE id = ? AND attempts = ? AND state = 'leased'";
  return prepared(db, sql).run(leaseUntil, id, attempt).changes === 1;
}

/** Writes the terminal state if `attempt` still holds the lease; returns the batch id or null. */
export function completeLeased(db: Db, id: string, attempt: number, outcome: DocumentOutcome, now: number): string | null {
  const sql = `UPDATE documents SET state = @state, page_count = @pages, processing_error = @error, completed_at = @now, lease_until = NULL
     WHERE id = @id AND attempts = @attempt AND state = 'leased' RETURNING batch_id`;
  const r = prepared(db, sql).get({
    id,
    attempt,
    now,
    state: outcome.status,
    pages: outcome.page_count,
    error: outcome.status === 'failed' ? JSON.stringify(outcome.error) : null,
  }) as Raw | undefined;
  return r ? (r.batch_id as string) : null;
}

/** True when the document already holds this attempt's outcome (a repeated completion). */
export function holdsOutcome(db: Db, id: string, attempt: number, outcome: DocumentOutcome): boolean {
  const sql = 'SELECT 1 FROM documents WHERE id = @id AND attempts = @attempt AND state = @state AND page_count IS @pages AND processing_error IS @error';
  const error = outcome.status === 'failed' ? JSON.stringify(outcome.error) : null;
  return prepared(db, sql).get({ id, attempt, state: outcome.status, pages: outcome.page_count, error }) !== undefined;
}

/**
 * Gives a lease back (shutdown): the document waits in the queue again and the claim is not
 * counted against the attempt limit. Fenced by `attempt`; returns the batch id or null.
 */
export function releaseLeased(db: Db, id: string, attempt: number, now: number): string | null {
  const sql = `UPDATE documents SET state = 'pending', lease_until = NULL, queued_at = @now, released_attempts = released_attempts + 1
     WHERE id = @id AND attempts = @attempt AND state = 'leased' RETURNING batch_id`;
  const r = prepared(db, sql).get({ id, attempt, now }) as Raw | undefined;
  return r ? (r.batch_id as string) : null;
}

/**
 * Expired leases: back to `pending` while counted attempts remain, else `failed / worker_lost`.
 * Returns the batch id and new state of every row touched.
 */
export function reapExpired(db: Db, maxAttempts: number, now: number): { batch_id: string; state: string }[] {
  const sql = `UPDATE documents SET
       state = CASE WHEN attempts - released_attempts >= @max THEN 'failed' ELSE 'pending' END,
       completed_at = CASE WHEN attempts - released_attempts >= @max THEN @now ELSE NULL END,
       processing_error = CASE WHEN attempts - released_attempts >= @max THEN @error ELSE NULL END,
       queued_at = CASE WHEN attempts - released_attempts >= @max THEN queued_at ELSE @now END,
       lease_until = NULL
     WHERE state = 'leased' AND lease_until < @now RETURNING batch_id, state`;
  const error = JSON.stringify({ code: 'worker_lost', message: `the worker stopped renewing its lease ${maxAttempts} times` });
  return prepared(db, sql).all({ max: maxAttempts, now, error }) as { batch_id: string; state: string }[];
}

/** SQL of the queue: claim, renew, complete, reap (PostgreSQL). */
import type { DocumentOutcome } from '../types.js';
import { fairOrderBy, fairOrderSql } from '../fair-order.js';
import { BATCH_JSON_SQL, LIVE_ALL_DONE_SQL } from './events.js';
import { CHANGES_CHANNEL, schemaPayload } from './notify.js';
import type { Q } from './pool.js';

type Raw = Record<string, unknown>;

const FAIR = fairOrderSql("CROSS JOIN LATERAL (SELECT id, seq FROM documents WHERE batch_id = b.id AND state = 'pending' ORDER BY seq LIMIT $1) d");

/**
 * Claims up to `limit` pending documents in fair order (see `fairOrderSql`), bumps their batches' counters (first claims only:
 * queued → processing), stamps their batches' `last_claimed_at` and announces the change, in ONE autocommit statement: one round-trip
 * and one commit per claim group. Concurrent claimers skip each other's rows (SKIP LOCKED), so
 * two never get the same one. `attempts` becomes 1 exactly on a first claim.
 */
export async function claimPending(q: Q, limit: number, leaseUntil: number, now: number): Promise<Raw[]> {
  const sql = `WITH c AS (
       UPDATE documents SET state = 'leased', attempts = attempts + 1, lease_until = $2, started_at = coalesce(started_at, $3)
       WHERE id IN (SELECT d.id FROM documents d JOIN (${FAIR}) f ON f.id = d.id WHERE d.state = 'pending'
         ORDER BY ${fairOrderBy('f')} LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
       RETURNING id, account_id, batch_id, blob_key, content_type, filename, attempts, seq, queued_at
     ), g AS (
       SELECT batch_id, (count(*) FILTER (WHERE attempts = 1))::int AS n FROM c GROUP BY batch_id
     ), b AS (
       UPDATE batches SET queued = queued - g.n, processing = processing + g.n, last_claimed_at = $3,
         min_started_at = CASE WHEN g.n > 0 THEN LEAST(min_started_at, $3::bigint) ELSE min_started_at END
       FROM g WHERE batches.id = g.batch_id
     )
     SELECT c.*, pg_notify($4, ${schemaPayload('documents')}) FROM c`;
  const { rows } = await q.query(sql, [limit, leaseUntil, now, CHANGES_CHANNEL]);
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** Extends the lease while `attempt` holds it (the attempt fence). */
export async function renewLeased(q: Q, id: string, attempt: number, leaseUntil: number): Promise<boolean> {
  const sql = "UPDATE documents SET lease_until = $3 WHERE id = $1 AND attempts = $2 AND state = 'leased'";
  return (await q.query(sql, [id, attempt, leaseUntil])).rowCount === 1;
}

/** One document's outcome for `completeGroup`, fenced by `attempt`. */
export interface Completion {
  id: string;
  attempt: number;
  outcome: DocumentOutcome;
  /** The id of the outbox event written if this completion leaves its batch all_done. */
  eventId: string;
}

/**
 * A group of outcomes in ONE statement: the terminal states (each fenced by its attempt), the
 * results, the batch counters once per batch and (when the group makes a live batch all_done)
 * the run's outbox event, with their change notifications. One round-trip and one commit for
 * the whole group; the commit's fsync dominates a completion, so a group costs about one.
 * Returns the ids whose outcome is stored: written now, or by an earlier try of the same call
 * whose commit landed but whose answer was lost with the connection (the row already holds this
 * attempt's state, page count and error; the statement's snapshot shows rows it updates as still leased).
 * A completion whose attempt no longer holds the lease is absent.
 */
export async function completeGroup(q: Q, group: Completion[], now: number): Promise<Set<string>> {
  const sql = `WITH v AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[]) AS v(id, attempt, state, pages, error, result, evt)
     ), d AS (
       UPDATE documents SET state = v.state, page_count = v.pages, processing_error = v.error::jsonb, completed_at = $8, lease_until = NULL
       FROM v WHERE documents.id = v.id AND documents.attempts = v.attempt AND documents.state = 'leased'
       RETURNING documents.id, documents.batch_id, v.state, v.result, v.evt
     ), r AS (
       INSERT INTO document_results (document_id, result_json) SELECT d.id, d.result FROM d WHERE d.result IS NOT NULL
       ON CONFLICT (document_id) DO UPDATE SET result_json = excluded.result_json
     ), g AS (
       SELECT batch_id, count(*)::int AS n, (count(*) FILTER (WHERE state = 'succeeded'))::int AS s, min(evt) AS evt FROM d GROUP BY batch_id
     ), b AS (
       UPDATE batches SET processing = processing - g.n, succeeded = succeeded + g.s, failed = failed + g.n - g.s,
         max_completed_at = GREATEST(max_completed_at, $8::bigint)
       FROM g WHERE batches.id = g.batch_id RETURNING batches.*, g.evt
     ), e AS (
       INSERT INTO batch_events (id, batch_id, run, type, batch_json, created_at)
       SELECT b.evt, b.id, b.run, 'batch.completed', ${BATCH_JSON_SQL}, $8 FROM b WHERE ${LIVE_ALL_DONE_SQL}
       ON CONFLICT (batch_id, run) DO NOTHING RETURNING id
     ), already AS (
       SELECT v.id FROM v JOIN documents ON documents.id = v.id AND documents.attempts = v.attempt AND documents.state = v.state
       WHERE documents.page_count IS NOT DISTINCT FROM v.pages AND documents.processing_error IS NOT DISTINCT FROM v.error::jsonb
     )
     SELECT d.id, pg_notify($9, ${schemaPayload('documents')}), (SELECT pg_notify($9, ${schemaPayload('webhooks')}) FROM e LIMIT 1) FROM d
     UNION ALL SELECT already.id, NULL, NULL FROM already`;
  const col = <T>(f: (c: Completion) => T) => group.map(f);
  const values = [
    col((c) => c.id),
    col((c) => c.attempt),
    col((c) => c.outcome.status),
    col((c) => c.outcome.page_count),
    col((c) => (c.outcome.status === 'failed' ? JSON.stringify(c.outcome.error) : null)),
    col((c) => (c.outcome.status === 'succeeded' ? c.outcome.result_json : null)),
    col((c) => c.eventId),
    now,
    CHANGES_CHANNEL,
  ];
  const { rows } = await q.query(sql, values);
  return new Set(rows.map((r) => r.id as string));
}

/**
 * Gives a lease back (shutdown): the document waits in the queue again and the claim is not
 * counted against the attempt limit. Fenced by `attempt`; returns the batch id or null.
 */
export async function releaseLeased(q: Q, id: string, attempt: number, now: number): Promise<string | null> {
  const sql = `UPDATE documents SET state = 'pending', lease_until = NULL, queued_at = $3, released_attempts = released_attempts + 1
     WHERE id = $1 AND attempts = $2 AND state = 'leased' RETURNING batch_id`;
  const r = (await q.query(sql, [id, attempt, now])).rows[0];
  return r ? (r.batch_id as string) : null;
}

/** Expired leases: back to `pending` while counted attempts remain, else `failed / worker_lost`. */
export async function reapExpired(q: Q, maxAttempts: number, now: number): Promise<{ batch_id: string; state: string }[]> {
  const sql = `UPDATE documents SET
       state = CASE WHEN attempts - released_attempts >= $1 THEN 'failed' ELSE 'pending' END,
       completed_at = CASE WHEN attempts - released_attempts >= $1 THEN $2::bigint END,
       processing_error = CASE WHEN attempts - released_attempts >= $1 THEN $3::jsonb END,
       queued_at = CASE WHEN attempts - released_attempts >= $1 THEN queued_at ELSE $2::bigint END,
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

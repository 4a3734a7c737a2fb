/** The claim order shared by both SQL dialects. */

/**
 * Pending documents with `ra`, their turn within their account, and `served`, when a claim last
 * took a document of their account. Each account's batches take turns (a document's place in
 * its batch, then the batch served longest ago, then upload order), and ordering by
 * `FAIR_ORDER_BY` serves every account's next document before any account's second, the
 * account served longest ago first: a 10,000-document batch delays another account's document
 * by at most one claim round, and the turn passes between claims too, so a worker claiming one
 * document at a time alternates between accounts rather than draining the oldest upload's batch
 * first. Only the first `limit` pending documents of each batch with work left are ranked
 * (`candidates` joins them to `batches b` as `d`: a lateral subquery on PostgreSQL, a correlated
 * one on SQLite), so a claim reads a few rows per batch rather than the whole queue.
 */
export function fairOrderSql(candidates: string): string {
  return `SELECT id, seq, row_number() OVER (PARTITION BY account_id ORDER BY rb, last_claimed_at, seq) AS ra,
    max(last_claimed_at) OVER (PARTITION BY account_id) AS served
  FROM (SELECT d.id, d.seq, b.account_id, b.last_claimed_at, row_number() OVER (PARTITION BY b.id ORDER BY d.seq) AS rb
    FROM batches b ${candidates} WHERE b.queued > 0 OR b.processing > 0) p`;
}

/** The claim order over `fairOrderSql`'s rows, their table named `alias`. */
export const fairOrderBy = (alias: string) => `${alias}.ra, ${alias}.served, ${alias}.seq`;

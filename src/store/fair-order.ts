/** The claim order shared by both SQL dialects. */

/**
 * Pending documents with `ra`, their turn within their account: each account's batches take
 * turns (a document's place in its batch, then upload order), so ordering by `ra, seq` serves
 * every account's next document before any account's second, and a 10,000-document batch
 * delays another account's document by at most one claim round. Only the first `limit`
 * pending documents of each batch with work left are ranked (`candidates` joins them to
 * `batches b` as `d`: a lateral subquery on PostgreSQL, a correlated one on SQLite), so a
 * claim reads a few rows per batch rather than the whole queue.
 */
export function fairOrderSql(candidates: string): string {
  return `SELECT id, seq, row_number() OVER (PARTITION BY account_id ORDER BY rb, seq) AS ra
  FROM (SELECT d.id, d.seq, b.account_id, row_number() OVER (PARTITION BY b.id ORDER BY d.seq) AS rb
    FROM batches b ${candidates} WHERE b.queued > 0 OR b.processing > 0) p`;
}

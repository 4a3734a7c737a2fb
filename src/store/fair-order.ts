/** The claim order shared by both SQL dialects. */

/**
 * Pending documents with `ra`, their turn within their account: each account's batches take
 * turns (a document's place in its batch, then upload order), so ordering by `ra, seq` serves
 * every account's next document before any account's second, and a 10,000-document batch
 * delays another account's document by at most one claim round.
 */
export const FAIR_ORDER_SQL = `SELECT id, seq, row_number() OVER (PARTITION BY account_id ORDER BY rb, seq) AS ra
  FROM (SELECT id, seq, account_id, row_number() OVER (PARTITION BY batch_id ORDER BY seq) AS rb FROM documents WHERE state = 'pending') p`;

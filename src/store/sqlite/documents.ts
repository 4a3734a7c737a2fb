/** SQL of the `documents` and `document_results` tables outside the queue (SQLite). */
import { DOCUMENT_COLUMNS, toDocument, toDocumentResult } from '../rows.js';
import type { DocumentResultRow, DocumentRow, NewDocument } from '../types.js';
import { prepared, type Db } from './db.js';

type Raw = Record<string, unknown>;
const FROM = 'FROM documents d JOIN batches b ON b.id = d.batch_id';

const INSERT_UPLOADED = `INSERT INTO documents (id, account_id, batch_id, filename, content_type, size_bytes, sha256, blob_key, state, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'uploaded', ?)`;

/** Inserts an `uploaded` document. Positional parameters: no object built per row, none looked up by name. */
export function insertUploaded(db: Db, accountId: string, batchId: string, doc: NewDocument, now: number): void {
  prepared(db, INSERT_UPLOADED).run(doc.id, accountId, batchId, doc.filename, doc.content_type, doc.size_bytes, doc.sha256, doc.blob_key, now);
}

export function selectDocument(db: Db, accountId: string, id: string): DocumentRow | null {
  const r = prepared(db, `SELECT ${DOCUMENT_COLUMNS} ${FROM} WHERE d.id = ? AND d.account_id = ?`).get(id, accountId);
  return r ? toDocument(r as Raw) : null;
}

export function selectDocumentResult(db: Db, accountId: string, id: string): DocumentResultRow | null {
  const sql = `SELECT ${DOCUMENT_COLUMNS}, r.result_json, c.body_json AS corrections_json ${FROM} LEFT JOIN document_results r ON r.document_id = d.id LEFT JOIN document_corrections c ON c.document_id = d.id WHERE d.id = ? AND d.account_id = ?`;
  const r = prepared(db, sql).get(id, accountId);
  return r ? toDocumentResult(r as Raw) : null;
}

/** One page of a batch's documents with results, in upload order (seq), after `afterSeq`. */
export function selectResultsPage(db: Db, accountId: string, batchId: string, afterSeq: number, limit: number): (DocumentResultRow & { seq: number })[] {
  // The page is cut from documents alone first (on the (batch_id, seq) index), then joined.
  const sql = `SELECT ${DOCUMENT_COLUMNS}, d.seq, r.result_json, c.body_json AS corrections_json
     FROM (SELECT * FROM documents WHERE batch_id = ? AND account_id = ? AND seq > ? ORDER BY seq LIMIT ?) d
     JOIN batches b ON b.id = d.batch_id LEFT JOIN document_results r ON r.document_id = d.id
     LEFT JOIN document_corrections c ON c.document_id = d.id ORDER BY d.seq`;
  return (prepared(db, sql).all(batchId, accountId, afterSeq, limit) as Raw[]).map((r) => ({ ...toDocumentResult(r), seq: Number(r.seq) }));
}

/** Every `uploaded` document of the batch → `pending`; returns how many. */
export function submitUploaded(db: Db, batchId: string, now: number, optionsJson: string | null): number {
  return prepared(db, "UPDATE documents SET state = 'pending', queued_at = ?, options_json = ? WHERE batch_id = ? AND state = 'uploaded'").run(now, optionsJson, batchId).changes;
}

/** Not-yet-started documents of the batch → `canceled`; returns how many. */
export function cancelNotStarted(db: Db, batchId: string, now: number): number {
  const sql = `UPDATE documents SET state = 'canceled', completed_at = ?
     WHERE batch_id = ? AND (state = 'uploaded' OR (state = 'pending' AND started_at IS NULL))`;
  return prepared(db, sql).run(now, batchId).changes;
}

/** One document → `canceled` if it is still not started; false if it moved meanwhile. */
export function cancelOne(db: Db, id: string, now: number): boolean {
  const sql = `UPDATE documents SET state = 'canceled', completed_at = ?
     WHERE id = ? AND (state = 'uploaded' OR (state = 'pending' AND started_at IS NULL))`;
  return prepared(db, sql).run(now, id).changes === 1;
}

/** Removes a terminal document and its result; false if it is not terminal (any more). */
export function deleteTerminal(db: Db, id: string): boolean {
  return prepared(db, "DELETE FROM documents WHERE id = ? AND state IN ('succeeded', 'failed', 'canceled')").run(id).changes === 1;
}

export function insertResult(db: Db, documentId: string, resultJson: string): void {
  prepared(db, 'INSERT INTO document_results (document_id, result_json) VALUES (?, ?) ON CONFLICT (document_id) DO UPDATE SET result_json = excluded.result_json').run(
    documentId,
    resultJson,
  );
}

/**
 * Store rows → the public JSON shapes of API.md §4. Pure functions, reused by the webhook
 * payloads and the exports so every surface shows the same thing.
 */
import { batchStatus, batchTimestamps, isAllDone } from '../domain/batch.js';
import { publicStatus } from '../domain/status.js';
import type { ExtractResult } from '../extract/types.js';
import type { BatchRow, DocumentResultRow, DocumentRow } from '../store/types.js';
import type { Batch, Document, DocumentResult } from './schemas.js';

/** RFC 3339 UTC with milliseconds, or null. */
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export type BatchView = Batch;
export type DocumentView = Document;
export type DocumentResultView = DocumentResult;

/** The `Batch` shape: status and timestamps from the counters kept on the row (O(1)). */
export function batchView(row: BatchRow): BatchView {
  const t = batchTimestamps(row.counts, row.created_at, row.min_started_at, row.max_completed_at);
  return {
    batch_name: row.name,
    status: batchStatus(row.counts),
    all_done: isAllDone(row.counts),
    document_count: row.document_count,
    counts: { ...row.counts },
    awaiting_process: row.awaiting_process,
    created_at: iso(t.created_at) as string,
    started_at: iso(t.started_at),
    completed_at: iso(t.completed_at),
    webhook_url: row.webhook_url,
  };
}

/** The `Document` shape; internal states map onto the five public statuses. */
export function documentView(row: DocumentRow): DocumentView {
  return {
    id: row.id,
    batch_name: row.batch_name,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    page_count: row.page_count,
    status: publicStatus(row.state, row.started_at !== null),
    created_at: iso(row.created_at) as string,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    processing_error: row.processing_error,
  };
}

/** `DocumentResult` = Document + results, which are null unless the document succeeded. */
export function documentResultView(row: DocumentResultRow): DocumentResultView {
  const doc = documentView(row);
  if (doc.status !== 'succeeded' || row.result_json === null) return { ...doc, document_type: null, fields: null, line_items: null, tables: null, totals: null };
  const result = JSON.parse(row.result_json) as Partial<ExtractResult>;
  // Results stored before documents were classified have neither a type nor fields.
  return {
    ...doc,
    document_type: result.document_type ?? null,
    fields: result.fields ?? null,
    line_items: result.line_items ?? [],
    tables: result.tables ?? [],
    totals: result.totals ?? null,
  };
}

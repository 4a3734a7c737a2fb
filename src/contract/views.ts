/**
 * Store rows → the public JSON shapes of API.md §4. Pure functions, reused by the webhook
 * payloads and the exports so every surface shows the same thing.
 */
import { batchStatus, batchTimestamps, isAllDone } from '../domain/batch.js';
import { publicStatus } from '../domain/status.js';
import { carryCurrency } from '../extract/document/currency.js';
import { FIELD_NAMES, type ExtractResult, type Field, type LineItem, type Table, type Totals } from '../extract/types.js';
import { cellEdits, cellKey, correctedField, parseCorrection, publicField, type Correction, type PublicField } from '../review/corrections.js';
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

/**
 * `DocumentResult` = Document + results, which are null unless the document succeeded. The
 * default view lays the document's correction over the engine's result; `extracted` is what
 * the engine read, untouched.
 */
export function documentResultView(row: DocumentResultRow, view: 'corrected' | 'extracted' = 'corrected'): DocumentResultView {
  const doc = documentView(row);
  if (doc.status !== 'succeeded' || row.result_json === null) return { ...doc, document_type: null, fields: null, key_value_pairs: null, line_items: null, tables: null, totals: null, warnings: null };
  const result = JSON.parse(row.result_json) as Partial<ExtractResult>;
  const correction = view === 'corrected' ? parseCorrection(row.corrections_json) : null;
  // Results stored before documents were classified have neither a type nor fields.
  return {
    ...doc,
    document_type: result.document_type ?? null,
    fields: fieldsView(result, correction),
    key_value_pairs: (result.key_value_pairs ?? []).map((p) => ({ ...p, source: p.source ?? 'page' })),
    ...withSources(amountsView(result, correction)),
    tables: tablesView(result.tables ?? [], correction),
    warnings: result.warnings ?? [],
  };
}

/** Line items read from the page's tables say so (results stored before sources had none). */
function withSources(v: { line_items: LineItem[]; totals: Totals | null }): { line_items: Array<LineItem & { source: 'engine' | 'embedded' }>; totals: Totals | null } {
  return { ...v, line_items: v.line_items.map((li) => ({ ...li, source: li.source ?? 'engine' })) };
}

/** The line items and totals, in the document's corrected currency when a person corrected it. */
function amountsView(result: Partial<ExtractResult>, correction: Correction | null): { line_items: LineItem[]; totals: Totals | null } {
  const items = correction?.line_items ?? result.line_items ?? [];
  const totals = result.totals ?? null;
  const to = correction?.fields.currency?.value;
  if (typeof to !== 'string') return { line_items: items, totals };
  return carryCurrency(items, totals, (result.fields?.currency?.value as string | undefined) ?? totals?.currency ?? null, to);
}

type FieldsView = Record<string, PublicField | null> & { custom?: Record<string, PublicField | null> };

function fieldsView(result: Partial<ExtractResult>, correction: Correction | null): DocumentResultView['fields'] {
  if (!result.fields && !correction) return null;
  const engine = (result.fields ?? {}) as Record<string, Field | null>;
  const out: FieldsView = Object.fromEntries(FIELD_NAMES.map((n) => [n, publicField(engine[n] ?? null)]));
  if (result.custom_fields) out.custom = Object.fromEntries(Object.entries(result.custom_fields).map(([k, f]) => [k, publicField(f)]));
  for (const [key, c] of Object.entries(correction?.fields ?? {})) {
    if (key.startsWith('custom.')) {
      const name = key.slice(7);
      const custom = (out.custom ??= {});
      custom[name] = c ? correctedField(c, result.custom_fields?.[name] ?? null) : null;
    } else out[key] = c ? correctedField(c, engine[key] ?? null) : null;
  }
  return out as unknown as DocumentResultView['fields'];
}

function tablesView(tables: Table[], correction: Correction | null): Table[] {
  if (!correction?.tables.length) return tables;
  const byIndex = new Map(correction.tables.map((t) => [t.index, cellEdits(t.cells)]));
  return tables.map((t, index) => {
    const edits = byIndex.get(index);
    if (!edits) return t;
    return { ...t, cells: t.cells.map((c) => ({ ...c, text: edits.get(cellKey(c.row, c.col)) ?? c.text })) };
  });
}

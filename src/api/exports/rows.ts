/**
 * What every export format shares: paging through a batch's results (200 documents a page, so
 * memory follows the page, not the batch), and the flat line-item row of the CSV and the XLSX
 * line-items sheet.
 */
import { DATE_FIELDS, FIELD_NAMES } from '../../extract/types.js';
import type { Account, BatchRow, DocumentResultRow, Store } from '../../store/types.js';
import { documentResultView, type DocumentResultView } from '../../contract/views.js';

/** Documents per store page: 200 results of ~5 KB keep a page near 1 MB. */
export const PAGE = 200;

/** Every document result of the batch in upload order, one store page at a time. */
export async function* batchResults(store: Store, account: Account, batch: BatchRow): AsyncGenerator<DocumentResultView> {
  let cursor: string | null = null;
  do {
    const page: { items: DocumentResultRow[]; next_cursor: string | null } = await store.listBatchResults(account.id, batch.id, { cursor, limit: PAGE });
    for (const row of page.items) yield documentResultView(row);
    cursor = page.next_cursor;
  } while (cursor);
}

/**
 * Joins small strings into ~64 KiB chunks. NDJSON of 10,000 documents on this machine: 1.4–1.7 s
 * to build the lines, 3.8 s over HTTP with one write per document, 2.4 s coalesced.
 */
export async function* coalesce(parts: AsyncIterable<string>, size = 64 * 1024): AsyncGenerator<string> {
  let buf: string[] = [];
  let len = 0;
  for await (const p of parts) {
    buf.push(p);
    len += p.length;
    if (len >= size) {
      yield buf.join('');
      buf = [];
      len = 0;
    }
  }
  if (buf.length) yield buf.join('');
}

/** Column names of the line-item table (CSV header, XLSX line-items sheet). */
export const LINE_ITEM_COLUMNS = [
  'document_id',
  'filename',
  'page',
  'table_index',
  'row',
  'description',
  'quantity',
  'unit_price',
  'amount',
  'currency',
  'flags',
  'cells',
] as const;

export type Cell = string | number | null;

/** One row per line item: numbers stay numbers, `flags` joined by `;` (null when none), `cells` as JSON text. */
export function lineItemRows(doc: DocumentResultView): Cell[][] {
  return (doc.line_items ?? []).map((li) => [
    doc.id,
    doc.filename,
    li.page,
    li.table_index,
    li.row,
    li.description,
    li.quantity,
    li.unit_price,
    li.amount,
    li.currency,
    li.flags.length ? li.flags.join(';') : null,
    JSON.stringify(li.cells),
  ]);
}

/** Column names of the documents table (XLSX documents sheet). */
export const DOCUMENT_COLUMNS = ['document_id', 'filename', 'status', 'document_type', 'page_count', 'error'] as const;

/** The document's row: its status, type and pages, and `code: message` when it failed. */
export function documentRow(doc: DocumentResultView): Cell[] {
  const e = doc.processing_error;
  return [doc.id, doc.filename, doc.status, doc.document_type, doc.page_count, e ? `${e.code}: ${e.message}` : null];
}

/**
 * Column names of the fields table (XLSX fields sheet): the document, its type, one column per
 * field of API.md §4, then the run's custom fields as JSON text (`{"po_number": "PO-7781"}`, like
 * a line item's `cells`: their names differ from run to run, and the rows stream).
 */
export const FIELD_COLUMNS = ['document_id', 'filename', 'document_type', ...FIELD_NAMES, 'custom_fields'] as const;

/** Fields whose values are ISO dates (`YYYY-MM-DD`), written as dates where the format has them. */
export const DATE_COLUMNS: ReadonlySet<string> = new Set(DATE_FIELDS);

/** The document's one row of fields: each field's typed value, null where it was not found. */
export function fieldRow(doc: DocumentResultView): Cell[] {
  const custom = doc.fields?.custom;
  const customText = custom && Object.keys(custom).length ? JSON.stringify(Object.fromEntries(Object.entries(custom).map(([k, f]) => [k, f?.value ?? null]))) : null;
  return [doc.id, doc.filename, doc.document_type, ...FIELD_NAMES.map((n) => doc.fields?.[n]?.value ?? null), customText];
}

/** `attachment` with an ASCII fallback and the RFC 8187 UTF-8 name. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** `name.ext` without the original extension (`invoice.pdf` → `invoice`). */
export function baseName(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '') || name;
}

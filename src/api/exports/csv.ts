/**
 * CSV of line items (RFC 4180: CRLF, fields quoted when they hold `"`, `,`, CR or LF, quotes
 * doubled), one row per item with the document's id and filename. Text cells that a
 * spreadsheet would run as a formula (starting with = + - @, or tab / CR, per OWASP's CSV
 * injection guidance) get a leading `'`; numbers are numbers and are left alone.
 */
import { Readable } from 'node:stream';
import type { ResultExporter } from '../deps.js';
import { documentResultView, type DocumentResultView } from '../../contract/views.js';
import { attachment, baseName, batchResults, coalesce, LINE_ITEM_COLUMNS, lineItemRows, type Cell } from './rows.js';

/** One CSV field. */
export function csvField(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  let s = v;
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record with its CRLF. */
export function csvLine(cells: readonly Cell[]): string {
  return cells.map(csvField).join(',') + '\r\n';
}

async function* csvOf(docs: AsyncIterable<DocumentResultView> | Iterable<DocumentResultView>): AsyncGenerator<string> {
  yield csvLine(LINE_ITEM_COLUMNS);
  for await (const doc of docs) {
    const rows = lineItemRows(doc);
    if (rows.length) yield rows.map(csvLine).join('');
  }
}

const TYPE = 'text/csv; charset=utf-8; header=present';

/** The `?format=csv` exporter. */
export const csvExporter: ResultExporter = {
  async batch({ deps, account, batch, reply }) {
    reply.type(TYPE).header('content-disposition', attachment(`${batch.name}-line-items.csv`));
    return reply.send(Readable.from(coalesce(csvOf(batchResults(deps.store, account, batch)))));
  },
  async document({ row, reply }) {
    reply.type(TYPE).header('content-disposition', attachment(`${baseName(row.filename)}-line-items.csv`));
    return reply.send(Readable.from(csvOf([documentResultView(row)])));
  },
};

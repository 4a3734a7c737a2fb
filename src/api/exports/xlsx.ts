/**
 * XLSX with exceljs' streaming writer: a "Documents" sheet (one row per document: filename,
 * status, type, pages, error), a "Fields" sheet (one row per document: its type and
 * every field, numbers as numbers and dates as dates), a "Line items" sheet (the CSV's columns,
 * numbers as numbers) and one sheet per table (its grid, spans merged). Zip entries cannot interleave, so
 * a second sheet written while the first is open would be buffered whole; we make two passes
 * over the store instead — documents, fields, line items, then the tables — and commit every row as it is
 * written, so memory follows one store page. Strings are written as strings (exceljs writes a
 * formula only when given `{formula}`), so cell text can never run as a formula.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Table } from '../../extract/types.js';
import type { ResultExporter } from '../deps.js';
import { documentResultView, type DocumentResultView } from '../../contract/views.js';
import { attachment, baseName, batchResults, DATE_FIELDS, DOCUMENT_COLUMNS, documentRow, FIELD_COLUMNS, fieldRow, LINE_ITEM_COLUMNS, lineItemRows } from './rows.js';

const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A sheet name for the n-th table (1-based): unique by its number, ≤ 31 characters, no []:*?/\. */
export function tableSheetName(n: number, filename: string, tableIndex: number): string {
  const clean = baseName(filename).replace(/[[\]:*?/\\']/g, '_');
  return `${n} ${clean} t${tableIndex + 1}`.slice(0, 31);
}

/** The grid of a table: row × col texts, with the spans to merge. */
export function tableGrid(t: Table): { rows: string[][]; merges: Array<[number, number, number, number]> } {
  const rows = Array.from({ length: t.n_rows }, () => Array<string>(t.n_cols).fill(''));
  const merges: Array<[number, number, number, number]> = [];
  for (const c of t.cells) {
    if (c.row < t.n_rows && c.col < t.n_cols) rows[c.row][c.col] = c.text;
    if (c.row_span > 1 || c.col_span > 1) merges.push([c.row + 1, c.col + 1, c.row + c.row_span, c.col + c.col_span]);
  }
  return { rows, merges };
}

type Docs = () => AsyncIterable<DocumentResultView> | Iterable<DocumentResultView>;

async function writeWorkbook(out: PassThrough, docs: Docs): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const documents = wb.addWorksheet('Documents');
  documents.addRow([...DOCUMENT_COLUMNS]).commit();
  for await (const doc of docs()) documents.addRow(documentRow(doc)).commit();
  documents.commit();
  const fields = wb.addWorksheet('Fields');
  fields.addRow([...FIELD_COLUMNS]).commit();
  for await (const doc of docs()) {
    const row = fieldRow(doc).map((v, i) => (typeof v === 'string' && DATE_FIELDS.has(FIELD_COLUMNS[i]!) ? new Date(`${v}T00:00:00Z`) : v));
    const added = fields.addRow(row);
    FIELD_COLUMNS.forEach((c, i) => DATE_FIELDS.has(c) && (added.getCell(i + 1).numFmt = 'yyyy-mm-dd'));
    added.commit();
  }
  fields.commit();
  const items = wb.addWorksheet('Line items');
  items.addRow([...LINE_ITEM_COLUMNS]).commit();
  for await (const doc of docs()) for (const r of lineItemRows(doc)) items.addRow(r).commit();
  items.commit();
  let n = 0;
  for await (const doc of docs()) {
    for (const [i, t] of (doc.tables ?? []).entries()) {
      const ws = wb.addWorksheet(tableSheetName(++n, doc.filename, i));
      const { rows, merges } = tableGrid(t);
      for (const m of merges) ws.mergeCells(...m);
      for (const r of rows) ws.addRow(r).commit();
      ws.commit();
    }
  }
  await wb.commit();
}

function start(docs: Docs): PassThrough {
  const out = new PassThrough();
  writeWorkbook(out, docs).catch((err) => out.destroy(err as Error));
  return out;
}

/** The `?format=xlsx` exporter. */
export const xlsxExporter: ResultExporter = {
  async batch({ deps, account, batch, reply }) {
    reply.type(TYPE).header('content-disposition', attachment(`${batch.name}-results.xlsx`));
    return reply.send(start(() => batchResults(deps.store, account, batch)));
  },
  async document({ row, reply }) {
    const view = documentResultView(row);
    reply.type(TYPE).header('content-disposition', attachment(`${baseName(row.filename)}-results.xlsx`));
    return reply.send(start(() => [view]));
  },
};

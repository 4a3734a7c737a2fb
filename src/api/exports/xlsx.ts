/**
 * XLSX with exceljs' streaming writer: a "Documents" sheet (one row per document: filename,
 * status, type, pages, error), a "Fields" sheet (one row per document: its type and every field,
 * numbers as numbers and dates as dates), a "Line items" sheet (the CSV's columns, numbers as
 * numbers) and one sheet per table (xlsx-table.ts). Every sheet has a bold, frozen, filtered
 * header and fitted column widths.
 *
 * Zip entries cannot interleave, so a second sheet written while the first is open would be
 * buffered whole; instead the store is read once per sheet kind — a first pass measures the
 * summary sheets' widths and lengths, then documents, fields, line items, then the tables — and
 * every row is committed as it is written, so memory follows one store page. Strings are written
 * as strings (exceljs writes a formula only when given `{formula}`), so cell text never runs as
 * a formula.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { DocumentResultView } from '../../contract/views.js';
import { baseName, DATE_FIELDS, DOCUMENT_COLUMNS, documentRow, FIELD_COLUMNS, fieldRow, LINE_ITEM_COLUMNS, lineItemRows, type Cell } from './rows.js';
import { boldRow, ColumnWidths, sheetOptions, styleSheet } from './sheet-style.js';
import { documentNumberStyle } from './typed.js';
import { streamedExporter, type Docs } from './streamed.js';
import { tableSheetName, writeTableSheet } from './xlsx-table.js';

const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MONEY = '#,##0.00';
const DATE = 'yyyy-mm-dd';
const MONEY_FIELDS: ReadonlySet<string> = new Set(['total', 'subtotal', 'tax', 'amount_due', 'opening_balance', 'closing_balance']);
const MONEY_ITEM_COLUMNS: ReadonlySet<string> = new Set(['unit_price', 'amount']);

/** The Fields row with ISO date strings as dates. */
function typedFieldRow(doc: DocumentResultView): Cell[] | Array<Cell | Date> {
  return fieldRow(doc).map((v, i) => (typeof v === 'string' && DATE_FIELDS.has(FIELD_COLUMNS[i]!) ? new Date(`${v}T00:00:00Z`) : v));
}

/** One summary sheet: the header, then the rows, with `formats` (column name → format code). */
interface SummarySheet {
  name: string;
  columns: readonly string[];
  rows(doc: DocumentResultView): Array<Array<Cell | Date>>;
  formats: (column: string) => string | undefined;
}

const SUMMARIES: SummarySheet[] = [
  { name: 'Documents', columns: DOCUMENT_COLUMNS, rows: (d) => [documentRow(d)], formats: () => undefined },
  { name: 'Fields', columns: FIELD_COLUMNS, rows: (d) => [typedFieldRow(d)], formats: (c) => (DATE_FIELDS.has(c) ? DATE : MONEY_FIELDS.has(c) ? MONEY : undefined) },
  { name: 'Line items', columns: LINE_ITEM_COLUMNS, rows: lineItemRows, formats: (c) => (MONEY_ITEM_COLUMNS.has(c) ? MONEY : undefined) },
];

async function writeWorkbook(out: PassThrough, docs: Docs): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const measured = SUMMARIES.map((s) => {
    const widths = new ColumnWidths();
    widths.add(s.columns);
    return { widths, rows: 1 };
  });
  for await (const doc of docs()) {
    SUMMARIES.forEach((s, i) => {
      for (const r of s.rows(doc)) {
        measured[i]!.widths.add(r);
        measured[i]!.rows++;
      }
    });
  }
  for (const [i, s] of SUMMARIES.entries()) {
    const ws = wb.addWorksheet(s.name, sheetOptions(1));
    styleSheet(ws, measured[i]!.widths, s.columns.length, 1, measured[i]!.rows);
    const header = ws.addRow([...s.columns]);
    boldRow(header);
    header.commit();
    const formats = s.columns.map(s.formats);
    for await (const doc of docs()) {
      for (const r of s.rows(doc)) {
        const row = ws.addRow(r);
        formats.forEach((f, k) => f && typeof r[k] !== 'string' && r[k] !== null && (row.getCell(k + 1).numFmt = f));
        row.commit();
      }
    }
    ws.commit();
  }
  let n = 0;
  for await (const doc of docs()) {
    if (!doc.tables?.length) continue;
    const style = documentNumberStyle(doc);
    for (const [i, t] of doc.tables.entries()) writeTableSheet(wb, tableSheetName(++n, baseName(doc.filename), i), t, style);
  }
  await wb.commit();
}

/** The `?format=xlsx` exporter. */
export const xlsxExporter = streamedExporter(TYPE, 'results.xlsx', writeWorkbook);

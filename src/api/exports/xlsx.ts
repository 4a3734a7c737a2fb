/**
 * XLSX with exceljs' streaming writer: a "Documents" sheet (one row per document: filename,
 * status, type, pages, error), a "Fields" sheet (one row per document: its type and every field,
 * numbers as numbers and dates as dates), a "Line items" sheet (the CSV's columns, then one
 * column per item header text: line-items-sheet.ts) and one sheet per table (xlsx-table.ts),
 * named by file and table (sheet-names.ts). Every sheet has a bold, frozen, filtered header and
 * column widths fitted to its body.
 *
 * Zip entries cannot interleave, so a second sheet written while the first is open would be
 * buffered whole; instead the store is read once per sheet kind — a first pass measures the
 * summary sheets' widths and lengths, then documents, fields, line items, then the tables — and
 * every row is committed as it is written, so memory follows one store page. Strings are written
 * as strings (exceljs writes a formula only when given `{formula}`), so cell text never runs as
 * a formula.
 */
import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { DocumentResultView } from '../../contract/views.js';
import { DATE_COLUMNS, DOCUMENT_COLUMNS, documentRow, FIELD_COLUMNS, fieldRow } from './rows.js';
import { LineItemColumns, type SheetCell } from './line-items-sheet.js';
import { SheetNames } from './sheet-names.js';
import { boldRow, ColumnWidths, sheetOptions, styleSheet } from './sheet-style.js';
import { documentNumberStyle } from './typed.js';
import { streamedExporter, type Docs } from './streamed.js';
import { writeTableSheet } from './xlsx-table.js';
import { MONEY_FIELDS } from '../../extract/types.js';

const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MONEY = '#,##0.00';
const DATE = 'yyyy-mm-dd';
const MONEY_COLUMNS: ReadonlySet<string> = new Set(MONEY_FIELDS);

/** The Fields row: ISO date strings as dates, amounts in the money format. */
function typedFieldRow(doc: DocumentResultView): SheetCell[] {
  return fieldRow(doc).map((value, i) => {
    const column = FIELD_COLUMNS[i]!;
    if (typeof value === 'string' && DATE_COLUMNS.has(column)) return { value: new Date(`${value}T00:00:00Z`), numFmt: DATE };
    return typeof value === 'number' && MONEY_COLUMNS.has(column) ? { value, numFmt: MONEY } : { value };
  });
}

/** One summary sheet: its header (known once the first pass has seen every document), then its rows. */
interface SummarySheet {
  name: string;
  columns(): readonly string[];
  /** Sees a document on the first pass, before the sheet's header is asked for. */
  add?(doc: DocumentResultView): void;
  rows(doc: DocumentResultView): SheetCell[][];
}

function summaries(): SummarySheet[] {
  const items = new LineItemColumns();
  return [
    { name: 'Documents', columns: () => DOCUMENT_COLUMNS, rows: (d) => [documentRow(d).map((value) => ({ value }))] },
    { name: 'Fields', columns: () => FIELD_COLUMNS, rows: (d) => [typedFieldRow(d)] },
    { name: 'Line items', columns: () => items.columns(), add: (d) => items.add(d), rows: (d) => items.rows(d) },
  ];
}

/** exceljs, loaded on the first spreadsheet asked for: it takes most of a second to import,
 * which every start of the server would otherwise pay. */
let excel: Promise<typeof ExcelJS> | undefined;

async function writeWorkbook(out: PassThrough, docs: Docs): Promise<void> {
  const { stream } = await (excel ??= import('exceljs').then((m) => m.default));
  const wb = new stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const sheets = summaries();
  const measured = sheets.map(() => ({ widths: new ColumnWidths(), rows: 1 }));
  for await (const doc of docs()) {
    sheets.forEach((s, i) => {
      s.add?.(doc);
      for (const r of s.rows(doc)) {
        measured[i]!.widths.add(r.map((c) => c.shown ?? c.value));
        measured[i]!.rows++;
      }
    });
  }
  for (const [i, s] of sheets.entries()) {
    const columns = s.columns();
    measured[i]!.widths.add(columns);
    const ws = wb.addWorksheet(s.name, sheetOptions(1));
    styleSheet(ws, measured[i]!.widths, columns.length, 1, measured[i]!.rows);
    const header = ws.addRow([...columns]);
    boldRow(header);
    header.commit();
    for await (const doc of docs()) {
      for (const r of s.rows(doc)) {
        const row = ws.addRow(r.map((c) => c.value));
        r.forEach((c, k) => c.numFmt && c.value !== null && typeof c.value !== 'string' && (row.getCell(k + 1).numFmt = c.numFmt));
        row.commit();
      }
    }
    ws.commit();
  }
  const names = new SheetNames(sheets.map((s) => s.name));
  for await (const doc of docs()) {
    if (!doc.tables?.length) continue;
    const style = documentNumberStyle(doc);
    for (const [i, t] of doc.tables.entries()) writeTableSheet(wb, names.table(doc.filename, i), t, style);
  }
  await wb.commit();
}

/** The `?format=xlsx` exporter. */
export const xlsxExporter = streamedExporter(TYPE, 'results.xlsx', writeWorkbook);

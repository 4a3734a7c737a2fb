/**
 * `?format=zip`: one CSV per table (`NNN-<file>-p<page>-t<k>.csv`: NNN the document's place in
 * the batch, k the table's place on its page), plus `line_items.csv` and `fields.csv`, written
 * with fflate's streaming zip. Zip entries follow one another, so each kind of entry is one pass
 * over the store (as the XLSX does) and memory follows one store page. A table's CSV is its grid:
 * a spanning cell's text in its top-left position, the positions it covers empty.
 */
import { PassThrough } from 'node:stream';
import { Zip, ZipDeflate } from 'fflate';
import type { Table } from '../../extract/types.js';
import type { DocumentResultView } from '../../contract/views.js';
import { csvLine } from './csv.js';
import { baseName, FIELD_COLUMNS, fieldRow, LINE_ITEM_COLUMNS, lineItemRows } from './rows.js';
import { streamedExporter, type Docs } from './streamed.js';

const TYPE = 'application/zip';
const encoder = new TextEncoder();

/** A table as CSV rows: n_rows × n_cols, each cell's text at its own row and column. */
export function tableCsv(t: Table): string {
  const grid = Array.from({ length: t.n_rows }, () => Array<string>(t.n_cols).fill(''));
  for (const c of t.cells) if (c.row < t.n_rows && c.col < t.n_cols && grid[c.row]![c.col] === '') grid[c.row]![c.col] = c.text;
  return grid.map(csvLine).join('');
}

/** The entry name of a table: document number, file name (no folders or control characters), page, table on that page. */
export function tableEntryName(docNumber: number, filename: string, page: number, k: number): string {
  const file = baseName(filename).replace(/[/\\:*?"<>|]/g, '_').replace(/\p{Cc}/gu, '_');
  return `${String(docNumber).padStart(3, '0')}-${file}-p${page}-t${k}.csv`;
}

/** Writes entries one after another into `out`, waiting whenever the reader is behind. */
class ZipStream {
  private readonly zip: Zip;
  constructor(private readonly out: PassThrough) {
    this.zip = new Zip((err, chunk, final) => {
      if (err) out.destroy(err);
      else {
        out.write(chunk);
        if (final) out.end();
      }
    });
  }

  /** Adds one entry whose text comes in parts. */
  async entry(name: string, parts: AsyncIterable<string> | Iterable<string>): Promise<void> {
    const file = new ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    for await (const p of parts) {
      if (!p) continue;
      file.push(encoder.encode(p));
      if (this.out.writableNeedDrain) await new Promise((r) => this.out.once('drain', r));
    }
    file.push(new Uint8Array(0), true);
  }

  end(): void {
    this.zip.end();
  }
}

async function writeZip(out: PassThrough, docs: Docs): Promise<void> {
  const zip = new ZipStream(out);
  let n = 0;
  for await (const doc of docs()) {
    n++;
    const perPage = new Map<number, number>();
    for (const t of doc.tables ?? []) {
      const k = (perPage.get(t.page) ?? 0) + 1;
      perPage.set(t.page, k);
      await zip.entry(tableEntryName(n, doc.filename, t.page, k), [tableCsv(t)]);
    }
  }
  await zip.entry('line_items.csv', lines(docs, csvLine(LINE_ITEM_COLUMNS), (d) => lineItemRows(d).map(csvLine).join('')));
  await zip.entry('fields.csv', lines(docs, csvLine(FIELD_COLUMNS), (d) => csvLine(fieldRow(d))));
  zip.end();
}

async function* lines(docs: Docs, header: string, rows: (d: DocumentResultView) => string): AsyncGenerator<string> {
  yield header;
  for await (const d of docs()) yield rows(d);
}

/** The `?format=zip` exporter. */
export const zipExporter = streamedExporter(TYPE, 'tables.zip', writeZip);

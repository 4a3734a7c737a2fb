/**
 * The XLSX of tables with row and column spans, end to end: real PDFs (ICDAR 2013 pages and an
 * invoice in each decimal convention) uploaded to a real `tablemill serve`, extracted by its
 * workers, downloaded over HTTP and read back with exceljs. Every JSON cell is checked in its
 * sheet: at its own row and column, merged exactly over its span with its text in the top-left
 * cell, numbers as numeric cells, text as the same text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDate } from '../../src/extract/locale/dates.js';
import { parseNumber, type Convention } from '../../src/extract/locale/numbers.js';
import { ICDAR_DIR } from '../paths.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from '../e2e/server.js';

const INVOICES = new URL('../fixtures/invoices/', import.meta.url).pathname;
/** Each file with the decimal convention it is printed in (the ICDAR pages are English reports). */
const FILES: Array<{ name: string; path: string; convention: Convention }> = [
  { name: 'eu-001.pdf', path: join(ICDAR_DIR, 'eu-001.pdf'), convention: 'dot' },
  { name: 'eu-018.pdf', path: join(ICDAR_DIR, 'eu-018.pdf'), convention: 'dot' },
  { name: 'en-ruled-totals-in-grid.pdf', path: INVOICES + 'en-ruled-totals-in-grid.pdf', convention: 'dot' },
  { name: 'fr-ruled-invoice.pdf', path: INVOICES + 'fr-ruled-invoice.pdf', convention: 'comma' },
];

let server: ServeProcess;
let key: string;
let docs: any[];
let wb: ExcelJS.Workbook;

const call = (path: string, init: RequestInit = {}) => fetch(server.url + path, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

beforeAll(async () => {
  const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_POLL_MS: '200' };
  key = createKeyCli(env, 'acme');
  server = await serve(env);
  const form = new FormData();
  for (const f of FILES) form.append('file', new Blob([readFileSync(f.path)], { type: 'application/pdf' }), f.name);
  expect((await call('/v1/batches/spans/documents', { method: 'POST', body: form })).status).toBe(201);
  expect((await call('/v1/batches/spans/process', { method: 'POST' })).status).toBe(202);
  // Long-poll until the workers are done: each answer comes when the batch changes.
  let etag = '';
  for (let done = false; !done; ) {
    const res = await call('/v1/batches/spans?wait=30', { headers: etag ? { 'if-none-match': etag } : {} });
    etag = res.headers.get('etag') ?? '';
    if (res.status === 200) done = ((await res.json()) as { all_done: boolean }).all_done;
  }
  docs = ((await (await call('/v1/batches/spans/results?limit=50')).json()) as { documents: any[] }).documents;
  const xlsx = await call('/v1/batches/spans/results?format=xlsx');
  expect(xlsx.status).toBe(200);
  wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as any);
}, 290_000);
afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

const address = (row: number, col: number) => `${ExcelJSColumn(col)}${row}`;
function ExcelJSColumn(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

describe('XLSX of tables with row and column spans, read back with exceljs', () => {
  it('every table sheet equals its JSON table cell by cell, merges exactly on the spans, numbers numeric', () => {
    expect(docs.map((d) => d.status)).toEqual(FILES.map(() => 'succeeded'));
    const tables = docs.flatMap((d, i) => (d.tables as any[]).map((t) => ({ t, convention: FILES[i]!.convention, file: d.filename })));
    expect(wb.worksheets.map((w) => w.name).slice(0, 3)).toEqual(['Documents', 'Fields', 'Line items']);
    expect(wb.worksheets).toHaveLength(3 + tables.length);
    const counts = { tables: tables.length, collided: 0, clipped: 0, cells: 0, numeric: 0, dates: 0, text: 0, merges: 0, rowSpans: 0, colSpans: 0 };
    tables.forEach(({ t, convention, file }, k) => {
      const ws = wb.worksheets[3 + k]!;
      const where = (c: any) => `${file} table ${k} cell ${c.row},${c.col} "${c.text}"`;
      // Nothing is written outside the table's grid (the old export put the text below the merges).
      expect(ws.actualRowCount, `${file} table ${k}`).toBeLessThanOrEqual(t.n_rows);
      // The engine can emit colliding cells (two at one position, or a span over another cell).
      // A sheet holds one value per position, so the export keeps every text: texts at one
      // position are joined by a newline, and a span stops before another cell. Count both.
      const origin = (c: any) => `${c.row},${c.col}`;
      const atOrigin = new Map<string, any[]>();
      for (const c of t.cells) atOrigin.set(origin(c), [...(atOrigin.get(origin(c)) ?? []), c]);
      const covers = (c: any, r: number, q: number) => r >= c.row && r < c.row + c.row_span && q >= c.col && q < c.col + c.col_span;
      const overlapsOther = (c: any) => t.cells.some((o: any) => origin(o) !== origin(c) && covers(c, o.row, o.col));
      const sheetMerges = ((ws.model as any).merges as string[]).map((m) => m.split(':'));
      const mergeAt = new Map(sheetMerges.map(([a, b]) => [a!, b!]));
      counts.merges += sheetMerges.length;
      for (const [a] of sheetMerges) {
        // Every merge starts at a cell of the table and covers no other cell's position.
        const c = t.cells.find((x: any) => address(x.row + 1, x.col + 1) === a);
        expect(c, `${file} table ${k} merge at ${a}`).toBeDefined();
      }
      for (const c of t.cells) {
        counts.cells++;
        const cell = ws.getCell(c.row + 1, c.col + 1);
        const same = atOrigin.get(origin(c))!;
        if (same.length > 1) {
          counts.collided++;
          expect(cell.value, where(c)).toBe(same.map((x: any) => x.text).join('\n'));
          continue;
        }
        if (c.row_span > 1 || c.col_span > 1) {
          if (c.row_span > 1) counts.rowSpans++;
          if (c.col_span > 1) counts.colSpans++;
          const end = mergeAt.get(cell.address);
          if (!overlapsOther(c)) expect(end, where(c)).toBe(address(c.row + c.row_span, c.col + c.col_span));
          else counts.clipped++;
        }
        // Every cell a merge covers belongs to this cell's span and to no other cell.
        const end = mergeAt.get(cell.address);
        if (end) {
          const last = ws.getCell(end);
          for (let r = c.row + 1; r <= Number(last.row); r++)
            for (let q = c.col + 1; q <= Number(last.col); q++) {
              expect(covers(c, r - 1, q - 1), where(c)).toBe(true);
              expect(ws.getCell(r, q).master.address, where(c)).toBe(cell.address);
              if (r !== c.row + 1 || q !== c.col + 1) expect(atOrigin.has(`${r - 1},${q - 1}`), where(c)).toBe(false);
            }
        }
        const body = c.row >= t.header_rows;
        const n = parseNumber(c.text, convention);
        const digits = c.text.replace(/\D/g, '');
        const date = findDate(c.text.trim(), 'dmy');
        if (cell.type === ExcelJS.ValueType.Number) {
          counts.numeric++;
          expect(body, where(c)).toBe(true);
          expect(n, where(c)).not.toBeNull();
          expect(cell.value, where(c)).toBeCloseTo(n!.percent ? n!.value / 100 : n!.value, 9);
        } else if (cell.type === ExcelJS.ValueType.Date) {
          counts.dates++;
          const iso = (cell.value as Date).toISOString().slice(0, 10);
          expect([findDate(c.text.trim(), 'dmy')?.iso, findDate(c.text.trim(), 'mdy')?.iso], where(c)).toContain(iso);
        } else {
          counts.text++;
          expect(cell.value ?? '', where(c)).toBe(c.text);
          // Text only where the cell is not one plain number: a header, a code with a leading
          // zero, more digits than a spreadsheet number holds, or not a number at all.
          const plainNumber = body && n !== null && !/^\s*0\d/.test(c.text) && digits.length <= 15 && !(date && date.raw === c.text.trim());
          expect(plainNumber, where(c)).toBe(false);
        }
      }
      // The header rows: bold, frozen, filtered; the columns have widths.
      if (t.header_rows > 0) {
        for (const c of t.cells.filter((c: any) => c.row < t.header_rows)) expect(ws.getCell(c.row + 1, c.col + 1).font?.bold, where(c)).toBe(true);
        expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: t.header_rows });
        expect(ws.autoFilter).toBeTruthy();
      }
      // exceljs writes no <col> for a column of Excel's default width (9): it reads back undefined.
      for (let col = 1; col <= t.n_cols; col++) expect(ws.getColumn(col).width ?? 9, `${file} table ${k} column ${col}`).toBeGreaterThan(0);
    });
    console.log(`xlsx-tables: ${JSON.stringify(counts)}`);
    expect(counts.rowSpans).toBeGreaterThan(0);
    expect(counts.colSpans).toBeGreaterThan(0);
    expect(counts.numeric).toBeGreaterThan(0);
  });

  it('a comma-decimal invoice: amounts are the numbers the document means, shown with its decimals', () => {
    const first = docs.slice(0, 3).reduce((n, d) => n + d.tables.length, 0);
    const fr = docs[3];
    const amounts = (fr.tables as any[]).flatMap((t, i) =>
      (t.cells as any[]).filter((c) => c.row >= t.header_rows && /^[\d ]+,\d{2}( €)?$/.test(c.text)).map((c) => ({ ...c, ws: wb.worksheets[3 + first + i]! })),
    );
    expect(amounts.length).toBeGreaterThan(3);
    for (const c of amounts) {
      const cell = c.ws.getCell(c.row + 1, c.col + 1);
      expect(cell.type, c.text).toBe(ExcelJS.ValueType.Number);
      expect(cell.value, c.text).toBeCloseTo(parseNumber(c.text, 'comma')!.value, 9);
      expect(cell.numFmt, c.text).toMatch(/0\.00/);
    }
  });

  it('the summary sheets have a bold, frozen, filtered header and widths', () => {
    for (const name of ['Documents', 'Fields', 'Line items']) {
      const ws = wb.getWorksheet(name)!;
      expect(ws.getRow(1).getCell(1).font?.bold, name).toBe(true);
      expect(ws.views[0], name).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(ws.autoFilter, name).toBeTruthy();
      expect(ws.getColumn(2).width, name).toBeGreaterThan(8);
    }
    expect(wb.getWorksheet('Documents')!.rowCount).toBe(1 + FILES.length);
  });
});

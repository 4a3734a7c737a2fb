import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../../src/api/exports/csv.js';
import { newId } from '../../src/domain/names.js';
import { extractDocument } from '../../src/extract/index.js';
import { parseNumber } from '../../src/extract/locale/numbers.js';
import { api, open, removeDir, type Harness } from '../webhooks/harness.js';

const FIX = new URL('../fixtures/invoices/', import.meta.url).pathname;
const FILES = ['en-ruled-invoice.pdf', 'de-unruled-invoice.pdf'];

/** An RFC 4180 parser written here (not the exporter's code): quoted fields, doubled quotes, CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length) throw new Error('CSV does not end with CRLF');
  return rows;
}

let h: Harness;
let json: any[];

beforeAll(async () => {
  h = await open({ TABLEMILL_RATE_LIMITS: '0' });
  const form = new FormData();
  for (const f of FILES) form.append('file', new Blob([readFileSync(FIX + f)], { type: 'application/pdf' }), f);
  const up = await fetch(`${h.url}/v1/batches/exp/documents`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: form });
  expect(up.status).toBe(201);
  await api(h, 'POST', '/v1/batches/exp/process');
  // Play the worker with the real engine, in process.
  for (const c of await h.store.claimDocuments(10, 60_000, Date.now())) {
    const result = await extractDocument(await h.deps.blobs.get(c.blob_key));
    await h.store.completeDocument(c.id, c.attempt, { status: 'succeeded', page_count: result.page_count, result_json: JSON.stringify(result) }, Date.now());
  }
  json = (await (await api(h, 'GET', '/v1/batches/exp/results?limit=200')).json()).documents;
}, 120_000);
afterAll(async () => {
  await h.close();
  removeDir(h.dir);
});

function expectedItemRows(docs: any[]): Array<Array<string | number | null>> {
  return docs.flatMap((d) =>
    d.line_items.map((li: any) => [d.id, d.filename, li.page, li.table_index, li.row, li.description, li.quantity, li.unit_price, li.amount, li.currency, li.flags.length ? li.flags.join(';') : null, JSON.stringify(li.cells)]),
  );
}

describe('exports of real extraction results', () => {
  it('the fixtures produced line items and tables to export', () => {
    expect(json).toHaveLength(2);
    expect(json.every((d) => d.status === 'succeeded' && d.line_items.length > 0 && d.tables.length > 0)).toBe(true);
  });

  it('CSV: one row per line item, RFC 4180, read back equal to the JSON', async () => {
    const res = await api(h, 'GET', '/v1/batches/exp/results?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="exp-line-items.csv"/);
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual(['document_id', 'filename', 'page', 'table_index', 'row', 'description', 'quantity', 'unit_price', 'amount', 'currency', 'flags', 'cells']);
    const want = expectedItemRows(json).map((r) => r.map((v) => (v === null ? '' : typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v))));
    expect(rows.slice(1)).toEqual(want);
    // One document alone.
    const one = await api(h, 'GET', `/v1/documents/${json[0].id}/results?format=csv`);
    expect(one.headers.get('content-disposition')).toMatch(/en-ruled-invoice-line-items\.csv/);
    expect(parseCsv(await one.text()).length).toBe(1 + json[0].line_items.length);
  });

  it('CSV guards formula injection and quotes per RFC 4180', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField(null)).toBe('');
  });

  it('XLSX: read back with exceljs, every cell equal to the JSON results', async () => {
    const res = await api(h, 'GET', '/v1/batches/exp/results?format=xlsx');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(/exp-results\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
    const tables = json.flatMap((d) => d.tables.map((t: any) => ({ d, t })));
    expect(wb.worksheets.map((w) => w.name).slice(0, 3)).toEqual(['Documents', 'Fields', 'Line items']);
    expect(wb.worksheets).toHaveLength(3 + tables.length);
    const docs = wb.getWorksheet('Documents')!;
    expect((docs.getRow(1).values as unknown[]).slice(1)).toEqual(['document_id', 'filename', 'status', 'document_type', 'page_count', 'error']);
    json.forEach((d, i) => expect((docs.getRow(i + 2).values as unknown[]).slice(1)).toEqual([d.id, d.filename, 'succeeded', 'invoice', d.page_count]));

    // Line items: the CSV's columns less `cells`, then one column per item header text, typed.
    const items = wb.getWorksheet('Line items')!;
    const want = expectedItemRows(json).map((r) => r.slice(0, -1));
    const keys = [...new Set(json.flatMap((d) => d.line_items.flatMap((li: any) => Object.keys(li.cells))))];
    const header = (items.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['document_id', 'filename', 'page', 'table_index', 'row', 'description', 'quantity', 'unit_price', 'amount', 'currency', 'flags', ...keys]);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(items.rowCount).toBe(1 + want.length);
    let compared = 0;
    const lis = json.flatMap((d) => d.line_items.map((li: any) => ({ d, li })));
    want.forEach((r, i) => {
      r.forEach((v, j) => {
        const cell = items.getCell(i + 2, j + 1);
        expect(cell.value ?? null, `line item ${i} column ${j}`).toEqual(v);
        if (typeof v === 'number') expect(cell.type).toBe(ExcelJS.ValueType.Number);
        compared++;
      });
      const { d, li } = lis[i];
      keys.forEach((k, j) => {
        const cell = items.getCell(i + 2, r.length + j + 1);
        const text = li.cells[k];
        const where = `line item ${i} cell ${k}: ${text}`;
        if (!text) expect(cell.value ?? null, where).toBeNull();
        else if (cell.type === ExcelJS.ValueType.Number) {
          const n = parseNumber(text, d.filename.startsWith('de-') ? 'comma' : 'dot')!;
          expect(cell.value, where).toBeCloseTo(n.percent ? n.value / 100 : n.value, 9);
        }
        else if (cell.type !== ExcelJS.ValueType.Date) expect(cell.value, where).toBe(text);
        compared++;
      });
    });
    expect(compared).toBe(want.length * (11 + keys.length));
    // Amount columns read as numbers, not text.
    const amountCol = header.findIndex((h) => /^(amount|betrag|total)/i.test(String(h)) && header.indexOf(h) > 10);
    if (amountCol >= 0) expect(items.getCell(2, amountCol + 1).type).toBe(ExcelJS.ValueType.Number);

    // Table sheets are named by the whole filename and the table's number.
    const perDoc = new Map<string, number>();
    tables.forEach(({ d }, k) => {
      const n = (perDoc.get(d.id) ?? 0) + 1;
      perDoc.set(d.id, n);
      expect(wb.worksheets[k + 3].name).toBe(`${d.filename} t${n}`);
    });

    // Table sheets cell by cell: text as text, numbers (read in the document's convention) as numbers.
    tables.forEach(({ d, t }, k) => {
      const ws = wb.worksheets[k + 3];
      const conv = d.filename.startsWith('de-') ? 'comma' : 'dot';
      for (const c of t.cells) {
        const cell = ws.getCell(c.row + 1, c.col + 1);
        const where = `table ${k} cell ${c.row},${c.col} ${c.text}`;
        if (cell.type === ExcelJS.ValueType.Number) {
          const n = parseNumber(c.text, conv)!;
          expect(cell.value, where).toBeCloseTo(n.percent ? n.value / 100 : n.value, 9);
        }
        else if (cell.type !== ExcelJS.ValueType.Date) expect(cell.value ?? '', where).toBe(c.text);
        if (c.row_span > 1 || c.col_span > 1) expect(cell.isMerged).toBe(true);
      }
    });
  });

  it('JSON results carry the document type and its fields, each with text, confidence, page and box', () => {
    const [en, de] = json;
    expect([en.document_type, de.document_type]).toEqual(['invoice', 'invoice']);
    expect(en.fields.invoice_number).toMatchObject({ value: 'INV-2026-0142', text: 'INV-2026-0142', page: 1 });
    expect(en.fields.issue_date.value).toBe('2026-11-30');
    expect(en.fields.total.value).toBe(6283.89);
    expect(en.fields.iban.value).toBe('GB29NWBK60161331926819');
    expect(de.fields.due_date).toMatchObject({ value: '2026-12-11', text: '11.12.2026' });
    expect(de.fields.vendor_name.value).toBe('Müller Metallbau GmbH');
    for (const f of Object.values(en.fields) as any[]) {
      if (!f) continue;
      expect(f.confidence).toBeGreaterThan(0);
      expect(f.confidence).toBeLessThanOrEqual(1);
      expect(f.bbox).toHaveLength(4);
    }
    expect(en.fields.account_number).toBeNull();
  });

  it('XLSX Fields sheet: one row per document, numbers as numbers and dates as dates', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await (await api(h, 'GET', '/v1/batches/exp/results?format=xlsx')).arrayBuffer()) as any);
    const ws = wb.getWorksheet('Fields')!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 4)).toEqual(['document_id', 'filename', 'document_type', 'invoice_number']);
    expect(ws.rowCount).toBe(1 + json.length);
    json.forEach((d, i) => {
      const cell = (name: string) => ws.getCell(i + 2, header.indexOf(name) + 1);
      expect(cell('document_id').value).toBe(d.id);
      expect(cell('document_type').value).toBe('invoice');
      expect(cell('invoice_number').value).toBe(d.fields.invoice_number.value);
      expect(cell('total').type).toBe(ExcelJS.ValueType.Number);
      expect(cell('total').value).toBe(d.fields.total.value);
      expect(cell('issue_date').type).toBe(ExcelJS.ValueType.Date);
      expect((cell('issue_date').value as Date).toISOString().slice(0, 10)).toBe(d.fields.issue_date.value);
      expect(cell('account_number').value ?? null).toBeNull();
    });
  });

  it('XLSX writes text as text: a formula-like description stays a string', async () => {
    const now = Date.now();
    const acc = (await h.store.findAccountByKeyHash((await import('../../src/api/auth.js')).hashApiKey(h.key)))!;
    await h.store.insertDocuments(acc.id, 'evil', [{ id: newId('doc'), filename: 'x.pdf', content_type: 'application/pdf', size_bytes: 1, sha256: '0'.repeat(64), blob_key: 'nokey' }], now);
    await h.store.submitBatch(acc.id, 'evil', now);
    const [c] = await h.store.claimDocuments(1, 60_000, now);
    const item = { table_index: 0, row: 1, description: '=1+1', quantity: null, unit_price: null, amount: 2, currency: null, cells: { Item: '=1+1' }, page: 1, bbox: [0, 0, 1, 1], flags: [] };
    await h.store.completeDocument(c.id, c.attempt, { status: 'succeeded', page_count: 1, result_json: JSON.stringify({ page_count: 1, tables: [], line_items: [item], totals: null }) }, now);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await (await api(h, 'GET', '/v1/batches/evil/results?format=xlsx')).arrayBuffer()) as any);
    const cell = wb.getWorksheet('Line items')!.getCell(2, 6);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe('=1+1');
    const csv = parseCsv(await (await api(h, 'GET', '/v1/batches/evil/results?format=csv')).text());
    expect(csv[1][5]).toBe("'=1+1");
    const itemCell = wb.getWorksheet('Line items')!.getCell(2, 12);
    expect([wb.getWorksheet('Line items')!.getCell(1, 12).value, itemCell.type, itemCell.value]).toEqual(['Item', ExcelJS.ValueType.String, '=1+1']);
  });

  it('ZIP: one CSV per table named NNN-<file>-p<page>-t<k>.csv with its grid, plus line_items.csv and fields.csv', async () => {
    const res = await api(h, 'GET', '/v1/batches/exp/results?format=zip');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/exp-tables\.zip/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const text = (name: string) => new TextDecoder().decode(files[name]);
    const want: string[] = [];
    json.forEach((d, i) => {
      const perPage = new Map<number, number>();
      for (const t of d.tables) {
        const k = (perPage.get(t.page) ?? 0) + 1;
        perPage.set(t.page, k);
        const name = `${String(i + 1).padStart(3, '0')}-${d.filename.replace(/\.pdf$/, '')}-p${t.page}-t${k}.csv`;
        want.push(name);
        const grid = parseCsv(text(name));
        expect(grid).toHaveLength(t.n_rows);
        for (const row of grid) expect(row).toHaveLength(t.n_cols);
        for (const c of t.cells) expect(grid[c.row][c.col], `${name} ${c.row},${c.col}`).toBe(/^[=+\-@\t\r]/.test(c.text) ? `'${c.text}` : c.text);
      }
    });
    expect(Object.keys(files).sort()).toEqual([...want, 'fields.csv', 'line_items.csv'].sort());
    expect(text('line_items.csv')).toBe(await (await api(h, 'GET', '/v1/batches/exp/results?format=csv')).text());
    const fields = parseCsv(text('fields.csv'));
    expect(fields).toHaveLength(1 + json.length);
    expect(fields[1].slice(0, 4)).toEqual([json[0].id, json[0].filename, 'invoice', json[0].fields.invoice_number.value]);
    const one = unzipSync(new Uint8Array(await (await api(h, 'GET', `/v1/documents/${json[1].id}/results?format=zip`)).arrayBuffer()));
    expect(Object.keys(one)).toHaveLength(json[1].tables.length + 2);
  });

  it('NDJSON: one DocumentResult per line, equal to the JSON results', async () => {
    const res = await api(h, 'GET', '/v1/batches/exp/results?format=ndjson');
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await res.text()).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(json);
    const one = await api(h, 'GET', `/v1/documents/${json[1].id}/results?format=ndjson`);
    expect(JSON.parse(await one.text())).toEqual(json[1]);
  });

  it('an unknown batch is 404 in every format', async () => {
    for (const f of ['csv', 'xlsx', 'ndjson', 'zip']) expect((await api(h, 'GET', `/v1/batches/nope/results?format=${f}`)).status).toBe(404);
  });
});

describe('NDJSON of 10,000 documents streams with flat memory', () => {
  it('heap grows by far less than the body it sends', async () => {
    const acc = (await h.store.findAccountByKeyHash((await import('../../src/api/auth.js')).hashApiKey(h.key)))!;
    const result = JSON.stringify({ page_count: 1, tables: [], line_items: json[0].line_items, totals: json[0].totals });
    const now = Date.now();
    const N = 10_000;
    for (let at = 0; at < N; at += 2000) {
      const docs = Array.from({ length: 2000 }, (_, i) => ({ id: newId('doc'), filename: `d${at + i}.pdf`, content_type: 'application/pdf', size_bytes: 1, sha256: '0'.repeat(64), blob_key: 'k' }));
      await h.store.insertDocuments(acc.id, 'big', docs, now);
    }
    await h.store.submitBatch(acc.id, 'big', now);
    for (;;) {
      const got = await h.store.claimDocuments(500, 600_000, now);
      if (!got.length) break;
      for (const d of got) await h.store.completeDocument(d.id, d.attempt, { status: 'succeeded', page_count: 1, result_json: result }, now);
    }
    const t1 = Date.now();
    // Live heap, not garbage: collect before each sample (the classic expose-gc trick at run time).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = () => (gc(), process.memoryUsage().heapUsed);
    const base = live();
    let peak = base;
    const res = await api(h, 'GET', '/v1/batches/big/results?format=ndjson');
    const reader = res.body!.getReader();
    let bytes = 0;
    let lines = 0;
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) lines++;
      if (++chunks % 50 === 0) peak = Math.max(peak, live());
      // A slow reader: the server must wait (backpressure), not buffer the batch.
      if (chunks % 200 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    const growth = peak - base;
    console.log(`ndjson: ${lines} lines, ${(bytes / 1e6).toFixed(1)} MB sent in ${Date.now() - t1} ms (seeding ${t1 - now} ms), live heap growth ${(growth / 1e6).toFixed(1)} MB over ${Math.floor(chunks / 50)} samples`);
    expect(lines).toBe(N);
    expect(bytes).toBeGreaterThan(N * result.length);
    // Flat: one store page (200 results ≈ 1 MB) plus stream buffers, whatever the batch size.
    expect(growth).toBeLessThan(12e6);
  }, 120_000);
});

/**
 * Corrections over HTTP on a real server with real workers (API.md §4b): stored beside the
 * engine's result, shown in results and every export, `?view=extracted` untouched, 409 for a document that has not succeeded, validated with the error envelope.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TablemillClient } from '@tablemill/client';
import { BIN, childEnv } from '../e2e/server.js';
import { call, openReview, processFiles, type ReviewHarness } from './harness.js';

const FIX = new URL('../fixtures/invoices/', import.meta.url).pathname;
let h: ReviewHarness;
let ids: Map<string, string>;

beforeAll(async () => {
  h = await openReview();
  ids = await processFiles(
    h,
    h.key,
    'fix',
    ['en-ruled-invoice.pdf', 'de-unruled-invoice.pdf'].map((f) => ({ name: f, bytes: readFileSync(FIX + f) })),
    // A correction gives only the custom fields its document's run defined.
    { custom_fields: [{ name: 'cost_centre', labels: ['Kostenstelle'] }] },
  );
}, 240_000);
afterAll(() => h?.close());

/** The CLI in a child process (asynchronously: the server answering it runs in this process). */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: childEnv({ TABLEMILL_URL: h.url, TABLEMILL_API_KEY: h.key }), timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('corrections', () => {
  it('sent at once by several reviewers, each is merged over the others: none is lost', async () => {
    const id = ids.get('de-unruled-invoice.pdf')!;
    const bodies = [{ invoice_number: 'R-1' }, { customer_name: 'Kunde GmbH' }, { order_number: 'PO-7' }, { payment_terms: '14 Tage' }, { vendor_name: 'Lieferant AG' }, { iban: null }];
    const answers = await Promise.all(bodies.map((fields) => call(h, h.key, 'PUT', `/v1/documents/${id}/corrections`, { fields })));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    const fields = (await call(h, h.key, 'GET', `/v1/documents/${id}/results`)).json.fields;
    expect([fields.invoice_number.value, fields.customer_name.value, fields.order_number.value, fields.payment_terms.value, fields.vendor_name.value, fields.iban]).toEqual(['R-1', 'Kunde GmbH', 'PO-7', '14 Tage', 'Lieferant AG', null]);
    expect(fields.customer_name.corrected).toBe(true);
    await call(h, h.key, 'DELETE', `/v1/documents/${id}/corrections`);
  });
  it('corrects fields, line items and table cells; results, exports and ?view=extracted', async () => {
    const id = ids.get('en-ruled-invoice.pdf')!;
    const before = (await call(h, h.key, 'GET', `/v1/documents/${id}/results`)).json;
    expect(before.fields.invoice_number).toMatchObject({ value: 'INV-2026-0142', source: 'engine', corrected: false });
    const put = await call(h, h.key, 'PUT', `/v1/documents/${id}/corrections`, { fields: { total: '9999.5', invoice_number: 'INV-X', due_date: null }, tables: [{ index: 0, cells: [{ row: 1, col: 1, text: 'Edited cell' }] }] });
    expect(put.status).toBe(200);
    expect(put.json.fields.total).toMatchObject({ value: 9999.5, source: 'correction', corrected: true, confidence: 1 });
    expect(put.json.fields.invoice_number).toMatchObject({ value: 'INV-X', corrected: true });
    expect(put.json.fields.due_date).toBeNull();
    expect(put.json.fields.vendor_name.corrected).toBe(false);
    // A second PUT merges field by field.
    const again = await call(h, h.key, 'PUT', `/v1/documents/${id}/corrections`, { fields: { customer_name: 'Fabrikam' } });
    expect(again.json.fields.total.value).toBe(9999.5);
    expect(again.json.fields.customer_name.value).toBe('Fabrikam');
    const cell = again.json.tables[0].cells.find((c: any) => c.row === 1 && c.col === 1);
    expect(cell.text).toBe('Edited cell');

    const extracted = (await call(h, h.key, 'GET', `/v1/documents/${id}/results?view=extracted`)).json;
    expect(extracted.fields.invoice_number.value).toBe('INV-2026-0142');
    expect(extracted.fields.total.value).toBe(before.fields.total.value);
    expect(extracted.tables[0].cells.find((c: any) => c.row === 1 && c.col === 1).text).toBe(before.tables[0].cells.find((c: any) => c.row === 1 && c.col === 1).text);

    const batch = (await call(h, h.key, 'GET', '/v1/batches/fix/results')).json;
    expect(batch.documents.find((d: any) => d.id === id).fields.total.value).toBe(9999.5);
    const ndjson = await (await fetch(`${h.url}/v1/batches/fix/results?format=ndjson`, { headers: { authorization: `Bearer ${h.key}` } })).text();
    expect(ndjson.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((d) => d.id === id).fields.invoice_number.value).toBe('INV-X');
    const zip = unzipSync(new Uint8Array(await (await fetch(`${h.url}/v1/batches/fix/results?format=zip`, { headers: { authorization: `Bearer ${h.key}` } })).arrayBuffer()));
    const fieldsCsv = new TextDecoder().decode(zip['fields.csv']!);
    expect(fieldsCsv).toContain('INV-X');
    expect(fieldsCsv).toContain('9999.5');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await (await fetch(`${h.url}/v1/batches/fix/results?format=xlsx`, { headers: { authorization: `Bearer ${h.key}` } })).arrayBuffer());
    const sheet = wb.getWorksheet('Fields')!;
    const values: unknown[] = [];
    sheet.eachRow((r) => values.push(...(r.values as unknown[])));
    expect(values).toContain('INV-X');
    expect(values).toContain(9999.5);
  });

  it('answers the words read on the page with their boxes (the SDK too); another account gets 404', async () => {
    const id = ids.get('de-unruled-invoice.pdf')!;
    const pages = await new TablemillClient(h.url, h.key).pageWords(id);
    expect(pages.map((p) => p.page)).toEqual([1]);
    const result = (await call(h, h.key, 'GET', `/v1/documents/${id}/results`)).json;
    const number = result.fields.invoice_number;
    // The invoice number's box holds a word whose text is part of the number.
    const inside = pages[0]!.words.filter((w) => w.bbox[0] >= number.bbox[0] - 1 && w.bbox[2] <= number.bbox[2] + 1 && w.bbox[1] >= number.bbox[1] - 1 && w.bbox[3] <= number.bbox[3] + 1);
    expect(inside.map((w) => w.text).join(' ')).toContain(String(number.value).split(/\s/)[0]);
    expect(pages[0]!.width).toBeGreaterThan(0);
    expect((await call(h, await h.keyOf('intruder'), 'GET', `/v1/documents/${id}/words`)).status).toBe(404);
  });

  it('another account sees neither the document nor its corrections', async () => {
    const id = ids.get('de-unruled-invoice.pdf')!;
    const other = await h.keyOf('intruder');
    expect((await call(h, other, 'PUT', `/v1/documents/${id}/corrections`, { fields: { total: 1 } })).status).toBe(404);
    expect((await call(h, other, 'DELETE', `/v1/documents/${id}/corrections`)).status).toBe(404);
    expect((await call(h, h.key, 'GET', `/v1/documents/${id}/results`)).json.fields.total.corrected).toBe(false);
  });

  it('refuses bad values with the error envelope', async () => {
    const id = ids.get('de-unruled-invoice.pdf')!;
    for (const body of [{ fields: { total: 'abc' } }, { fields: { issue_date: '31.12.2026' } }, { fields: { nope: 1 } }, { fields: { custom: { 'Bad-Name': 'x' } } }, { tables: [{ index: -1, cells: [] }] }]) {
      const r = await call(h, h.key, 'PUT', `/v1/documents/${id}/corrections`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    }
    expect((await call(h, h.key, 'PUT', '/v1/documents/doc_missing/corrections', { fields: {} })).status).toBe(404);
  });

  it('409 for a document that has not succeeded; DELETE restores the engine reading', async () => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(FIX + 'en-receipt-narrow.pdf')]), 'queued.pdf');
    const up = (await (await fetch(`${h.url}/v1/batches/waiting/documents`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: form })).json()) as any;
    const r = await call(h, h.key, 'PUT', `/v1/documents/${up.documents[0].id}/corrections`, { fields: { total: 1 } });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('conflict');

    const id = ids.get('de-unruled-invoice.pdf')!;
    await call(h, h.key, 'PUT', `/v1/documents/${id}/corrections`, { fields: { total: 1.5 } });
    expect((await call(h, h.key, 'DELETE', `/v1/documents/${id}/corrections`)).status).toBe(204);
    const res = (await call(h, h.key, 'GET', `/v1/documents/${id}/results`)).json;
    expect(res.fields.total?.corrected ?? false).toBe(false);
  });

  it('the SDK and `tablemill correct` correct a document', async () => {
    const id = ids.get('de-unruled-invoice.pdf')!;
    const client = new TablemillClient(h.url, h.key);
    const r = await client.correct(id, { fields: { payment_terms: 'Sofort', custom: { cost_centre: 'K-12' } } });
    expect(r.fields!.payment_terms).toMatchObject({ value: 'Sofort', corrected: true, source: 'correction' });
    expect((r.fields as any).custom.cost_centre.value).toBe('K-12');
    const cli = await run(['correct', id, '--field', 'total=123.45', '--field', 'order_number=']);
    expect(cli.status, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).total).toMatchObject({ value: 123.45, corrected: true });
    const now = await client.documentResults(id);
    expect(now.fields!.total!.value).toBe(123.45);
    expect(now.fields!.order_number).toBeNull();
    expect(now.fields!.payment_terms!.value).toBe('Sofort');
    expect((await client.extractedResults(id)).fields!.total!.corrected).toBe(false);
    const bad = await run(['correct', id, '--field', 'total']);
    expect(bad.status).toBe(2);
    await client.deleteCorrections(id);
  });
});

/**
 * Request bodies are taken as they are written or refused (API.md §5): every JSON body schema is
 * closed (an unknown key is a 400, never dropped), body values are never coerced to another type
 * (query strings still are), currency codes are ISO 4217 ones, and a body nested deeper than the
 * API reads is a 400 before anything walks it (it was a 500, `Maximum call stack size exceeded`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, open, type Harness } from '../webhooks/harness.js';
import { densePage, emptyResult, gridTable, storedDocument } from '../review/harness.js';

let h: Harness;
let id: string;

beforeAll(async () => {
  h = await open({ TABLEMILL_RATE_LIMITS: '0' });
  id = await storedDocument(h, 'loose', { customFields: [{ name: 'po_number', labels: ['PO'] }], result: emptyResult([gridTable(3, 3)], ['po_number']), words: [densePage(5)] });
}, 60_000);
afterAll(() => h?.close());

const item = (extra: Record<string, unknown> = {}) => ({
  table_index: 0,
  row: 1,
  description: 'Widget',
  quantity: 2,
  unit_price: 5,
  amount: 10,
  currency: 'EUR',
  cells: { Description: 'Widget', Amount: '10.00' },
  page: 1,
  bbox: [0, 0, 10, 10],
  flags: [],
  source: 'engine',
  ...extra,
});

async function expect400(res: Response, what: string): Promise<any> {
  const body = (await res.json()) as any;
  expect(res.status, `${what}: ${JSON.stringify(body)}`).toBe(400);
  expect(body.error.code).toBe('invalid_request');
  return body.error;
}

const correct = (body: unknown) => api(h, 'PUT', `/v1/documents/${id}/corrections`, body);

describe('closed request bodies', () => {
  it('an unknown key is refused, never dropped: corrections, process options, webhooks', async () => {
    await expect400(await correct({ fieldz: { total: 1 } }), 'fieldz');
    await expect400(await correct({ fields: { totl: 1 } }), 'an unknown field');
    await expect400(await correct({ tables: [{ index: 0, cells: [], extra: 1 }] }), 'a table with an extra key');
    await expect400(await api(h, 'POST', '/v1/batches/loose/process', { custom_fieldz: [{ name: 'po', labels: ['PO'] }] }), 'custom_fieldz');
    await expect400(await api(h, 'PUT', '/v1/batches/loose/webhook', { url: 'https://example.com/hook', secrett: 'x' }), 'webhook secrett');
  });

  it('extra keys inside line items and cells are refused, so no export can print them', async () => {
    await expect400(await correct({ line_items: [item({ evil: '<script>' })] }), 'a line item with an extra key');
    await expect400(await correct({ tables: [{ index: 0, cells: [{ row: 0, col: 0, text: 'x', evil: 1 }] }] }), 'a cell with an extra key');
    await expect400(await correct({ line_items: [item({ cells: { Description: { nested: true } } })] }), 'a line item cell that is not text');
    expect((await correct({ line_items: [item()], tables: [{ index: 0, cells: [{ row: 0, col: 0, text: 'x' }] }] })).status).toBe(200);
    const ndjson = await (await api(h, 'GET', '/v1/batches/loose/results?format=ndjson')).text();
    const doc = JSON.parse(ndjson.trim().split('\n')[0]!);
    expect(Object.keys(doc.line_items[0]).sort()).toEqual(Object.keys(item()).sort());
    expect(ndjson).not.toContain('evil');
  });

  it('a line item without a source (as results gave them before sources existed) is read as from the engine', async () => {
    const { source: _source, ...bare } = item();
    const res = await correct({ line_items: [bare] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).line_items[0].source).toBe('engine');
  });

  it('body values are not coerced to another type; query strings still are', async () => {
    await expect400(await api(h, 'POST', '/v1/batches/loose/process', { custom_fields: [{ name: 'po', labels: 'x' }] }), 'labels as a string');
    await expect400(await api(h, 'POST', '/v1/batches/loose/process', { custom_fields: [{ name: 'po', labels: [1] }] }), 'labels as numbers');
    await expect400(await correct({ tables: [{ index: '0', cells: [] }] }), 'index as a string');
    await expect400(await correct({ line_items: [item({ quantity: '2' })] }), 'quantity as a string');
    await expect400(await correct({ line_items: [item({ flags: 'x' })] }), 'flags as a string');
    expect((await api(h, 'GET', '/v1/batches?limit=5')).status).toBe(200);
  });

  it('currency codes are ISO 4217 codes', async () => {
    await expect400(await correct({ fields: { currency: 'notacurrency123' } }), 'notacurrency123');
    await expect400(await correct({ fields: { currency: 'XYZ' } }), 'XYZ');
    await expect400(await correct({ line_items: [item({ currency: 'ABC' })] }), 'a line item in ABC');
    const ok = await correct({ fields: { currency: 'chf' }, line_items: [item({ currency: 'JPY' })] });
    expect(ok.status).toBe(200);
    const doc = await ok.json();
    expect(doc.fields.currency.value).toBe('CHF');
    expect(doc.line_items[0].currency).toBe('JPY');
  });
});

describe('nesting depth', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const send = (path: string, method: string, text: string) =>
    fetch(h.url + path, { method, headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' }, body: text });

  it('200,000 nested arrays inside a cell, a line item or any body: 400 naming the limit, never a 500', async () => {
    const bodies = [
      `{"tables":[{"index":0,"cells":[{"row":0,"col":0,"text":"x","x":${deep(200_000)}}]}]}`,
      `{"line_items":[{"table_index":0,"x":${deep(200_000)}}]}`,
      `{"fields":{"custom":{"po_number":${deep(200_000)}}}}`,
    ];
    for (const body of bodies) {
      expect(body.length).toBeLessThan(1024 * 1024);
      const err = await expect400(await send(`/v1/documents/${id}/corrections`, 'PUT', body), body.slice(0, 40));
      expect(err.details).toMatchObject({ limit: expect.any(Number) });
    }
    await expect400(await send('/v1/batches/loose/process', 'POST', `{"custom_fields":${deep(200_000)}}`), 'process');
    await expect400(await send('/v1/batches/loose/webhook', 'PUT', `{"url":${deep(200_000)}}`), 'webhook');
    // Brackets inside a string are text, not nesting.
    expect((await send(`/v1/documents/${id}/corrections`, 'PUT', JSON.stringify({ fields: { payment_terms: `"[${'['.repeat(900)}\\"` } }))).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('every JSON request body schema is closed, at every depth', async () => {
    const doc = (await (await fetch(`${h.url}/openapi.json`)).json()) as any;
    const open: string[] = [];
    const walk = (s: any, path: string): void => {
      if (!s || typeof s !== 'object') return;
      if (s.$ref) return walk(doc.components.schemas[s.$ref.split('/').pop()], `${path}→${s.$ref}`);
      if (s.properties && s.additionalProperties !== false) open.push(path);
      if (s.type === 'object' && !s.properties && !s.patternProperties && (s.additionalProperties === undefined || s.additionalProperties === true)) open.push(path);
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.${k}`);
      for (const v of Object.values(s.patternProperties ?? {})) walk(v, `${path}{}`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}{}`);
      if (s.items) walk(s.items, `${path}[]`);
      for (const k of ['anyOf', 'oneOf', 'allOf']) for (const v of s[k] ?? []) walk(v, path);
    };
    let bodies = 0;
    for (const [p, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        bodies++;
        walk(schema, `${method.toUpperCase()} ${p}`);
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(3);
    expect(open).toEqual([]);
  });
});

/**
 * One account's corrections never stall the others (API.md §4b limits): each body below is
 * answered, 400 or 200, while `GET /healthz`, polled beside it on the same real HTTP server,
 * never waits a second. The bodies are those a probe sent: long custom values, tens of
 * thousands of custom names, values near 2,000 characters, and three PUTs of 10,000 new cells
 * each, which a quadratic merge had taken 1.7, 3.9 and 11.1 s over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, type Harness } from '../webhooks/harness.js';
import { clientThread, densePage, emptyResult, gridTable, pollHealthz, storedDocument } from './harness.js';

/**
 * The longest `/healthz` may wait while a correction is handled: well under the seconds a blocked
 * event loop took (1.7–11.1 s), well over what scheduling alone costs a poll on a busy 2-core
 * machine (up to 0.45 s seen with the loop free).
 */
const MAX_WAIT_MS = 1000;
const CUSTOM = Array.from({ length: 50 }, (_, i) => `c${String(i).padStart(2, '0')}`);

let h: Harness;
let fieldsDoc: string;
let cellsDoc: string;
let account: string;

beforeAll(async () => {
  h = await open({ TABLEMILL_RATE_LIMITS: '0' });
  account = (await h.store.getOrCreateAccount('acme', Date.now())).id;
  const page = densePage(100);
  page.words.push(['Zephyr-4471', 400, 1222, 460, 1231]);
  fieldsDoc = await storedDocument(h, 'fields', { customFields: CUSTOM.map((name) => ({ name, labels: [name.toUpperCase()] })), result: emptyResult([], CUSTOM), words: [page] });
  // 30,000 cells in three tables of 100 × 100.
  cellsDoc = await storedDocument(h, 'cells', { result: emptyResult([gridTable(100, 100), gridTable(100, 100), gridTable(100, 100)]), words: [densePage(20)] });
  // The corrections thread starts with the server's first correction (once a process): started
  // here, so that what is timed below is the bodies.
  expect((await put(fieldsDoc, '{}')).status).toBe(200);
}, 60_000);
afterAll(() => h?.close());

/** PUTs a body already serialised; the error, if any, and the answer. */
async function put(id: string, body: string): Promise<{ status: number; error: any; json: () => any }> {
  const res = await fetch(`${h.url}/v1/documents/${id}/corrections`, { method: 'PUT', headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' }, body });
  const text = await res.text();
  return { status: res.status, error: res.status >= 400 ? JSON.parse(text).error : null, json: () => JSON.parse(text) };
}

/**
 * PUTs each body in turn from a client thread, with /healthz polled beside on this thread (the
 * server's); the answers and the longest /healthz wait.
 */
async function whilePolled(id: string, bodies: string[]): Promise<{ answers: { status: number; error: any }[]; maxMs: number }> {
  const client = await clientThread(h, 'PUT', `/v1/documents/${id}/corrections`, bodies);
  const poll = pollHealthz(h.url);
  const answers = await client.go();
  const { maxMs, polls } = await poll.stop();
  expect(polls).toBeGreaterThan(0);
  console.log(`/healthz max wait ${maxMs} ms over ${polls} polls; answers ${answers.map((a) => a.status).join(', ')}`);
  return { answers, maxMs };
}

const customBody = (values: Record<string, string>) => JSON.stringify({ fields: { custom: values } });
const long = (n: number, seed: number) => Array.from({ length: n }, (_, i) => 'abcdefghij klmnopqrst uvwxyz 0123456789.'[(i * 7 + seed) % 40]).join('');

describe('corrections are bounded and never block the event loop', () => {
  it('a 10 KB body of five long custom values: 400 naming the limit; five of 1,000 characters: 200, located where printed', async () => {
    const tooLong = customBody(Object.fromEntries(CUSTOM.slice(0, 5).map((n, i) => [n, long(2000, i)])));
    expect(tooLong.length).toBeGreaterThan(10_000);
    const atLimit = customBody({ ...Object.fromEntries(CUSTOM.slice(1, 5).map((n, i) => [n, long(1000, i)])), c00: 'Zephyr-4471' });
    const { answers, maxMs } = await whilePolled(fieldsDoc, [tooLong, atLimit]);
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]!.error.code).toBe('invalid_request');
    expect(JSON.stringify(answers[0]!.error.details)).toContain('1000');
    expect(answers[1]!.status).toBe(200);
    const custom = (await put(fieldsDoc, '{}')).json().fields.custom;
    expect(custom.c01.value).toBe(long(1000, 0));
    // Printed once, below the dense page's lines: found there.
    expect(custom.c00).toMatchObject({ value: 'Zephyr-4471', page: 1, bbox: [400, 1222, 460, 1231], corrected: true });
    expect(maxMs).toBeLessThan(MAX_WAIT_MS);
  }, 20_000);

  it('30,000 short custom values (878 KB) and 450 values of 1,990 characters: 400 naming the limit', async () => {
    const many = customBody(Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`f${i}`, `value ${i}`])));
    const wide = customBody(Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`g${i}`, long(1990, i)])));
    expect(wide.length).toBeLessThan(1024 * 1024);
    const { answers, maxMs } = await whilePolled(fieldsDoc, [many, wide]);
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(a.error.code).toBe('invalid_request');
      expect(a.error.details.limit).toBe(100);
    }
    expect(maxMs).toBeLessThan(MAX_WAIT_MS);
  }, 20_000);

  it('all 50 custom fields of the run at 1,000 characters on a dense page: 200 within the budget', async () => {
    const all = customBody(Object.fromEntries(CUSTOM.map((n, i) => [n, long(1000, i)])));
    const { answers, maxMs } = await whilePolled(fieldsDoc, [all]);
    expect(answers[0]!.status).toBe(200);
    expect((await put(fieldsDoc, '{}')).json().fields.custom.c49.value).toBe(long(1000, 49));
    expect(maxMs).toBeLessThan(MAX_WAIT_MS);
  }, 20_000);

  it('only the custom names the run defined, at most 50', async () => {
    const r = await put(fieldsDoc, customBody({ c00: 'x', not_defined: 'y' }));
    expect(r.status).toBe(400);
    expect(r.error.details).toMatchObject({ field: 'custom.not_defined' });
    const over = await put(fieldsDoc, customBody(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`c${i}`, 'x']))));
    expect(over.status).toBe(400);
    expect(over.error.details.errors[0]).toMatchObject({ path: '/fields/custom', limit: 50 });
  });

  it('three PUTs of 10,000 new cells: merged by key; the same cells again do not grow the stored correction', async () => {
    const cells = (table: number, text: string, n = 10_000) => JSON.stringify({ tables: [{ index: table, cells: Array.from({ length: n }, (_, i) => ({ row: Math.floor(i / 100), col: i % 100, text: `${text} ${i}` })) }] });
    // The first table's first 500 cells again, as they were given: the same correction.
    const bodies = [cells(0, 'a'), cells(1, 'b'), cells(2, 'c'), cells(0, 'a', 500)];
    const stored = async () => (await h.store.getDocumentResult(account, cellsDoc))!.corrections_json!.length;
    const sizes: number[] = [];
    const waits: number[] = [];
    for (const b of bodies) {
      const { answers, maxMs } = await whilePolled(cellsDoc, [b]);
      expect(answers[0]!.status).toBe(200);
      waits.push(maxMs);
      sizes.push(await stored());
    }
    const maxMs = Math.max(...waits);
    console.log(`stored correction ${sizes.join(', ')} bytes`);
    expect(maxMs).toBeLessThan(MAX_WAIT_MS);
    expect(sizes[1]! - sizes[0]!).toBeLessThan(sizes[0]! * 1.1);
    expect(sizes[3]).toBe(sizes[2]);
    const shown = (await (await fetch(`${h.url}/v1/documents/${cellsDoc}/results`, { headers: { authorization: `Bearer ${h.key}` } })).json()) as any;
    expect(shown.tables[2].cells[9999].text).toBe('c 9999');
    expect(shown.tables[0].cells[0].text).toBe('a 0');
  }, 20_000);

  it('more than 10,000 cells, or a cell the table does not have: 400 naming the limit', async () => {
    const over = JSON.stringify({ tables: [0, 1].map((index) => ({ index, cells: Array.from({ length: 5001 }, (_, i) => ({ row: Math.floor(i / 100), col: i % 100, text: 'x' })) })) });
    const r = await put(cellsDoc, over);
    expect(r.status).toBe(400);
    expect(r.error.details).toMatchObject({ limit: 10_000 });
    for (const t of [{ index: 3, cells: [{ row: 0, col: 0, text: 'x' }] }, { index: 0, cells: [{ row: 100, col: 0, text: 'x' }] }]) {
      const bad = await put(cellsDoc, JSON.stringify({ tables: [t] }));
      expect(bad.status, JSON.stringify(t)).toBe(400);
      expect(bad.error.code).toBe('invalid_request');
    }
  });
});

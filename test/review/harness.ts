/** An HTTP server on SQLite with real extraction workers, and the calls the review tests make. */
import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { startWorkers, type Workers } from '../../src/worker/loop.js';
import { FIELD_NAMES, type StoredPage } from '../../src/extract/types.js';
import { open, PDF, type Harness } from '../webhooks/harness.js';

export interface ReviewHarness extends Harness {
  workers: Workers;
  /** A key of another account. */
  keyOf(account: string): Promise<string>;
}

export async function openReview(): Promise<ReviewHarness> {
  const h = await open({ TABLEMILL_RATE_LIMITS: '0' });
  const workers = await startWorkers({ config: { ...h.config, worker: { ...h.config.worker, concurrency: 1 } }, store: h.store, blobs: h.store.blobs });
  return {
    ...h,
    workers,
    keyOf: async (account) => (await createKey(h.store, account, Date.now())).key,
    async close() {
      await workers.stop(1000);
      await h.close();
    },
  };
}

export async function call(h: Harness, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(h.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** Uploads the files into `batch`, processes it (with `body`) and waits until it is all done; the documents' ids by filename. */
export async function processFiles(h: Harness, key: string, batch: string, files: { name: string; bytes: Uint8Array }[], body?: unknown): Promise<Map<string, string>> {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([f.bytes]), f.name);
  const up = await fetch(`${h.url}/v1/batches/${batch}/documents`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  expect(up.status).toBe(201);
  const ids = new Map<string, string>(((await up.json()) as any).documents.map((d: any) => [d.filename, d.id]));
  expect((await call(h, key, 'POST', `/v1/batches/${batch}/process`, body)).status).toBe(202);
  for (let i = 0; i < 240; i++) {
    const b = await call(h, key, 'GET', `/v1/batches/${batch}?wait=5`);
    if (b.json.all_done) return ids;
  }
  throw new Error(`batch ${batch} did not finish`);
}

/**
 * A succeeded document whose result and page words the test gives: uploaded and processed over
 * HTTP (with `custom_fields` as the run's), then claimed and completed through the store the way a
 * worker completes one, without running the engine. Its id.
 */
export async function storedDocument(h: Harness, batch: string, opts: { customFields?: { name: string; labels: string[] }[]; result: unknown; words: StoredPage[] }): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PDF]), `${batch}.pdf`);
  const up = await fetch(`${h.url}/v1/batches/${batch}/documents`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: form });
  expect(up.status).toBe(201);
  const id = ((await up.json()) as any).documents[0].id as string;
  expect((await call(h, h.key, 'POST', `/v1/batches/${batch}/process`, opts.customFields ? { custom_fields: opts.customFields } : undefined)).status).toBe(202);
  const [claimed] = await h.store.claimDocuments(1, 30_000, Date.now());
  expect(claimed?.id).toBe(id);
  await h.store.completeDocument(id, claimed!.attempt, { status: 'succeeded', page_count: 1, result_json: JSON.stringify(opts.result) }, Date.now());
  await h.store.review.putWords(id, JSON.stringify(opts.words));
  return id;
}

/** An engine result with no fields read and `tables`. */
export function emptyResult(tables: unknown[] = [], customNames: string[] = []): Record<string, unknown> {
  return {
    page_count: 1,
    document_type: 'invoice',
    fields: Object.fromEntries(FIELD_NAMES.map((n) => [n, null])),
    key_value_pairs: [],
    tables,
    line_items: [],
    totals: null,
    custom_fields: Object.fromEntries(customNames.map((n) => [n, null])),
  };
}

/** A table of `rows` × `cols` one-line cells (`r<row>c<col>`). */
export function gridTable(rows: number, cols: number): Record<string, unknown> {
  const cells = [];
  for (let row = 0; row < rows; row++) for (let col = 0; col < cols; col++) cells.push({ row, col, row_span: 1, col_span: 1, text: `r${row}c${col}`, bbox: [col * 10, row * 10, col * 10 + 9, row * 10 + 9], confidence: null });
  return { page: 1, pages: [1], bbox: [0, 0, cols * 10, rows * 10], n_rows: rows, n_cols: cols, header_rows: 0, cells };
}

/** A dense page of `lines` lines of invoice-like words (labels, numbers, amounts, dates), 20 a line. */
export function densePage(lines: number): StoredPage {
  const words: StoredPage['words'] = [];
  const vocab = ['Invoice', 'No.', 'Total', 'Date', 'Amount', 'Item', 'Qty', 'Description', 'Widget', 'Service', 'EUR', 'VAT', 'Order', 'Ref'];
  for (let l = 0; l < lines; l++) {
    for (let k = 0; k < 20; k++) {
      const text = k % 5 === 3 ? `${(l * 7 + k) % 1000}.${String((l + k) % 100).padStart(2, '0')}` : k % 7 === 6 ? `${String((l % 28) + 1).padStart(2, '0')}.03.2026` : `${vocab[(l + k) % vocab.length]}${k % 3 === 0 ? l : ''}`;
      words.push([text, 20 + k * 28, 20 + l * 12, 20 + k * 28 + 24, 20 + l * 12 + 9]);
    }
  }
  return { page: 1, width: 600, height: 40 + lines * 12, words };
}

/**
 * Polls `GET /healthz` one request after another until stopped; `stop()` answers the longest any
 * request waited (ms) and how many were sent.
 */
export function pollHealthz(url: string): { stop(): Promise<{ maxMs: number; polls: number }> } {
  let running = true;
  let maxMs = 0;
  let polls = 0;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      maxMs = Math.max(maxMs, performance.now() - t0);
      polls++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { maxMs: Math.round(maxMs), polls };
    },
  };
}

/**
 * Sends `bodies` one after another as `method path` from a thread of their own, so the client's
 * work (a 3 MB answer read) never runs on the event loop of the server under test; each answer's
 * status and, for an error, its envelope's `error`. Sends when `go()` is called.
 */
export async function clientThread(h: Harness, method: string, path: string, bodies: string[]): Promise<{ go(): Promise<{ status: number; error: any }[]>; }> {
  const code = `const { parentPort, workerData: w } = require('node:worker_threads');
parentPort.once('message', async () => {
  const out = [];
  for (const body of w.bodies) {
    const res = await fetch(w.url, { method: w.method, headers: { authorization: 'Bearer ' + w.key, 'content-type': 'application/json' }, body });
    const text = await res.text();
    out.push({ status: res.status, error: res.status >= 400 ? JSON.parse(text).error : null });
  }
  parentPort.postMessage(out);
});
parentPort.postMessage('ready');`;
  const worker = new Worker(code, { eval: true, workerData: { url: h.url + path, method, key: h.key, bodies } });
  await new Promise((resolve) => worker.once('message', resolve));
  return {
    go: async () => {
      const done = new Promise<{ status: number; error: any }[]>((resolve) => worker.once('message', resolve));
      worker.postMessage('go');
      const out = await done;
      await worker.terminate();
      return out;
    },
  };
}

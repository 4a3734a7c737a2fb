/**
 * The TypeScript SDK of the v1 API (`tablemill/client`): upload from paths, bytes, Blobs and
 * streams; process; status and `waitUntilDone` (long-poll, never trips the rate limit); results
 * in every format; webhooks (set, deliveries, redeliver) and `verifyWebhook`; typed errors that
 * carry the request id. Uses the platform's fetch, FormData and Blob (Node ≥ 20).
 */
import type { Batch, BatchList, BatchResults, Document, DocumentResult, LineItem, ProcessResponse, UploadResponse } from '../contract/schemas.js';
import type { BatchCompletedEvent, Delivery, Webhook } from '../contract/webhooks.js';
import { apiError } from './errors.js';
import { uploadForm, type UploadSource } from './files.js';
import { waitForBatch, type WaitOptions } from './wait.js';

export type { Batch, BatchCompletedEvent, BatchList, BatchResults, Delivery, Document, DocumentResult, ProcessResponse, UploadResponse, Webhook };
export type { LineItem, Table, Totals } from '../contract/schemas.js';
/** The view names of the server's row mappers, for the same shapes. */
export type { Batch as BatchView, Document as DocumentView, DocumentResult as DocumentResultView };
export { TablemillApiError, TablemillTimeoutError } from './errors.js';
export { verifyWebhook, WebhookVerificationError } from './verify.js';
export type { UploadSource } from './files.js';
export type { WaitOptions } from './wait.js';

/** `{filename, data}`: the in-memory form of an upload source. */
export type UploadFile = Extract<UploadSource, { data: unknown }>;
/** One page of `GET /v1/batches/{name}/results`. */
export type BatchResultsPage = BatchResults;
/** The export formats of the results route (API.md §4a); `json` is the paginated default. */
export type ExportFormat = 'csv' | 'xlsx' | 'ndjson' | 'zip';

/** A field to find by its labels, per processing run (API.md §4b). */
export interface CustomField {
  name: string;
  labels: string[];
  type?: 'text' | 'number' | 'date' | 'amount';
}

/** The body of `PUT /v1/documents/{id}/corrections`: custom fields under `fields.custom`. */
export interface Correction {
  fields?: { [name: string]: string | number | null | undefined | Record<string, string | number | null>; custom?: Record<string, string | number | null> };
  line_items?: LineItem[] | null;
  tables?: { index: number; cells: { row: number; col: number; text: string }[] }[] | null;
}

/** A vendor memory as listed by `GET /v1/vendors`. */
export interface Vendor {
  id: string;
  name: string;
  fields: string[];
  identifiers: string[];
  size_bytes: number;
  created_at: string;
  updated_at: string;
}

export interface RequestOptions {
  /** Sent as `Idempotency-Key` (uploads and process calls): a retry replays the first answer. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const batchPath = (name: string) => `/v1/batches/${encodeURIComponent(name)}`;

/** A client bound to one server and one API key. */
export class TablemillClient {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** The raw response of any request; non-2xx answers throw `TablemillApiError`. */
  async fetch(method: string, path: string, init: { body?: FormData | object; headers?: Record<string, string>; signal?: AbortSignal; ok?: number[] } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, ...init.headers };
    let body: FormData | string | undefined;
    if (init.body instanceof FormData) body = init.body;
    else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    const res = await fetch(`${this.base}${path}`, { method, headers, body, signal: init.signal });
    if (!res.ok && !init.ok?.includes(res.status)) throw await apiError(res);
    return res;
  }

  /** Any request; JSON answers are parsed, errors thrown as `TablemillApiError`. */
  async request<T>(method: string, path: string, body?: FormData | object, opts: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {};
    const res = await this.fetch(method, path, { body, headers, signal: opts.signal });
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Uploads files into a batch (created if needed); does not start processing. */
  async upload(batchName: string, files: UploadSource[], opts: RequestOptions = {}): Promise<UploadResponse> {
    return this.request('POST', `${batchPath(batchName)}/documents`, await uploadForm(files), opts);
  }

  /** Submits every not-yet-submitted document of the batch; `custom_fields` are found besides the built-in fields. */
  process(batchName: string, opts: RequestOptions & { custom_fields?: CustomField[] } = {}): Promise<ProcessResponse> {
    const { custom_fields, ...rest } = opts;
    return this.request('POST', `${batchPath(batchName)}/process`, custom_fields ? { custom_fields } : undefined, rest);
  }

  /** Corrects a succeeded document's results (merged over earlier corrections); answers the corrected result. */
  correct(id: string, correction: Correction): Promise<DocumentResult> {
    return this.request('PUT', `/v1/documents/${encodeURIComponent(id)}/corrections`, correction);
  }

  /** Removes a document's corrections. */
  async deleteCorrections(id: string): Promise<void> {
    await this.request('DELETE', `/v1/documents/${encodeURIComponent(id)}/corrections`);
  }

  /** What the engine read, without corrections. */
  extractedResults(id: string): Promise<DocumentResult> {
    return this.request('GET', `/v1/documents/${encodeURIComponent(id)}/results?view=extracted`);
  }

  /** What the account's corrections taught about each vendor. */
  async vendors(): Promise<Vendor[]> {
    return (await this.request<{ vendors: Vendor[] }>('GET', '/v1/vendors')).vendors;
  }

  /** Forgets a vendor's memory. */
  async forgetVendor(id: string): Promise<void> {
    await this.request('DELETE', `/v1/vendors/${encodeURIComponent(id)}`);
  }

  getBatch(batchName: string): Promise<Batch> {
    return this.request('GET', batchPath(batchName));
  }

  listBatches(opts: { limit?: number; cursor?: string } = {}): Promise<BatchList> {
    return this.request('GET', `/v1/batches${query(opts)}`);
  }

  deleteBatch(batchName: string): Promise<Batch> {
    return this.request('DELETE', batchPath(batchName));
  }

  getDocument(id: string): Promise<Document> {
    return this.request('GET', `/v1/documents/${encodeURIComponent(id)}`);
  }

  documentResults(id: string): Promise<DocumentResult> {
    return this.request('GET', `/v1/documents/${encodeURIComponent(id)}/results`);
  }

  deleteDocument(id: string): Promise<Document | undefined> {
    return this.request('DELETE', `/v1/documents/${encodeURIComponent(id)}`);
  }

  /** The original bytes of a document. */
  async documentFile(id: string): Promise<{ bytes: Buffer; contentType: string | null; disposition: string | null }> {
    const res = await this.fetch('GET', `/v1/documents/${encodeURIComponent(id)}/file`);
    return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type'), disposition: res.headers.get('content-disposition') };
  }

  /** One page of a batch's results. */
  resultsPage(batchName: string, opts: { limit?: number; cursor?: string } = {}): Promise<BatchResultsPage> {
    return this.request('GET', `${batchPath(batchName)}/results${query(opts)}`);
  }

  /** Every document result of the batch, following `next_cursor`. */
  async results(batchName: string, pageSize = 100): Promise<DocumentResult[]> {
    const out: DocumentResult[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.resultsPage(batchName, { limit: pageSize, cursor });
      out.push(...page.documents);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return out;
  }

  /** The whole batch exported as `csv`, `xlsx`, `ndjson` or `zip` (API.md §4a), as bytes. */
  async export(batchName: string, format: ExportFormat): Promise<Buffer> {
    const res = await this.fetch('GET', `${batchPath(batchName)}/results?format=${format}`);
    return Buffer.from(await res.arrayBuffer());
  }

  /** One conditional long-poll of the batch status: `batch` is null when unchanged (304). */
  async pollBatch(batchName: string, etag: string | null, waitS: number, signal?: AbortSignal): Promise<{ batch: Batch | null; etag: string | null }> {
    const res = await this.fetch('GET', `${batchPath(batchName)}${waitS > 0 ? `?wait=${waitS}` : ''}`, { headers: etag ? { 'if-none-match': etag } : {}, signal, ok: [304] });
    if (res.status === 304) return { batch: null, etag };
    return { batch: (await res.json()) as Batch, etag: res.headers.get('etag') };
  }

  /**
   * Resolves once the batch is `all_done`, long-polling (see wait.ts): at most one request a
   * second, 429s wait their Retry-After, transient failures back off.
   */
  waitUntilDone(batchName: string, opts: WaitOptions = {}): Promise<Batch> {
    return waitForBatch((etag, waitS, signal) => this.pollBatch(batchName, etag, waitS, signal), batchName, opts);
  }

  /** Registers or replaces the batch's webhook; the answer shows the secret once. */
  setWebhook(batchName: string, hook: { url: string; secret?: string }): Promise<Webhook> {
    return this.request('PUT', `${batchPath(batchName)}/webhook`, hook);
  }

  getWebhook(batchName: string): Promise<Webhook> {
    return this.request('GET', `${batchPath(batchName)}/webhook`);
  }

  async deleteWebhook(batchName: string): Promise<void> {
    await this.request('DELETE', `${batchPath(batchName)}/webhook`);
  }

  /** Delivery attempts, newest first. */
  async webhookDeliveries(batchName: string, opts: { limit?: number } = {}): Promise<Delivery[]> {
    return (await this.request<{ deliveries: Delivery[] }>('GET', `${batchPath(batchName)}/webhook/deliveries${query(opts)}`)).deliveries;
  }

  /** Sends that delivery's event again now (same event id). */
  redeliver(batchName: string, deliveryId: string): Promise<Delivery> {
    return this.request('POST', `${batchPath(batchName)}/webhook/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
  }
}

function query(opts: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(opts)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

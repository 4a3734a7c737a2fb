/**
 * The client of the v1 API for any runtime with fetch, FormData and Blob (browsers, Node ≥ 20,
 * Deno, workers): `@tablemill/client/core`. Upload from bytes, Blobs and web streams; process;
 * status and `waitUntilDone` (long-poll, never trips the rate limit); results in every format;
 * page images; webhooks; typed errors that carry the request id. The Node entry
 * (`@tablemill/client`, index.ts) adds uploads from paths and Node streams and `verifyWebhook`.
 */
import { apiError } from './errors.js';
import type { Batch, BatchList, BatchResults, Delivery, Document, DocumentResult, LineItem, ProcessResponse, UploadResponse, Webhook } from './types.js';
import { waitForBatch, type WaitOptions } from './wait.js';

export type * from './types.js';
export { TablemillApiError, TablemillTimeoutError, apiError } from './errors.js';
export type { WaitOptions } from './wait.js';

/** What `upload` accepts here: bytes, a Blob or a web stream, each with a filename. */
export type UploadSource =
  | { filename: string; data: Uint8Array | Blob; contentType?: string }
  | { filename: string; stream: ReadableStream<Uint8Array>; contentType?: string };

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

/** The words read on one page, with their boxes in the units of the result boxes (`GET /v1/documents/{id}/words`). */
export interface PageWords {
  page: number;
  width: number;
  height: number;
  words: { text: string; bbox: [number, number, number, number] }[];
}

export interface RequestOptions {
  /** Sent as `Idempotency-Key` (uploads and process calls): a retry replays the first answer. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** The fetch to use (default: the global one at call time), e.g. one that adds `cache: 'no-store'`. */
  fetch?: typeof fetch;
}

/** A page rendered by the server for viewers, with its size in the units of the result boxes. */
export interface PageImage {
  png: Blob;
  /** The page's width and height in the units of every `bbox` of the results. */
  pageWidth: number;
  pageHeight: number;
  pageCount: number;
}

const batchPath = (name: string) => `/v1/batches/${encodeURIComponent(name)}`;
const documentPath = (id: string) => `/v1/documents/${encodeURIComponent(id)}`;

/** A client bound to one server and one API key. */
export class TablemillClient {
  protected readonly base: string;
  private readonly fetchImpl: typeof fetch;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    options: ClientOptions = {},
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
    // Looked up at call time, so a fetch replaced after construction (tests, polyfills) is used.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The raw response of any request; non-2xx answers (other than those in `ok`) throw `TablemillApiError`. */
  async fetch(method: string, path: string, init: { body?: FormData | object; headers?: Record<string, string>; signal?: AbortSignal; ok?: number[] } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, ...init.headers };
    let body: FormData | string | undefined;
    if (init.body instanceof FormData) body = init.body;
    else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    const res = await this.fetchImpl(`${this.base}${path}`, { method, headers, body, signal: init.signal });
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
    const form = new FormData();
    for (const src of files) {
      const type = src.contentType ?? 'application/octet-stream';
      const blob = 'stream' in src ? new Blob([await new Response(src.stream).arrayBuffer()], { type }) : src.data instanceof Blob ? src.data : new Blob([src.data], { type });
      form.append('file', blob, src.filename);
    }
    return this.uploadForm(batchName, form, opts);
  }

  /** Sends a ready multipart body (parts named `file`, API.md §3) to the upload route. */
  uploadForm(batchName: string, form: FormData, opts: RequestOptions = {}): Promise<UploadResponse> {
    return this.request('POST', `${batchPath(batchName)}/documents`, form, opts);
  }

  /**
   * Submits every not-yet-submitted document of the batch; `custom_fields` are found besides the
   * built-in fields; `embedded: "ignore"` reads pages alone, not what documents carry.
   */
  process(batchName: string, opts: RequestOptions & { custom_fields?: CustomField[]; embedded?: 'use' | 'ignore' } = {}): Promise<ProcessResponse> {
    const { custom_fields, embedded, ...rest } = opts;
    const body = { ...(custom_fields ? { custom_fields } : {}), ...(embedded ? { embedded } : {}) };
    return this.request('POST', `${batchPath(batchName)}/process`, Object.keys(body).length ? body : undefined, rest);
  }

  /** Corrects a succeeded document's results (merged over earlier corrections); answers the corrected result. */
  correct(id: string, correction: Correction): Promise<DocumentResult> {
    return this.request('PUT', `${documentPath(id)}/corrections`, correction);
  }

  /** Removes a document's corrections. */
  async deleteCorrections(id: string): Promise<void> {
    await this.request('DELETE', `${documentPath(id)}/corrections`);
  }

  /** What the engine read, without corrections. */
  extractedResults(id: string): Promise<DocumentResult> {
    return this.request('GET', `${documentPath(id)}/results?view=extracted`);
  }

  /** The words read on a succeeded document's first and last pages, for picking values off the page. */
  async pageWords(id: string): Promise<PageWords[]> {
    return (await this.request<{ pages: PageWords[] }>('GET', `${documentPath(id)}/words`)).pages;
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
    return this.request('GET', documentPath(id));
  }

  documentResults(id: string): Promise<DocumentResult> {
    return this.request('GET', `${documentPath(id)}/results`);
  }

  deleteDocument(id: string): Promise<Document | undefined> {
    return this.request('DELETE', documentPath(id));
  }

  /** The original bytes of a document. */
  async documentFile(id: string): Promise<{ bytes: Uint8Array; contentType: string | null; disposition: string | null }> {
    const res = await this.fetch('GET', `${documentPath(id)}/file`);
    return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type'), disposition: res.headers.get('content-disposition') };
  }

  /** Page `page` (1-based) of a document as a PNG `width` pixels wide (64–2400; server default 1200). */
  async pageImage(id: string, page: number, opts: { width?: number; signal?: AbortSignal } = {}): Promise<PageImage> {
    const res = await this.fetch('GET', `${documentPath(id)}/pages/${page}.png${query({ width: opts.width })}`, { signal: opts.signal });
    const n = (h: string) => Number(res.headers.get(h));
    return { png: await res.blob(), pageWidth: n('x-page-width'), pageHeight: n('x-page-height'), pageCount: n('x-page-count') };
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

  /** The whole batch exported as `csv`, `xlsx`, `ndjson` or `zip` (API.md §4a), as a response to read or stream. */
  exportResponse(batchName: string, format: ExportFormat): Promise<Response> {
    return this.fetch('GET', `${batchPath(batchName)}/results?format=${format}`);
  }

  /** The whole batch exported as `csv`, `xlsx`, `ndjson` or `zip` (API.md §4a), as bytes. */
  async export(batchName: string, format: ExportFormat): Promise<Uint8Array> {
    return new Uint8Array(await (await this.exportResponse(batchName, format)).arrayBuffer());
  }

  /**
   * One conditional long-poll of a status resource (`/v1/batches/NAME` or `/v1/documents/ID`):
   * `body` is null when unchanged (304) after up to `waitS` seconds.
   */
  async poll<T>(path: string, etag: string | null, waitS: number, signal?: AbortSignal): Promise<{ body: T | null; etag: string | null }> {
    const res = await this.fetch('GET', `${path}${waitS > 0 ? `?wait=${waitS}` : ''}`, { headers: etag ? { 'if-none-match': etag } : {}, signal, ok: [304] });
    if (res.status === 304) return { body: null, etag };
    return { body: (await res.json()) as T, etag: res.headers.get('etag') };
  }

  /** One conditional long-poll of the batch status: `batch` is null when unchanged (304). */
  async pollBatch(batchName: string, etag: string | null, waitS: number, signal?: AbortSignal): Promise<{ batch: Batch | null; etag: string | null }> {
    const r = await this.poll<Batch>(batchPath(batchName), etag, waitS, signal);
    return { batch: r.body, etag: r.etag };
  }

  /** One conditional long-poll of a document's status: `document` is null when unchanged (304). */
  async pollDocument(id: string, etag: string | null, waitS: number, signal?: AbortSignal): Promise<{ document: Document | null; etag: string | null }> {
    const r = await this.poll<Document>(documentPath(id), etag, waitS, signal);
    return { document: r.body, etag: r.etag };
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

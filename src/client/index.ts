/**
 * The TypeScript SDK of the v1 API: upload, process, status, wait, results. Uses the platform's
 * fetch, FormData and Blob (Node ≥ 20), so the same code runs in the CLI, tests and browsers.
 */
import type { Batch, BatchList, BatchResults, Document, DocumentResult, ProcessResponse, UploadResponse } from '../contract/schemas.js';

export type { Batch, BatchList, BatchResults, Document, DocumentResult, ProcessResponse, UploadResponse };
/** The view names of the server's row mappers, for the same shapes. */
export type { Batch as BatchView, Document as DocumentView, DocumentResult as DocumentResultView };

/** A non-2xx answer, with the API's error envelope. */
export class TablemillApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details?: Record<string, unknown>,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'TablemillApiError';
  }
}

export interface UploadFile {
  filename: string;
  data: Uint8Array | Blob;
  /** The declared type; the server ignores it and sniffs the bytes. */
  contentType?: string;
}

/** One page of `GET /v1/batches/{name}/results`. */
export type BatchResultsPage = BatchResults;

/** A client bound to one server and one API key. */
export class TablemillClient {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** Any request; JSON answers are parsed, errors thrown as `TablemillApiError`. */
  async request<T>(method: string, path: string, body?: FormData | object): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    let payload: FormData | string | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.base}${path}`, { method, headers, body: payload });
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const e = json?.error ?? {};
      throw new TablemillApiError(res.status, e.code ?? 'unknown', e.message ?? text, e.request_id ?? res.headers.get('x-request-id'), e.details);
    }
    return json as T;
  }

  /** Uploads files into a batch (created if needed); does not start processing. */
  async upload(batchName: string, files: UploadFile[]): Promise<UploadResponse> {
    const form = new FormData();
    for (const f of files) {
      const blob = f.data instanceof Blob ? f.data : new Blob([f.data], { type: f.contentType ?? 'application/octet-stream' });
      form.append('file', blob, f.filename);
    }
    return this.request('POST', `/v1/batches/${encodeURIComponent(batchName)}/documents`, form);
  }

  /** Submits every not-yet-submitted document of the batch. */
  process(batchName: string): Promise<ProcessResponse> {
    return this.request('POST', `/v1/batches/${encodeURIComponent(batchName)}/process`);
  }

  getBatch(batchName: string): Promise<Batch> {
    return this.request('GET', `/v1/batches/${encodeURIComponent(batchName)}`);
  }

  listBatches(opts: { limit?: number; cursor?: string } = {}): Promise<BatchList> {
    return this.request('GET', `/v1/batches${query(opts)}`);
  }

  deleteBatch(batchName: string): Promise<Batch> {
    return this.request('DELETE', `/v1/batches/${encodeURIComponent(batchName)}`);
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
    const res = await fetch(`${this.base}/v1/documents/${encodeURIComponent(id)}/file`, { headers: { authorization: `Bearer ${this.apiKey}` } });
    if (!res.ok) {
      const e = ((await res.json()) as { error?: { code?: string; message?: string; request_id?: string } }).error ?? {};
      throw new TablemillApiError(res.status, e.code ?? 'unknown', e.message ?? '', e.request_id ?? null);
    }
    return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type'), disposition: res.headers.get('content-disposition') };
  }

  /** One page of a batch's results. */
  resultsPage(batchName: string, opts: { limit?: number; cursor?: string } = {}): Promise<BatchResultsPage> {
    return this.request('GET', `/v1/batches/${encodeURIComponent(batchName)}/results${query(opts)}`);
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

  /** Polls the status endpoint until `all_done` (or throws after `timeoutMs`). */
  async waitUntilDone(batchName: string, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<Batch> {
    const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
    const interval = opts.intervalMs ?? 250;
    for (;;) {
      const batch = await this.getBatch(batchName);
      if (batch.all_done) return batch;
      if (Date.now() > deadline) throw new Error(`batch ${batchName} not done after ${opts.timeoutMs ?? 120_000} ms: ${JSON.stringify(batch.counts)}`);
      await new Promise((r) => setTimeout(r, interval));
    }
  }
}

function query(opts: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(opts)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

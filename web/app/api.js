// The app's calls to the API: JSON requests, long-poll with ETags, uploads with progress,
// downloads and page images. Errors are the SDK's `TablemillApiError`, read from the envelope.
import { TablemillApiError, apiError } from 'tablemill/client/errors';

const enc = encodeURIComponent;
const batchPath = (name) => `/v1/batches/${enc(name)}`;

/** The API of this server, with one key. */
export class AppApi {
  constructor(key) {
    this.key = key;
  }

  /** A JSON request; non-2xx answers throw `TablemillApiError`. */
  async request(method, path, body) {
    const headers = this.auth(body ? { 'content-type': 'application/json' } : {});
    const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined, cache: 'no-store' });
    if (!res.ok) throw await apiError(res);
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  }

  listBatches({ limit, cursor } = {}) {
    const q = new URLSearchParams({ limit: String(limit ?? 50), ...(cursor ? { cursor } : {}) });
    return this.request('GET', `/v1/batches?${q}`);
  }

  resultsPage(name, { limit, cursor } = {}) {
    const q = new URLSearchParams({ limit: String(limit ?? 100), ...(cursor ? { cursor } : {}) });
    return this.request('GET', `${batchPath(name)}/results?${q}`);
  }

  process(name) {
    return this.request('POST', `${batchPath(name)}/process`);
  }

  deleteBatch(name) {
    return this.request('DELETE', batchPath(name));
  }

  documentResults(id) {
    return this.request('GET', `/v1/documents/${enc(id)}/results`);
  }

  deleteDocument(id) {
    return this.request('DELETE', `/v1/documents/${enc(id)}`);
  }

  auth(extra = {}) {
    return { authorization: `Bearer ${this.key}`, ...extra };
  }

  /**
   * Long-polls a status endpoint (`/v1/batches/NAME` or `/v1/documents/ID`): answers at once when
   * the resource differs from `etag`, else when it changes or after `wait` seconds (then
   * `changed` is false).
   */
  async watch(path, etag, wait, signal) {
    const headers = this.auth(etag ? { 'if-none-match': etag } : {});
    const res = await fetch(`${path}?wait=${wait}`, { headers, signal, cache: 'no-store' });
    if (res.status === 304) return { changed: false, etag };
    if (!res.ok) throw await apiError(res);
    return { changed: true, etag: res.headers.get('etag'), body: await res.json() };
  }

  /** Uploads one file, calling `onProgress(fraction)` as its bytes go out. */
  uploadOne(name, file, onProgress) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${batchPath(name)}/documents`);
      xhr.setRequestHeader('authorization', `Bearer ${this.key}`);
      xhr.responseType = 'json';
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => {
        const body = xhr.response ?? {};
        if (xhr.status === 201) return resolve(body);
        const e = body.error ?? {};
        reject(new TablemillApiError(xhr.status, e.code ?? 'unknown', e.message ?? `upload failed (${xhr.status})`, e.request_id ?? xhr.getResponseHeader('x-request-id'), e.details));
      };
      xhr.onerror = () => reject(new Error('the upload could not reach the server'));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  }

  /** Fetches `path` and saves it as `filename` through the browser's download. */
  async download(path, filename) {
    const res = await fetch(path, { headers: this.auth() });
    if (!res.ok) throw await apiError(res);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  /** Page `n` of a document as an object URL, with the page's size in the units of the result boxes. */
  async pageImage(id, n, width) {
    const res = await fetch(`/v1/documents/${enc(id)}/pages/${n}.png?width=${width}`, { headers: this.auth() });
    if (!res.ok) throw await apiError(res);
    return {
      url: URL.createObjectURL(await res.blob()),
      pageWidth: Number(res.headers.get('x-page-width')),
      pageHeight: Number(res.headers.get('x-page-height')),
      pageCount: Number(res.headers.get('x-page-count')),
    };
  }

  setWebhook(name, url, secret) {
    return this.request('PUT', `${batchPath(name)}/webhook`, secret ? { url, secret } : { url });
  }

  removeWebhook(name) {
    return this.request('DELETE', `${batchPath(name)}/webhook`);
  }
}

/** A short, human message for any error the app shows. */
export function errorText(err) {
  // The SDK's message is `STATUS CODE: message (request ID)`; people need the message and the id.
  if (err instanceof TablemillApiError) return err.message.replace(/^\d+ \w+: /, '');
  return err?.message ?? String(err);
}

/** The formats `GET …/results?format=` serves (API.md §4a), with their file extensions. */
export const FORMATS = [
  { format: 'xlsx', label: 'Excel (XLSX)' },
  { format: 'csv', label: 'CSV (line items)' },
  { format: 'zip', label: 'ZIP (a CSV per table)' },
  { format: 'json', label: 'JSON' },
  { format: 'ndjson', label: 'NDJSON' },
];

// What the app asks of the server beyond the SDK's JSON calls: long-poll with ETags, uploads with
// progress, downloads and page images (both need the key in a header, so they go through fetch).
import { TablemillApiError, TablemillClient } from 'tablemill/client';

const enc = encodeURIComponent;

/** The error of a non-2xx answer, from the API's error envelope. */
async function apiError(res) {
  let e = {};
  try {
    e = (await res.json()).error ?? {};
  } catch {
    // not JSON: the status says enough
  }
  return new TablemillApiError(res.status, e.code ?? 'unknown', e.message ?? res.statusText, e.request_id ?? res.headers.get('x-request-id'), e.details);
}

/** The SDK client of this server, plus the app's own calls. */
export class AppApi extends TablemillClient {
  constructor(key) {
    super('', key);
    this.key = key;
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
      xhr.open('POST', `/v1/batches/${enc(name)}/documents`);
      xhr.setRequestHeader('authorization', `Bearer ${this.key}`);
      xhr.responseType = 'json';
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => {
        const body = xhr.response ?? {};
        if (xhr.status === 201) return resolve(body);
        const e = body.error ?? {};
        reject(new TablemillApiError(xhr.status, e.code ?? 'unknown', e.message ?? `upload failed (${xhr.status})`, e.request_id ?? null, e.details));
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
    return this.request('PUT', `/v1/batches/${enc(name)}/webhook`, secret ? { url, secret } : { url });
  }

  removeWebhook(name) {
    return this.request('DELETE', `/v1/batches/${enc(name)}/webhook`);
  }
}

/** A short, human message for any error the app shows. */
export function errorText(err) {
  if (err instanceof TablemillApiError) return err.message.replace(/^\d+ \w+: /, '') + (err.requestId ? ` (request ${err.requestId})` : '');
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

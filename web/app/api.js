// The app's calls to the API: the SDK's browser entry (`@tablemill/client/core`, served from the
// built package), plus what only a page needs: uploads with progress (XMLHttpRequest: fetch
// reports no upload progress), saving a download and page images as object URLs.
import { TablemillApiError, TablemillClient } from '@tablemill/client/core';

const batchPath = (name) => `/v1/batches/${encodeURIComponent(name)}`;

// The browser's HTTP cache must not answer a status or results read with an older copy.
const noStore = (input, init) => fetch(input, { ...init, cache: 'no-store' });

/** The API of this server, with one key. */
export class AppApi extends TablemillClient {
  constructor(key) {
    super(location.origin, key, { fetch: noStore });
    this.key = key;
  }

  /**
   * Long-polls a status endpoint (`/v1/batches/NAME` or `/v1/documents/ID`): answers at once when
   * the resource differs from `etag`, else when it changes or after `wait` seconds (then
   * `changed` is false).
   */
  async watch(path, etag, wait, signal) {
    const r = await this.poll(path, etag, wait, signal);
    return r.body === null ? { changed: false, etag } : { changed: true, etag: r.etag, body: r.body };
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
    const res = await this.fetch('GET', path);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  /** Page `n` of a document as an object URL (revoke it when done), with the page's size in the units of the result boxes. */
  async pageUrl(id, n, width) {
    const img = await this.pageImage(id, n, { width });
    return { url: URL.createObjectURL(img.png), pageWidth: img.pageWidth, pageHeight: img.pageHeight, pageCount: img.pageCount };
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

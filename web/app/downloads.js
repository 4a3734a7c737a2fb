// Download buttons: a batch's or a document's results in every format of API.md §4a.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { FORMATS, errorText } from './api.js';

/** `path` is the results route (`/v1/batches/NAME/results` or `/v1/documents/ID/results`); `base` names the files. */
export function Downloads({ api, path, base, formats = FORMATS }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(null);
  const get = async (format) => {
    setBusy(format);
    setError(null);
    try {
      await api.download(`${path}?format=${format}`, `${base}.${format}`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };
  return html`
    <div class="downloads" role="group" aria-label="Download results">
      ${formats.map((f) => html`
        <button type="button" class="secondary" data-test=${`download-${f.format}`} disabled=${busy === f.format}
          onClick=${() => get(f.format)}>${busy === f.format ? 'Preparing…' : f.label}</button>`)}
      ${error && html`<p class="error" role="alert">${error}</p>`}
    </div>`;
}

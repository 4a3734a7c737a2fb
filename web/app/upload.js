// Upload: a batch name, files by drop or by the file picker, a progress bar per file.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { errorText } from './api.js';

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const ACCEPT = '.pdf,.png,.jpg,.jpeg,.tif,.tiff,.webp,.xml,application/pdf,image/png,image/jpeg,image/tiff,image/webp,application/xml,text/xml';

function fileSize(n) {
  return n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Uploads into the batch typed in (or `batchName`, when the view is one batch's); calls
 * `onUploaded(name, complete)` once every file has been tried and one at least was stored
 * (`complete`: none was refused). Refused files are named here, each with the server's reason.
 */
export function UploadPanel({ api, batchName, batchNames = [], onUploaded }) {
  const [name, setName] = useState(batchName ?? '');
  const [items, setItems] = useState([]);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState(null);
  const nameOk = NAME_RE.test(name);

  const addFiles = (list) => {
    const added = [...list].map((file) => ({ file, progress: 0, state: 'ready', error: null }));
    setItems((prev) => [...prev.filter((i) => i.state !== 'done'), ...added]);
  };
  const update = (file, patch) => setItems((prev) => prev.map((i) => (i.file === file ? { ...i, ...patch } : i)));

  const upload = async (e) => {
    e.preventDefault();
    if (!nameOk || busy) return;
    setBusy(true);
    setOutcome(null);
    const todo = items.filter((i) => i.state === 'ready' || i.state === 'failed');
    let stored = 0;
    const refused = [];
    // One request per file, one after another: each gets its own progress bar and its own answer,
    // and a file the server refuses (an upload request is all or nothing) holds back no other.
    for (const item of todo) {
      update(item.file, { state: 'uploading', progress: 0, error: null });
      try {
        await api.uploadOne(name, item.file, (p) => update(item.file, { progress: p }));
        update(item.file, { state: 'done', progress: 1 });
        stored++;
      } catch (err) {
        update(item.file, { state: 'failed', error: errorText(err) });
        refused.push({ file: item.file.name, reason: errorText(err) });
      }
    }
    setBusy(false);
    if (refused.length) setOutcome({ name, stored, refused });
    if (stored > 0) onUploaded?.(name, refused.length === 0);
  };

  const onDrop = (e) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer?.files?.length) addFiles(e.dataTransfer.files);
  };
  const pending = items.filter((i) => i.state === 'ready' || i.state === 'failed').length;

  // The file input is visually hidden but focusable; the drop zone after it is its label, outlined while it has focus.
  return html`
    <form class="card upload" onSubmit=${upload} aria-labelledby="upload-title">
      <h2 id="upload-title">Upload files</h2>
      <label for="batch-name">Batch name</label>
      <input id="batch-name" data-test="batch-name" list="batch-names" required maxlength="128" autocomplete="off"
        value=${name} readonly=${batchName !== undefined} aria-describedby="batch-name-help"
        aria-invalid=${name !== '' && !nameOk} onInput=${(e) => setName(e.currentTarget.value)} />
      <p id="batch-name-help" class="help">A new name creates a batch; an existing one adds to it. Letters, digits, <code>.</code>, <code>_</code> and <code>-</code>, up to 128.</p>
      <datalist id="batch-names">${batchNames.map((n) => html`<option value=${n} />`)}</datalist>
      <input id="file-input" data-test="file-input" class="file" type="file" multiple accept=${ACCEPT}
        onChange=${(e) => (addFiles(e.currentTarget.files), (e.currentTarget.value = ''))} />
      <label for="file-input" class=${`drop${dragging ? ' over' : ''}`} data-test="drop-zone"
        onDragOver=${(e) => (e.preventDefault(), setDragging(true))} onDragLeave=${() => setDragging(false)} onDrop=${onDrop}>
        <span class="drop-title">Drop PDFs and images here</span>
        <span class="help">or choose files (PDF, PNG, JPEG, TIFF, WebP, or an e-invoice's XML)</span>
      </label>
      ${items.length > 0 && html`
        <ul class="files" aria-label="Files to upload">
          ${items.map((i) => html`
            <li data-test="upload-file" data-state=${i.state}>
              <span class="fname">${i.file.name}</span> <span class="help">${fileSize(i.file.size)}</span>
              <progress max="1" value=${i.progress} aria-label=${`Upload of ${i.file.name}`}></progress>
              <span class="fstate">${i.state === 'done' ? 'uploaded' : i.state === 'uploading' ? `${Math.round(i.progress * 100)} %` : i.state === 'failed' ? 'failed' : 'ready'}</span>
              ${i.error && html`<p class="error" role="alert">${i.error}</p>`}
            </li>`)}
        </ul>`}
      ${outcome && html`
        <div class="upload-error" role="alert" data-test="upload-error">
          <p><strong>${outcome.refused.length === 1 ? '1 file was' : `${outcome.refused.length} files were`} not uploaded:</strong></p>
          <ul>${outcome.refused.map((r) => html`<li data-test="upload-refused" data-file=${r.file}><span class="fname">${r.file}</span>: ${r.reason}</li>`)}</ul>
          ${outcome.stored > 0 && html`<p>${outcome.stored === 1 ? 'The other file is' : `The other ${outcome.stored} files are`} in batch <a href=${`#/batches/${encodeURIComponent(outcome.name)}`}>${outcome.name}</a>.</p>`}
        </div>`}
      <button type="submit" data-test="upload-button" disabled=${busy || !nameOk || pending === 0}>
        ${busy ? 'Uploading…' : pending > 1 ? `Upload ${pending} files` : 'Upload'}
      </button>
    </form>
  `;
}

// One batch: live status by long-poll, its documents (those that need review first), upload
// more, process, downloads, webhook, delete.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { html, useTitle } from './html.js';
import { errorText } from './api.js';
import { UploadPanel } from './upload.js';
import { ConfirmButton } from './confirm.js';
import { Downloads } from './downloads.js';
import { WebhookForm } from './webhook.js';
import { Counts, StatusBadge, Time } from './status.js';
import { useWatch } from './watch.js';
import { DocSummary, DocTotal } from './doc-summary.js';
import { REVIEW_BELOW, doubtfulFields, loadDocuments, rememberOrder, reviewOrder } from './review.js';

const enc = encodeURIComponent;

/** Whether a person should look at the document: its doubtful fields, or what was corrected. */
function ReviewState({ doc }) {
  if (doc.status !== 'succeeded') return null;
  const doubtful = doubtfulFields(doc);
  if (doubtful.length) {
    return html`<span class="badge needs" data-test="needs-review" title=${`Below ${REVIEW_BELOW * 100} % confidence: ${doubtful.join(', ').replace(/_/g, ' ')}`}>needs review (${doubtful.length})</span>`;
  }
  const corrected = Object.values(doc.fields ?? {}).some((f) => f?.corrected);
  return html`<span class="help" data-test="review-ok">${corrected ? 'corrected' : 'ok'}</span>`;
}

function DocRow({ doc, onDelete }) {
  const err = doc.processing_error;
  return html`
    <tr data-test="doc-row" data-status=${doc.status} data-id=${doc.id}>
      <th scope="row" class="fname">${doc.filename}</th>
      <td><${StatusBadge} status=${doc.status} test="doc-status" /></td>
      <td data-test="doc-type">${doc.document_type?.replace('_', ' ') ?? ''}${doc.page_count ? html` <span class="help">${doc.page_count} p.</span>` : ''}${err && html`<div class="error">${err.code}: ${err.message}</div>`}</td>
      <td><${ReviewState} doc=${doc} /></td>
      <td class="summary-cell"><${DocSummary} doc=${doc} /></td>
      <td class="n"><${DocTotal} doc=${doc} /></td>
      <td class="actions">
        <a class="button secondary" data-test="doc-open" href=${`#/documents/${enc(doc.id)}`} aria-label=${`Open ${doc.filename}`}>Open</a>
        ${doc.status !== 'processing' && html`<${ConfirmButton} label="Delete" name=${`Delete ${doc.filename}`} confirm="Delete" test="doc-delete" onConfirm=${() => onDelete(doc)} />`}
      </td>
    </tr>`;
}

const doubtfulCount = (docs) => docs.filter((d) => doubtfulFields(d).length > 0).length;
const reviewLabel = (n) => (n === 0 ? 'Review the documents' : n === 1 ? 'Review the document that needs it' : `Review the ${n} documents that need it`);

export function BatchView({ api, name }) {
  const [batch, setBatch] = useState(null);
  const [docs, setDocs] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const loading = useRef({ running: false, again: false });
  useTitle(name);

  // Re-reads the documents when the batch changes; changes that arrive meanwhile cause one more read.
  const refresh = useCallback(async () => {
    const l = loading.current;
    if (l.running) return void (l.again = true);
    l.running = true;
    try {
      do {
        l.again = false;
        const ordered = reviewOrder(await loadDocuments(api, name));
        rememberOrder(name, ordered);
        setDocs(ordered);
      } while (l.again);
    } catch (err) {
      if (err.status !== 404) setError(errorText(err));
    } finally {
      l.running = false;
    }
  }, [api, name]);

  const stopWatching = useWatch(api, `/v1/batches/${enc(name)}`, (b) => {
    setBatch(b);
    void refresh();
  }, (err) => setError(err.status === 404 ? `There is no batch named ${name}.` : errorText(err)));

  const act = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const process = () => act(async () => setBatch((await api.process(name)).batch));
  const deleteBatch = () => act(async () => {
    stopWatching();
    await api.deleteBatch(name);
    location.hash = '#/';
  });
  const deleteDoc = (doc) => act(async () => {
    await api.deleteDocument(doc.id);
    await refresh();
  });
  useEffect(() => setError(null), [name]);

  const awaiting = batch?.awaiting_process;
  return html`
    <p class="crumbs"><a href="#/">Batches</a> › <span>${name}</span></p>
    <h1 tabindex="-1">${name}</h1>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${batch && html`
      <section class="card status" aria-labelledby="status-title">
        <h2 id="status-title" class="sr-only">Status</h2>
        <p aria-live="polite">Status: <${StatusBadge} status=${batch.status} test="batch-status" /> <${Counts} counts=${batch.counts} /></p>
        ${awaiting > 0 && html`<p class="notice" data-test="not-processed">${awaiting === 1 ? '1 document is' : `${awaiting} documents are`} uploaded and not processed yet: press Process to extract ${awaiting === 1 ? 'it' : 'them'}.</p>`}
        <p class="help">Created <${Time} at=${batch.created_at} />${batch.completed_at && html`, done <${Time} at=${batch.completed_at} />`}.</p>
        <div class="row">
          <button type="button" data-test="process-button" class=${awaiting > 0 ? '' : 'secondary'} disabled=${busy || !(awaiting > 0)}
            title=${awaiting > 0 ? undefined : 'Every document is already submitted: upload more to process them'} onClick=${process}>Process</button>
          <${ConfirmButton} label="Delete batch" confirm="Delete this batch" test="delete-batch" disabled=${busy} onConfirm=${deleteBatch} />
        </div>
      </section>`}
    <section class="card" aria-labelledby="docs-title">
      <h2 id="docs-title">Documents</h2>
      ${docs?.some((d) => d.status === 'succeeded') && html`
        <p class="help">Those with fields below ${REVIEW_BELOW * 100} % confidence come first, the least sure first: they need review.
          On a document, Alt+N goes to the next one.</p>
        <a class="button" data-test="review-start" href=${`#/documents/${enc(docs.find((d) => d.status === 'succeeded').id)}`}>${reviewLabel(doubtfulCount(docs))}</a>`}
      ${docs === null && !error && html`<p class="help">Loading…</p>`}
      ${docs?.length === 0 && html`<p class="help">No documents.</p>`}
      ${docs?.length > 0 && html`
        <div class="scroll">
          <table class="list stack" data-test="doc-list">
            <thead><tr><th scope="col">File</th><th scope="col">Status</th><th scope="col">Type</th><th scope="col">Review</th><th scope="col">Key fields</th><th scope="col" class="n">Total</th><th scope="col">Actions</th></tr></thead>
            <tbody>${docs.map((d) => html`<${DocRow} key=${d.id} doc=${d} onDelete=${deleteDoc} />`)}</tbody>
          </table>
        </div>`}
    </section>
    ${batch && html`
      <section class="card" aria-labelledby="dl-title">
        <h2 id="dl-title">Download results</h2>
        ${batch.counts.succeeded > 0
          ? html`<${Downloads} api=${api} path=${`/v1/batches/${enc(name)}/results`} base=${name} />`
          : html`<p class="help" data-test="no-results">Results can be downloaded once a document is processed.</p>`}
      </section>`}
    <${UploadPanel} api=${api} batchName=${name} onUploaded=${refresh} />
    ${batch && html`<${WebhookForm} api=${api} name=${name} url=${batch.webhook_url} onChange=${refresh} />`}
  `;
}

// One batch: live status by long-poll, its documents grouped by what they need (review first),
// upload more, process, downloads, webhook, delete.
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
import { REVIEW_BELOW, loadDocuments, rememberOrder, reviewOrder, reviewStateOf } from './review.js';
import { ReviewState } from './review-state.js';

const enc = encodeURIComponent;

/** A file name as it fits a row: whole up to 44 characters, else its start and its end (extension kept) with an ellipsis between. */
export function middle(name, max = 44) {
  if (name.length <= max) return name;
  const tail = Math.min(16, Math.floor(max / 3));
  return `${name.slice(0, max - tail - 1)}…${name.slice(-tail)}`;
}

/** A row's rarely used actions behind a menu: Delete, which asks again. */
function RowMenu({ doc, onDelete }) {
  return html`
    <details class="menu" data-test="doc-menu">
      <summary aria-label=${`More actions for ${doc.filename}`} title="More actions">⋯</summary>
      <div class="menu-body"><${ConfirmButton} label="Delete" name=${`Delete ${doc.filename}`} confirm="Delete" test="doc-delete" onConfirm=${() => onDelete(doc)} /></div>
    </details>`;
}

function DocRow({ doc, onDelete }) {
  const err = doc.processing_error;
  const short = middle(doc.filename);
  return html`
    <tr data-test="doc-row" data-status=${doc.status} data-id=${doc.id}>
      <th scope="row" class="fname doc-name" title=${doc.filename} data-test="doc-name">${short === doc.filename ? short : html`<span aria-hidden="true">${short}</span><span class="sr-only">${doc.filename}</span>`}</th>
      <td><${StatusBadge} status=${doc.status} test="doc-status" /></td>
      <td data-test="doc-type">${doc.document_type?.replace('_', ' ') ?? ''}${doc.page_count ? html` <span class="help">${doc.page_count} p.</span>` : ''}${err && html`<div class="error">${err.code}: ${err.message}</div>`}</td>
      <td><${ReviewState} doc=${doc} /></td>
      <td class="summary-cell"><${DocSummary} doc=${doc} /></td>
      <td class="n"><${DocTotal} doc=${doc} /></td>
      <td class="actions">
        <a class="button secondary" data-test="doc-open" href=${`#/documents/${enc(doc.id)}`} aria-label=${`Open ${doc.filename}`}>Open</a>
        ${doc.status !== 'processing' && html`<${RowMenu} doc=${doc} onDelete=${onDelete} />`}
      </td>
    </tr>`;
}

const GROUPS = [
  ['needs', 'Needs review', 'fields below the review threshold or a check that failed; the least sure first'],
  ['done', 'Reviewed or read surely', ''],
  ['other', 'Not done', 'waiting, running, failed or canceled'],
];
const groupOf = (doc) => ({ needs: 'needs', reviewed: 'done', sure: 'done' })[reviewStateOf(doc)] ?? 'other';

/** The documents by what they need, each group under a heading row with its count. */
function DocGroups({ docs, onDelete }) {
  return GROUPS.map(([key, title, help]) => {
    const rows = docs.filter((d) => groupOf(d) === key);
    if (!rows.length) return null;
    return html`
      <tbody data-test="doc-group" data-group=${key}>
        <tr class="group"><th scope="colgroup" colspan="7">${title} (${rows.length})${help && html` <span class="help">${help}</span>`}</th></tr>
        ${rows.map((d) => html`<${DocRow} key=${d.id} doc=${d} onDelete=${onDelete} />`)}
      </tbody>`;
  });
}

const doubtfulCount = (docs) => docs.filter((d) => reviewStateOf(d) === 'needs').length;
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
        <p class="help">A document needs review where a field is below ${REVIEW_BELOW * 100} % confidence or a check failed (a total that
          does not add up); those come first. On a document, Alt+N goes to the next one.</p>
        <a class="button" data-test="review-start" href=${`#/documents/${enc(docs.find((d) => d.status === 'succeeded').id)}`}>${reviewLabel(doubtfulCount(docs))}</a>`}
      ${docs === null && !error && html`<p class="help">Loading…</p>`}
      ${docs?.length === 0 && html`<p class="help">No documents.</p>`}
      ${docs?.length > 0 && html`
        <div class="scroll">
          <table class="list stack" data-test="doc-list">
            <thead><tr><th scope="col">File</th><th scope="col">Status</th><th scope="col">Type</th><th scope="col">Review</th><th scope="col">Key fields</th><th scope="col" class="n">Total</th><th scope="col">Actions</th></tr></thead>
            <${DocGroups} docs=${docs} onDelete=${deleteDoc} />
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

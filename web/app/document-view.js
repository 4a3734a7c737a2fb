// One document: status (live until it is done), the page image with its tables outlined beside
// the tables themselves, fields, line items, downloads, delete.
import { useState } from 'preact/hooks';
import { html, useTitle } from './html.js';
import { FORMATS, errorText } from './api.js';
import { ConfirmButton } from './confirm.js';
import { Downloads } from './downloads.js';
import { PageViewer } from './page-viewer.js';
import { Fields, LineItems, ResultTable } from './result-table.js';
import { documentCurrency } from './format.js';
import { StatusBadge, Time } from './status.js';
import { useWatch } from './watch.js';

const enc = encodeURIComponent;
const DOC_FORMATS = FORMATS.filter((f) => f.format !== 'zip');

export function DocumentView({ api, id }) {
  const [doc, setDoc] = useState(null);
  const [error, setError] = useState(null);
  useTitle(doc?.filename ?? 'Document');

  // The status endpoint drives the view; the results are read again whenever the status changes.
  const stopWatching = useWatch(api, `/v1/documents/${enc(id)}`, async () => {
    try {
      setDoc(await api.documentResults(id));
    } catch (err) {
      setError(errorText(err));
    }
  }, (err) => setError(err.status === 404 ? 'This document does not exist (or was deleted).' : errorText(err)));

  const remove = async () => {
    stopWatching();
    try {
      await api.deleteDocument(id);
      location.hash = `#/batches/${enc(doc.batch_name)}`;
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (!doc) return html`<h1 tabindex="-1">Document</h1>${error ? html`<p class="error" role="alert">${error}</p>` : html`<p class="help">Loading…</p>`}`;
  const tables = doc.tables ?? [];
  const done = doc.status === 'succeeded';
  return html`
    <p class="crumbs"><a href="#/">Batches</a> › <a href=${`#/batches/${enc(doc.batch_name)}`}>${doc.batch_name}</a> › <span>${doc.filename}</span></p>
    <h1 tabindex="-1">${doc.filename}</h1>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <section class="card status" aria-label="Document status">
      <p aria-live="polite"><${StatusBadge} status=${doc.status} test="doc-status" />
        ${doc.document_type && html` <span>${doc.document_type.replace('_', ' ')}</span>`}
        ${doc.page_count && html` · ${doc.page_count} page${doc.page_count === 1 ? '' : 's'}`} · uploaded <${Time} at=${doc.created_at} /></p>
      ${doc.processing_error && html`<p class="error">${doc.processing_error.code}: ${doc.processing_error.message}</p>`}
      ${!done && !doc.processing_error && doc.status !== 'canceled' && html`<p class="help">Results appear here when processing is done.</p>`}
      <div class="row">
        ${done && html`<${Downloads} api=${api} path=${`/v1/documents/${enc(id)}/results`} base=${doc.filename.replace(/\.[^.]+$/, '')} formats=${DOC_FORMATS} />`}
        ${doc.status !== 'processing' && html`<${ConfirmButton} label="Delete document" confirm="Delete this document" test="doc-delete" onConfirm=${remove} />`}
      </div>
    </section>
    ${doc.status !== 'canceled' && html`
      <div class="split">
        <section class="card sticky" aria-labelledby="page-title">
          <h2 id="page-title">Page</h2>
          <${PageViewer} api=${api} doc=${doc} tables=${tables} />
        </section>
        ${done && html`
          <section class="card" aria-labelledby="tables-title">
            <h2 id="tables-title">Tables (${tables.length})</h2>
            ${tables.length === 0 && html`<p class="help">No table detected.</p>`}
            ${tables.map((t, i) => html`<${ResultTable} table=${t} index=${i} />`)}
          </section>`}
      </div>`}
    ${done && html`
      <div class="split">
        <section class="card" aria-labelledby="fields-title">
          <h2 id="fields-title">Fields</h2>
          <${Fields} fields=${doc.fields} currency=${documentCurrency(doc)} />
        </section>
        <section class="card" aria-labelledby="items-title">
          <h2 id="items-title">Line items</h2>
          <${LineItems} items=${doc.line_items} totals=${doc.totals} currency=${documentCurrency(doc)} />
        </section>
      </div>`}
  `;
}

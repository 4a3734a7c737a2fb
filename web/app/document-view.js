// One document: status (live until it is done), its fields, line items and tables beside the
// page image (tables outlined on it), each value edited in place for review (review.js,
// editable.js) with its box highlighted on the page; the previous and next document of the
// batch's review order (Alt+P / Alt+N); downloads, delete.
import { useEffect, useState } from 'preact/hooks';
import { html, useTitle } from './html.js';
import { FORMATS, errorText } from './api.js';
import { ConfirmButton } from './confirm.js';
import { Downloads } from './downloads.js';
import { PageViewer } from './page-viewer.js';
import { Fields, LineItems, ResultTable } from './result-table.js';
import { documentCurrency } from './format.js';
import { StatusBadge, Time } from './status.js';
import { useWatch } from './watch.js';
import { useBatchOrder, useReview } from './review.js';
import { ReviewState } from './review-state.js';

const enc = encodeURIComponent;
const DOC_FORMATS = FORMATS.filter((f) => f.format !== 'zip');

/** The page's words to pick values from, once the document has succeeded. */
function useWords(api, id, done) {
  const [words, setWords] = useState(null);
  useEffect(() => {
    if (!done) return undefined;
    let live = true;
    api.pageWords(id).then((w) => live && setWords(w), () => {});
    return () => {
      live = false;
    };
  }, [api, id, done]);
  return words;
}

/** Links to the document before and after this one in the batch's review order, and Alt+P / Alt+N to follow them. */
function ReviewNav({ api, doc }) {
  const order = useBatchOrder(api, doc.batch_name);
  const at = order ? order.indexOf(doc.id) : -1;
  const prev = at > 0 ? order[at - 1] : null;
  const next = at >= 0 && at < order.length - 1 ? order[at + 1] : null;
  useEffect(() => {
    const onKey = (e) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const to = e.code === 'KeyN' ? next : e.code === 'KeyP' ? prev : null;
      if (!to) return;
      e.preventDefault();
      // A value being edited is saved first: its input's blur commits it.
      document.activeElement?.blur();
      location.hash = `#/documents/${enc(to)}`;
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [prev, next]);
  if (at < 0) return null;
  return html`
    <nav class="review-nav" aria-label="Review" data-test="review-nav">
      ${prev ? html`<a class="button secondary" href=${`#/documents/${enc(prev)}`} data-test="prev-doc" aria-keyshortcuts="Alt+P">‹ Previous</a>` : html`<span class="button secondary disabled" aria-hidden="true">‹ Previous</span>`}
      <span data-test="review-position">Document ${at + 1} of ${order.length}</span>
      <${ReviewState} doc=${doc} />
      ${next ? html`<a class="button" href=${`#/documents/${enc(next)}`} data-test="next-doc" aria-keyshortcuts="Alt+N">Next ›</a>` : html`<span class="help">Last document of the batch</span>`}
      <span class="help">Alt+N next, Alt+P previous</span>
    </nav>`;
}

export function DocumentView({ api, id }) {
  const [doc, setDoc] = useState(null);
  const [error, setError] = useState(null);
  useTitle(doc?.filename ?? 'Document');
  const done = doc?.status === 'succeeded';
  const review = useReview(api, doc, setDoc);
  const words = useWords(api, id, done);

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
  const engine = review.extracted;
  const status = review.status;
  return html`
    <p class="crumbs"><a href="#/">Batches</a> › <a href=${`#/batches/${enc(doc.batch_name)}`}>${doc.batch_name}</a> › <span>${doc.filename}</span></p>
    <h1 tabindex="-1">${doc.filename}</h1>
    <${ReviewNav} api=${api} doc=${doc} />
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
      <div class="split review">
        <div class="values">
          ${done && html`
            <section class="card" aria-labelledby="fields-title">
              <h2 id="fields-title">Fields</h2>
              <p class="help">The arrow keys or Tab move between values; Enter or typing edits one, Enter saves it, Escape puts it back.
                A value that is right: Enter twice, or ✓ Accept, confirms it.</p>
              <p class=${`save-status${status?.error ? ' error' : ''}`} data-test="save-status" role=${status?.error ? 'alert' : 'status'}>${status?.text ?? ''}</p>
              <${Fields} fields=${doc.fields} currency=${documentCurrency(doc)} review=${review} warnings=${doc.warnings} />
            </section>
            <section class="card" aria-labelledby="items-title">
              <h2 id="items-title">Line items</h2>
              <${LineItems} items=${doc.line_items} totals=${doc.totals} currency=${documentCurrency(doc)} type=${doc.document_type} review=${review} engine=${engine ? engine.line_items ?? [] : undefined} />
            </section>
            <section class="card" aria-labelledby="tables-title">
              <h2 id="tables-title">Tables (${tables.length})</h2>
              ${tables.length === 0 && html`<p class="help">No table detected.</p>`}
              ${tables.map((t, i) => html`<${ResultTable} table=${t} index=${i} review=${review} engine=${engine ? (engine.tables?.[i] ?? null) : undefined} />`)}
            </section>`}
        </div>
        <section class="card sticky" aria-labelledby="page-title">
          <h2 id="page-title">Page</h2>
          <${PageViewer} api=${api} doc=${doc} tables=${tables} focus=${review.active} words=${words} onWord=${(text, append, box) => review.sink.current?.(text, append, box)} />
        </section>
      </div>`}
  `;
}

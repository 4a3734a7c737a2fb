// The account's batches, newest first, with live counts; and the upload form that starts a batch.
import { useEffect, useState } from 'preact/hooks';
import { html, useTitle } from './html.js';
import { errorText } from './api.js';
import { UploadPanel } from './upload.js';
import { Counts, StatusBadge, Time } from './status.js';
import { useWatch } from './watch.js';

// Long-polls hold a connection each; a browser opens six per server, and the page needs some for itself.
const LIVE_ROWS = 3;

/** True while the batch can still change by itself: some document is not finished. */
const inFlight = (b) => !b.all_done && b.document_count > 0;

function BatchRow({ api, batch: initial, live }) {
  const [batch, setBatch] = useState(initial);
  useWatch(api, live ? `/v1/batches/${encodeURIComponent(initial.batch_name)}` : null, setBatch);
  return html`
    <tr data-test="batch-row" data-status=${batch.status}>
      <th scope="row" class="fname"><a href=${`#/batches/${encodeURIComponent(batch.batch_name)}`}>${batch.batch_name}</a></th>
      <td><${StatusBadge} status=${batch.status} /></td>
      <td><${Counts} counts=${batch.counts} /></td>
      <td class="wide"><${Time} at=${batch.created_at} /></td>
    </tr>`;
}

export function BatchList({ api }) {
  const [batches, setBatches] = useState(null);
  const [cursor, setCursor] = useState(null);
  const [error, setError] = useState(null);
  useTitle('Batches');

  const load = async (from) => {
    try {
      const page = await api.listBatches({ limit: 50, cursor: from ?? undefined });
      setBatches((prev) => (from ? [...(prev ?? []), ...page.batches] : page.batches));
      setCursor(page.next_cursor);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => {
    void load(null);
  }, [api]);

  let live = 0;
  return html`
    <h1 tabindex="-1">Batches</h1>
    <${UploadPanel} api=${api} batchNames=${(batches ?? []).map((b) => b.batch_name)}
      onUploaded=${(name, complete) => (complete ? (location.hash = `#/batches/${encodeURIComponent(name)}`) : load(null))} />
    <section class="card" aria-labelledby="list-title">
      <h2 id="list-title">Your batches</h2>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${batches === null && !error && html`<p class="help">Loading…</p>`}
      ${batches?.length === 0 && html`<p class="help">No batches yet: upload files above to start one.</p>`}
      ${batches?.length > 0 && html`
        <div class="scroll">
          <table class="list stack">
            <thead><tr><th scope="col">Batch</th><th scope="col">Status</th><th scope="col">Documents</th><th scope="col" class="wide">Created</th></tr></thead>
            <tbody>${batches.map((b) => html`<${BatchRow} key=${b.batch_name} api=${api} batch=${b} live=${inFlight(b) && live++ < LIVE_ROWS} />`)}</tbody>
          </table>
        </div>`}
      ${cursor && html`<button type="button" onClick=${() => load(cursor)}>Show older batches</button>`}
    </section>
  `;
}

// Status badges and counts, shared by the batch list, the batch view and the document view.
import { html } from './html.js';

export const STATUSES = ['queued', 'processing', 'succeeded', 'failed', 'canceled'];

/** A status word in its colour; `test` names its data-test attribute. */
export function StatusBadge({ status, test }) {
  return html`<span class=${`badge s-${status}`} data-test=${test}>${status}</span>`;
}

/** "2 succeeded · 1 failed": the non-zero counts of a batch. */
export function Counts({ counts }) {
  const parts = STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  return html`<span class="counts">${parts.length ? parts.join(' · ') : 'no documents'}</span>`;
}

/** A timestamp in the reader's locale, with the exact UTC value on hover. */
export function Time({ at }) {
  if (!at) return html`<span class="help">—</span>`;
  return html`<time datetime=${at} title=${at}>${new Date(at).toLocaleString()}</time>`;
}

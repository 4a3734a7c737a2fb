// One document in a line of the batch page: its type, the few fields that identify it (number,
// date, vendor; account and period for a statement) and its total in the document's currency.
import { html } from './html.js';
import { documentCurrency, money } from './format.js';

/** The identifying fields per document type, with the label each is shown under. */
const KEY_FIELDS = {
  invoice: [['invoice_number', 'No.'], ['issue_date', 'Date'], ['vendor_name', 'From']],
  receipt: [['vendor_name', 'From'], ['issue_date', 'Date']],
  bank_statement: [['account_number', 'Account'], ['iban', 'IBAN'], ['period_start', 'From'], ['period_end', 'To']],
};

/** The amount that sums the document up: its total (amount due when none), a statement's closing balance. */
export function documentTotal(doc) {
  const f = doc.fields ?? {};
  const pick = doc.document_type === 'bank_statement' ? [f.closing_balance?.value] : [f.total?.value, doc.totals?.total, f.amount_due?.value];
  const value = pick.find((v) => typeof v === 'number');
  return value === undefined ? null : { value, currency: documentCurrency(doc), label: doc.document_type === 'bank_statement' ? 'Closing balance' : 'Total' };
}

export function DocSummary({ doc }) {
  if (doc.status !== 'succeeded') return null;
  const keys = (KEY_FIELDS[doc.document_type] ?? []).map(([name, label]) => [label, doc.fields?.[name]?.value]).filter(([, v]) => v !== undefined && v !== null);
  const tables = doc.tables?.length ?? 0;
  const items = doc.line_items?.length ?? 0;
  return html`
    <div class="summary" data-test="doc-summary">
      ${keys.map(([label, v]) => html`<span class="kv"><span class="help">${label}</span> ${String(v)}</span>`)}
      <span class="help">${tables} table${tables === 1 ? '' : 's'}${items ? ` · ${items} line item${items === 1 ? '' : 's'}` : ''}</span>
    </div>`;
}

export function DocTotal({ doc }) {
  const total = doc.status === 'succeeded' ? documentTotal(doc) : null;
  if (!total) return null;
  return html`<span data-test="doc-total" title=${total.label}>${money(total.value, total.currency)}${total.currency ? html` <span class="help">${total.currency}</span>` : ''}</span>`;
}

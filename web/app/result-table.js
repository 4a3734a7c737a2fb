// A detected table as an HTML table (spans kept, header rows in <thead>), each cell with its
// OCR confidence; and the document's fields and line items.
import { html } from './html.js';
import { fieldValue, money, plain } from './format.js';

/** "97 %" for an OCR confidence; text read from a PDF's text layer has none (null), said once per table. */
function Confidence({ value }) {
  if (value === null || value === undefined) return null;
  const pct = Math.round(value * 100);
  return html`<span class=${`conf${value < 0.6 ? ' low' : ''}`} title=${`OCR confidence ${pct} %`}>${pct} %</span>`;
}

/** The rows of a table as lists of the cells that start in them. */
function rowsOf(table) {
  const rows = Array.from({ length: table.n_rows }, () => []);
  for (const c of [...table.cells].sort((a, b) => a.row - b.row || a.col - b.col)) rows[c.row]?.push(c);
  return rows;
}

function Cell({ cell, header }) {
  const Tag = header ? 'th' : 'td';
  return html`<${Tag} rowspan=${cell.row_span > 1 ? cell.row_span : undefined} colspan=${cell.col_span > 1 ? cell.col_span : undefined}
    scope=${header ? 'col' : undefined} data-row=${cell.row} data-col=${cell.col}>
    <span class="cell-text">${cell.text}</span><${Confidence} value=${cell.confidence} /></${Tag}>`;
}

export function ResultTable({ table, index }) {
  const rows = rowsOf(table);
  const head = rows.slice(0, table.header_rows);
  const body = rows.slice(table.header_rows);
  const pages = table.pages?.length > 1 ? `pages ${table.pages.join(', ')}` : `page ${table.page}`;
  const ocr = table.cells.some((c) => c.confidence !== null);
  return html`
    <h3 class="table-title" id=${`table-${index + 1}`}>Table ${index + 1} <span class="help">${pages}, ${table.n_rows} × ${table.n_cols} · ${ocr ? 'OCR confidence under each cell' : 'from the PDF’s text layer: exact text, no OCR confidence'}</span></h3>
    <div class="scroll">
      <table class="result" data-test="result-table" data-index=${index} aria-labelledby=${`table-${index + 1}`}>
        ${head.length > 0 && html`<thead>${head.map((r) => html`<tr>${r.map((c) => html`<${Cell} cell=${c} header=${true} />`)}</tr>`)}</thead>`}
        <tbody>${body.map((r) => html`<tr>${r.map((c) => html`<${Cell} cell=${c} header=${false} />`)}</tr>`)}</tbody>
      </table>
    </div>`;
}

const label = (name) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** `currency`: the document's, for the amounts among the fields. */
export function Fields({ fields, currency }) {
  const set = Object.entries(fields ?? {}).filter(([, f]) => f);
  if (set.length === 0) return html`<p class="help" data-test="fields">No fields found.</p>`;
  return html`
    <dl class="fields" data-test="fields">
      ${set.map(([name, f]) => html`
        <div data-field=${name}>
          <dt>${label(name)}</dt>
          <dd><span class="value">${fieldValue(name, f, currency)}</span>${f.text && fieldValue(name, f, currency) !== f.text ? html` <span class="help">(“${f.text}”)</span>` : ''} <${Confidence} value=${f.confidence} /></dd>
        </div>`)}
    </dl>`;
}

/** `currency`: the document's, for items that name none. */
export function LineItems({ items, totals, currency }) {
  const cur = (c) => c ?? totals?.currency ?? currency;
  if (!items?.length) return html`<p class="help" data-test="line-items">No line items (only invoices, receipts and statements have them).</p>`;
  return html`
    <div class="scroll">
      <table class="result" data-test="line-items">
        <caption>${items.length} line item${items.length === 1 ? '' : 's'}</caption>
        <thead><tr><th scope="col">Description</th><th scope="col" class="n">Quantity</th><th scope="col" class="n">Unit price</th><th scope="col" class="n">Amount</th><th scope="col">Currency</th><th scope="col">Checks</th></tr></thead>
        <tbody>${items.map((i) => html`
          <tr>
            <td>${i.description ?? ''}</td><td class="n">${plain(i.quantity)}</td><td class="n">${money(i.unit_price, cur(i.currency))}</td><td class="n">${money(i.amount, cur(i.currency))}</td>
            <td>${i.currency ?? ''}</td><td>${i.flags.length ? html`<span class="flag">${i.flags.join(', ')}</span>` : 'ok'}</td>
          </tr>`)}
        </tbody>
        ${totals && html`<tfoot>
          ${[['Subtotal', totals.subtotal], ['Tax', totals.tax], ['Total', totals.total]].filter(([, v]) => v !== null).map(([k, v]) => html`
            <tr><th scope="row" colspan="3">${k}</th><td class="n">${money(v, cur(totals.currency))}</td><td>${totals.currency ?? ''}</td><td>${totals.flags.length ? html`<span class="flag">${totals.flags.join(', ')}</span>` : ''}</td></tr>`)}
        </tfoot>`}
      </table>
    </div>`;
}

// A detected table as an HTML table (spans kept, header rows in <thead>), each cell with its
// OCR confidence; and the document's fields and line items. With `review` (a succeeded
// document), every field, cell and line-item value is edited in place (editable.js), and what a
// person corrected is marked.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';
import { fieldValue, money, plain } from './format.js';
import { Editable } from './editable.js';
import { differs } from './review.js';

/** "97 %" for an OCR confidence; text read from a PDF's text layer has none (null), said once per table. */
function Confidence({ value }) {
  if (value === null || value === undefined) return null;
  const pct = Math.round(value * 100);
  return html`<span class=${`conf${value < 0.6 ? ' low' : ''}`} title=${`OCR confidence ${pct} %`}>${pct} %</span>`;
}

/**
 * A table's sideways scroller that says when the table is wider than it: a line naming the
 * columns and a fade at the edge that has more, so a cut-off column is never taken for the last.
 */
function Scroller({ columns, children }) {
  const box = useRef(null);
  const [more, setMore] = useState({ wide: false, right: false, left: false });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const check = () => {
      const wide = el.scrollWidth > el.clientWidth + 1;
      const right = wide && el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      const left = wide && el.scrollLeft > 1;
      setMore((m) => (m.wide === wide && m.right === right && m.left === left ? m : { wide, right, left }));
    };
    check();
    const watch = new ResizeObserver(check);
    watch.observe(el);
    if (el.firstElementChild) watch.observe(el.firstElementChild);
    el.addEventListener('scroll', check, { passive: true });
    return () => {
      watch.disconnect();
      el.removeEventListener('scroll', check);
    };
  }, []);
  return html`
    ${more.wide && html`<p class="help more-columns" data-test="more-columns">${columns} columns, wider than this card: scroll sideways${more.right ? ' for the ones to the right' : ''}.</p>`}
    <div class=${`scroll${more.right ? ' more-right' : ''}${more.left ? ' more-left' : ''}`} ref=${box}>${children}</div>`;
}

/** The rows of a table as lists of the cells that start in them. */
function rowsOf(table) {
  const rows = Array.from({ length: table.n_rows }, () => []);
  for (const c of [...table.cells].sort((a, b) => a.row - b.row || a.col - b.col)) rows[c.row]?.push(c);
  return rows;
}

function Cell({ cell, header, table, index, review, engine }) {
  const Tag = header ? 'th' : 'td';
  const text = html`<span class="cell-text">${cell.text}</span>`;
  const corrected = engine !== undefined && differs(cell.text, engine);
  return html`<${Tag} rowspan=${cell.row_span > 1 ? cell.row_span : undefined} colspan=${cell.col_span > 1 ? cell.col_span : undefined}
    scope=${header ? 'col' : undefined} data-row=${cell.row} data-col=${cell.col}>
    ${review
      ? html`<${Editable} review=${review} id=${`t${index}:${cell.row}:${cell.col}`} raw=${cell.text} label=${`Table ${index + 1}, row ${cell.row + 1}, column ${cell.col + 1}`}
          box=${{ page: cell.page ?? table.page, bbox: cell.bbox }} corrected=${corrected} grid=${`t${index}`} r=${cell.row} c=${cell.col} test="edit-cell"
          onSave=${(t) => review.saveCell(index, cell.row, cell.col, t)}>${text}</${Editable}>`
      : text}<${Confidence} value=${cell.confidence} /></${Tag}>`;
}

/** `review` makes the cells editable; `engine` is the engine's own table, for the corrected marks. */
export function ResultTable({ table, index, review, engine }) {
  const rows = rowsOf(table);
  const head = rows.slice(0, table.header_rows);
  const body = rows.slice(table.header_rows);
  const pages = table.pages?.length > 1 ? `pages ${table.pages.join(', ')}` : `page ${table.page}`;
  const ocr = table.cells.some((c) => c.confidence !== null);
  const engineText = (c) => engine?.cells.find((e) => e.row === c.row && e.col === c.col)?.text;
  const cell = (c, header) => html`<${Cell} cell=${c} header=${header} table=${table} index=${index} review=${review} engine=${engine ? engineText(c) : undefined} />`;
  return html`
    <h3 class="table-title" id=${`table-${index + 1}`}>Table ${index + 1} <span class="help">${pages}, ${table.n_rows} × ${table.n_cols} · ${ocr ? 'OCR confidence under each cell' : 'from the PDF’s text layer: exact text, no OCR confidence'}</span></h3>
    <${Scroller} columns=${table.n_cols}>
      <table class="result" data-test="result-table" data-index=${index} aria-labelledby=${`table-${index + 1}`}>
        ${head.length > 0 && html`<thead>${head.map((r) => html`<tr>${r.map((c) => cell(c, true))}</tr>`)}</thead>`}
        <tbody>${body.map((r) => html`<tr>${r.map((c) => cell(c, false))}</tr>`)}</tbody>
      </table>
    </${Scroller}>`;
}

const label = (name) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The fields the document has (custom ones as `custom.NAME`) and the names of those it has not. */
function fieldEntries(fields) {
  const own = Object.entries(fields ?? {}).filter(([k]) => k !== 'custom');
  const custom = Object.entries(fields?.custom ?? {}).map(([k, f]) => [`custom.${k}`, f]);
  const all = [...own, ...custom];
  return { set: all.filter(([, f]) => f), unset: all.filter(([, f]) => !f).map(([k]) => k) };
}

const fieldLabel = (key) => label(key.replace(/^custom\./, ''));
const rawValue = (f) => (f ? String(f.value) : '');

/** Where a value came from, when not the engine's reading of the page (API.md §4c): a word and its explanation. */
const SOURCES = {
  vendor_memory: ['learned', "Read the way this vendor's corrections taught"],
  embedded: ['e-invoice', "From the invoice's XML (ZUGFeRD, Factur-X, XRechnung, UBL): exact"],
  barcode: ['payment code', 'From the payment QR code on the page: exact'],
  form: ['form', 'From a PDF form field: exact'],
};

/** What the document carries disagreeing with its print, and what could not be read (API.md §4c `warnings`). */
function Warnings({ warnings }) {
  if (!warnings?.length) return null;
  return html`<ul class="warnings" data-test="warnings">
    ${warnings.map((w) => html`<li data-test="warning" data-code=${w.code} data-field=${w.field ?? undefined}>⚠ ${w.message}${w.printed ? html` <span class="help">(page ${w.printed.page})</span>` : ''}</li>`)}
  </ul>`;
}

/**
 * `currency`: the document's, for the amounts among the fields; `warnings` are listed above
 * them. With `review`, each value is edited in place, and a field the document lacks can be
 * added from a list.
 */
export function Fields({ fields, currency, review, warnings }) {
  const [added, setAdded] = useState([]);
  const { set, unset } = fieldEntries(fields);
  const shown = [...set, ...added.filter((k) => unset.includes(k)).map((k) => [k, null])];
  const addable = unset.filter((k) => !added.includes(k));
  if (shown.length === 0 && !review) return html`<${Warnings} warnings=${warnings} /><p class="help" data-test="fields">No fields found.</p>`;
  return html`
    <${Warnings} warnings=${warnings} />
    ${shown.length === 0 && html`<p class="help">No fields found: add one below.</p>`}
    <dl class="fields" data-test="fields">
      ${shown.map(([name, f], i) => {
        const value = html`<span class="value">${f ? fieldValue(name, f, currency) : ''}</span>`;
        const accept = review && f && !f.corrected ? () => review.acceptField(name, rawValue(f)) : undefined;
        const doubtful = review?.doubtful.includes(name);
        return html`
        <div data-test="field" data-name=${name} data-field=${name} data-corrected=${f?.corrected ? 'true' : undefined} data-doubtful=${doubtful ? 'true' : undefined}>
          <dt>${fieldLabel(name)}</dt>
          <dd>${review
            ? html`<${Editable} review=${review} id=${`f:${name}`} raw=${rawValue(f)} label=${fieldLabel(name)} box=${f && { page: f.page, bbox: f.bbox }} corrected=${f?.corrected}
                grid="fields" r=${i} c=${0} test="edit-field" onSave=${(t) => review.saveField(name, t)} onAccept=${accept}>${value}</${Editable}>`
            : value}${f?.text && fieldValue(name, f, currency) !== f.text ? html` <span class="help">(“${f.text}”)</span>` : ''} ${f && !f.corrected && html`<${Confidence} value=${f.confidence} />`}${f && SOURCES[f.source] && html` <span class="help" data-test="field-source" data-source=${f.source} title=${SOURCES[f.source][1]}>${SOURCES[f.source][0]}</span>`}
            ${accept && doubtful && html`<button type="button" class="accept secondary" data-test="field-accept" aria-label=${`Accept ${fieldLabel(name)}: ${rawValue(f)}`} title="The value is right: confirm it" onClick=${accept}>✓ Accept</button>`}</dd>
        </div>`;
      })}
    </dl>
    ${review && addable.length > 0 && html`
      <label for="add-field">Add a field the document has</label>
      <select id="add-field" data-test="add-field" value="" onChange=${(e) => {
        const k = e.currentTarget.value;
        if (!k) return;
        setAdded([...added, k]);
        requestAnimationFrame(() => document.querySelector(`[data-edit="f:${CSS.escape(k)}"]`)?.click());
      }}>
        <option value="">Choose a field…</option>
        ${addable.map((k) => html`<option value=${k}>${fieldLabel(k)}</option>`)}
      </select>`}`;
}

const ITEM_COLUMNS = [
  ['description', 'Description', ''],
  ['quantity', 'Quantity', 'n'],
  ['unit_price', 'Unit price', 'n'],
  ['amount', 'Amount', 'n'],
  ['currency', 'Currency', ''],
];

/** `currency`: the document's, for items that name none; `review` makes the values editable, `engine` the engine's items, for the marks. */
export function LineItems({ items, totals, currency, type, review, engine }) {
  const cur = (c) => c ?? totals?.currency ?? currency;
  if (!items?.length) {
    const why = type === 'other' ? 'this document is not an invoice, receipt or statement' : 'no table of items with prices was found';
    return html`<p class="help" data-test="line-items">No line items: ${why}.</p>`;
  }
  const shown = (i, key) => (key === 'quantity' ? plain(i[key]) : key === 'unit_price' || key === 'amount' ? money(i[key], cur(i.currency)) : (i[key] ?? ''));
  return html`
    <${Scroller} columns=${ITEM_COLUMNS.length + 1}>
      <table class="result" data-test="line-items">
        <caption>${items.length} line item${items.length === 1 ? '' : 's'}</caption>
        <thead><tr>${ITEM_COLUMNS.map(([, name, cls]) => html`<th scope="col" class=${cls}>${name}</th>`)}<th scope="col">Checks</th></tr></thead>
        <tbody>${items.map((i, k) => html`
          <tr>
            ${ITEM_COLUMNS.map(([key, name, cls], c) => {
              const corrected = engine !== undefined && differs(i[key], engine?.[k]?.[key]);
              return html`<td class=${cls}>${review
                ? html`<${Editable} review=${review} id=${`i${k}:${key}`} raw=${i[key] === null || i[key] === undefined ? '' : String(i[key])} label=${`Line ${k + 1}, ${name.toLowerCase()}`}
                    box=${{ page: i.page, bbox: i.bbox }} corrected=${corrected} grid="items" r=${k} c=${c} test="edit-item" onSave=${(t) => review.saveItem(k, key, t)}>${shown(i, key)}</${Editable}>`
                : shown(i, key)}</td>`;
            })}
            <td>${i.flags.length ? html`<span class="flag">${i.flags.join(', ')}</span>` : 'ok'}</td>
          </tr>`)}
        </tbody>
        ${totals && html`<tfoot>
          ${[['Subtotal', totals.subtotal], ['Tax', totals.tax], ['Total', totals.total]].filter(([, v]) => v !== null).map(([k, v]) => html`
            <tr><th scope="row" colspan="3">${k}</th><td class="n">${money(v, cur(totals.currency))}</td><td>${totals.currency ?? ''}</td><td>${totals.flags.length ? html`<span class="flag">${totals.flags.join(', ')}</span>` : ''}</td></tr>`)}
        </tfoot>`}
      </table>
    </${Scroller}>`;
}

/**
 * Document understanding (API.md §4): the type of a document, its fields, and whether its item
 * table's rows are line items at all. A report (`other`) keeps its tables and gets no line items,
 * no totals and no fields; an invoice or receipt keeps only items of a table with a header or
 * with totals under it; a statement has no invoice fields, an invoice no statement fields.
 */
import type { DocumentType, ExtractResult, Fields, PageLayout, Table } from '../types.js';
import type { LineItemsResult } from '../lineitems/index.js';
import { mapColumns } from '../lineitems/columns.js';
import { toGrid } from '../lineitems/grid.js';
import { classify, hasTopTitle } from './classify.js';
import { checkFields, mergeTotals } from './checks.js';
import { emptyFields, readFields } from './fields.js';
import { documentLines, type TextLine } from '../locale/lines.js';
import { documentLocale, type Locale } from '../locale/index.js';

export { findDate, findPeriod, type DateOrder } from '../locale/dates.js';
export { isValidIban, findIbans } from './iban.js';

const INVOICE_ONLY: (keyof Fields)[] = ['invoice_number', 'due_date', 'subtotal', 'tax', 'total', 'amount_due', 'order_number', 'payment_terms'];
const STATEMENT_ONLY: (keyof Fields)[] = ['account_number', 'period_start', 'period_end', 'opening_balance', 'closing_balance'];

type Understood = Pick<ExtractResult, 'document_type' | 'fields' | 'line_items' | 'totals'>;

/** Type, fields, and the line items and totals that stand, from the pages, their tables and the item-table reading. */
export function understandDocument(pages: PageLayout[], tables: Table[], found: LineItemsResult, known?: { lines: TextLine[]; locale: Locale }): Understood {
  const lines = known?.lines ?? documentLines(pages);
  const locale = known?.locale ?? documentLocale(pages, lines);
  if (!hasTopTitle(lines)) return { document_type: 'other', fields: emptyFields(), line_items: [], totals: null };
  const first = pages[0];
  const firstTables = tables.filter((t) => t.page === first?.page);
  const tableTop = firstTables.length ? Math.min(...firstTables.map((t) => t.bbox[1])) : (first?.height ?? Infinity);
  const fields = readFields(lines, { conv: locale.conv, order: locale.order, currency: locale.currency, tableTop });

  const item = found.line_items[0];
  const roles = item ? mapColumns(toGrid(tables[item.table_index]!)).roles : [];
  const textShare = first && first.words.length ? (Math.max(...first.words.map((w) => w.x1)) - Math.min(...first.words.map((w) => w.x0))) / first.width : 1;
  const type: DocumentType = classify(lines, { fields, roles, textShare });
  if (type === 'other') return { document_type: type, fields: emptyFields(), line_items: [], totals: null };

  for (const n of type === 'bank_statement' ? INVOICE_ONLY : STATEMENT_ONLY) fields[n] = null;
  if (type === 'bank_statement' && !fields.account_number && fields.iban) fields.account_number = { ...fields.iban, confidence: 0.8 };
  // Items from a table with neither a header nor totals under it are a guess we do not make.
  const headed = found.line_items.some((i) => Object.keys(i.cells).some((k) => !/^column_\d+$/.test(k)));
  const docCurrency = (fields.currency?.value as string | undefined) ?? null;
  // Where no amount names its currency, the document's (from its language at the least) applies.
  const items = (headed || found.totals ? found.line_items : []).map((i) => (i.currency === null && docCurrency ? { ...i, currency: docCurrency } : i));
  const flags = type === 'bank_statement' ? [] : checkFields(fields, items);
  let totals = type === 'bank_statement' ? found.totals : mergeTotals(items.length ? found.totals : null, fields, flags);
  if (totals && totals.currency === null && docCurrency) totals = { ...totals, currency: docCurrency };
  return { document_type: type, fields, line_items: items, totals };
}

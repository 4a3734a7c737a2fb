/**
 * Document understanding (API.md §4): the key-value pairs a document prints, its fields (on every
 * document, whatever its type), its type beside them, and whether its item table's rows are line
 * items at all. A report (`other`) keeps its tables and gets no line items and no totals; an
 * invoice or receipt keeps only items of a table with a header or with totals under it; a
 * statement has no invoice fields, an invoice no statement fields.
 */
import type { DocumentType, ExtractResult, Fields, PageLayout, Table } from '../types.js';
import type { ExternalCandidates } from './choose.js';
import { findPairs, keyValuePairs } from './kv.js';
import type { LineItemsResult } from '../lineitems/index.js';
import { mapColumns } from '../lineitems/columns.js';
import { toGrid } from '../lineitems/grid.js';
import { classify } from './classify.js';
import { agreeTotals, checkFields, documentAdjustments, mergeTotals } from './checks.js';
import { readFields } from './fields.js';
import { weighEvidence } from './evidence.js';
import { cashAndChange } from './money.js';
import { documentLines, type TextLine } from '../locale/lines.js';
import { documentLocale, type Locale } from '../locale/index.js';

export { findDate, findPeriod, type DateOrder } from '../locale/dates.js';
export { findValue, type ValueType } from './find.js';
export { choose, type FieldCandidate, type ExternalCandidates } from './choose.js';
export { isValidIban, findIbans } from './iban.js';

const INVOICE_ONLY: (keyof Fields)[] = ['invoice_number', 'due_date', 'subtotal', 'tax', 'total', 'amount_due', 'order_number', 'payment_terms'];
const STATEMENT_ONLY: (keyof Fields)[] = ['account_number', 'period_start', 'period_end', 'opening_balance', 'closing_balance'];

type Understood = Pick<ExtractResult, 'document_type' | 'fields' | 'key_value_pairs' | 'line_items' | 'totals'>;

/** Type, fields, and the line items and totals that stand, from the pages, their tables and the item-table reading. */
export function understandDocument(
  pages: PageLayout[],
  tables: Table[],
  found: LineItemsResult,
  known?: { lines?: TextLine[]; locale?: Locale; external?: ExternalCandidates },
): Understood {
  const lines = known?.lines ?? documentLines(pages);
  const locale = known?.locale ?? documentLocale(pages, lines);
  const pairs = findPairs(lines);
  const key_value_pairs = keyValuePairs(pairs);
  const first = pages[0];
  const firstTables = tables.filter((t) => t.page === first?.page);
  const tableTop = firstTables.length ? Math.min(...firstTables.map((t) => t.bbox[1])) : (first?.height ?? Infinity);
  const placed = new Set<keyof Fields>();
  const paid = cashAndChange(lines, locale.conv);
  const fields = readFields(lines, { conv: locale.conv, order: locale.order, currency: locale.currency, tableTop, pairs, paid, external: known?.external, placed });

  const item = found.line_items[0];
  const roles = item ? mapColumns(toGrid(tables[item.table_index]!)).roles : [];
  const textShare = first && first.words.length ? (Math.max(...first.words.map((w) => w.x1)) - Math.min(...first.words.map((w) => w.x0))) / first.width : 1;
  const type: DocumentType = classify(lines, { fields, roles, textShare });
  // A document of no known type (a report, a letter) keeps the fields a label names, but none
  // read by where it stands (the first line as a vendor, a date without a label); its tables
  // are no items and it has no totals.
  if (type === 'other') {
    for (const n of placed) fields[n] = null;
    return { document_type: type, fields: stamped(fields), key_value_pairs, line_items: [], totals: null };
  }

  for (const n of type === 'bank_statement' ? INVOICE_ONLY : STATEMENT_ONLY) fields[n] = null;
  // A statement's unlabelled date under its table is a booking's, not the statement's.
  if (type === 'bank_statement' && fields.issue_date && fields.issue_date.confidence <= 0.5) fields.issue_date = null;
  if (type === 'bank_statement' && !fields.account_number && fields.iban) fields.account_number = { ...fields.iban, confidence: 0.8 };
  // Items from a table with neither a header nor totals under it are a guess we do not make.
  const headed = found.line_items.some((i) => Object.keys(i.cells).some((k) => !/^column_\d+$/.test(k)));
  const docCurrency = (fields.currency?.value as string | undefined) ?? null;
  // Where no amount names its currency, the document's (from its language at the least) applies.
  const items = (headed || found.totals ? found.line_items : []).map((i) => (i.currency === null && docCurrency ? { ...i, currency: docCurrency } : i));
  const { flags, itemsAdd } = type === 'bank_statement' ? { flags: [], itemsAdd: false } : checkFields(fields, items, documentAdjustments(lines, locale.conv));
  let totals = type === 'bank_statement' ? found.totals : agreeTotals(mergeTotals(items.length ? found.totals : null, fields, flags, itemsAdd), fields, items, lines, locale.conv);
  if (totals && totals.currency === null && docCurrency) totals = { ...totals, currency: docCurrency };
  weighEvidence(fields, totals, lines, locale.conv, paid, itemsAdd);
  return { document_type: type, fields: stamped(fields), key_value_pairs, line_items: items, totals };
}

/** Every field with its source (`engine` unless found otherwise) and `corrected: false` (API.md §4). */
function stamped(fields: Fields): Fields {
  const out = { ...fields };
  for (const k of Object.keys(out) as (keyof Fields)[]) {
    const f = out[k];
    if (f) out[k] = { ...f, source: f.source ?? 'engine', corrected: f.corrected ?? false };
  }
  return out;
}

/**
 * The rows of an item table as line items: numbers read with the column's convention, wrapped
 * description lines folded into their item, summary rows set aside.
 */
import type { BBox, LineItem } from '../types.js';
import type { ColumnMap } from './columns.js';
import { rowPage, unionBox, type Grid } from './grid.js';
import { cents, currencyOf, parseNumber, parseQuantity, type Convention } from './numbers.js';
import type { SummaryLine } from './summary.js';
import { startsWithPosition, summaryKind, type ColumnRole } from './vocabulary.js';

/** One table's contribution: its items and the summary rows found inside it. */
export interface TableRows {
  items: LineItem[];
  summaries: SummaryLine[];
}

interface RawRow {
  row: number;
  texts: string[];
  boxes: BBox[];
  page: number;
}

const NUMBER_ROLES: ColumnRole[] = ['quantity', 'unit_price', 'amount', 'debit', 'credit', 'balance'];

/** Keys of `LineItem.cells`: the header text, made unique, or `column_N` where a column has none. */
export function cellKeys(map: ColumnMap): string[] {
  const seen = new Map<string, number>();
  return map.headers.map((h, c) => {
    const base = h || `column_${c + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** Reads rows of `grid` as items; `convs[col]` is the decimal convention of each column. */
export function readRows(
  grid: Grid,
  tableIndex: number,
  map: ColumnMap,
  convs: (Convention | null)[],
  fallbackCurrency: string | null,
): TableRows {
  const col = (r: ColumnRole) => map.roles.indexOf(r);
  const keys = cellKeys(map);
  const qcol = map.roles.indexOf('quantity');
  const num = (t: string, c: number) => (t ? (c === qcol ? parseQuantity : parseNumber)(t, convs[c] ?? null) : null);
  const isNumberCol = (c: number) => map.roles[c] !== null && NUMBER_ROLES.includes(map.roles[c]!);
  const headerCurrency = map.headers.map((h) => currencyOf(h)).find((c) => c) ?? null;

  const stripPosition = dc0(map) >= 0 && startsWithPosition(map.headers[dc0(map)]!);
  const items: LineItem[] = [];
  const summaries: SummaryLine[] = [];
  const raw: RawRow[] = [];
  let ended = false;
  for (let r = map.headerRows; r < grid.rows; r++) {
    const texts = Array.from({ length: grid.cols }, (_, c) => grid.text(r, c));
    if (texts.every((t) => !t)) continue;
    const boxes = texts.flatMap((t, c) => (t ? [grid.at(r, c)!.bbox] : []));
    const summary = readSummaryRow(texts, map, num);
    if (summary) {
      summaries.push(summary);
      // After the total nothing is an item (notes, payment terms); a carried-forward line is not an end.
      // Subtotals may close sections of items (`Subtotal hardware`, then more items), so only a total ends the items.
      if (summary.kind === 'total' || summary.kind === 'balance_close') ended = true;
      continue;
    }
    if (ended) continue;
    raw.push({ row: r, texts, boxes, page: rowPage(grid.table, r) });
  }

  // Fold rows without numbers: into the next row when it has numbers but no description (the
  // description printed above its figures), else into the row above (a wrapped description).
  const hasNumbers = (x: RawRow) => x.texts.some((t, c) => isNumberCol(c) && num(t, c) !== null);
  const rows: RawRow[][] = [];
  const dc = col('description');
  for (let i = 0; i < raw.length; i++) {
    const x = raw[i]!;
    if (hasNumbers(x)) {
      const prev = rows[rows.length - 1];
      if (prev && !prev.some(hasNumbers) && dc >= 0 && !x.texts[dc]) prev.push(x);
      else rows.push([x]);
      continue;
    }
    const next = raw[i + 1];
    if (next && hasNumbers(next) && dc >= 0 && !next.texts[dc]) rows.push([x]);
    else if (rows.length) rows[rows.length - 1]!.push(x);
    // A text-only row before any item is a section title, not an item.
  }

  // Statements: each balance should be the one before plus the signed amount.
  const bc = col('balance');
  let balance = summaries.find((x) => x.kind === 'balance_open')?.value ?? null;
  for (const group of rows) {
    if (!group.some(hasNumbers)) continue;
    const merged = Array.from({ length: grid.cols }, (_, c) =>
      group
        .map((x) => x.texts[c]!)
        .filter(Boolean)
        .join('\n'),
    );
    const first = group.find(hasNumbers)!;
    const value = (role: ColumnRole): number | null => {
      const c = col(role);
      return c >= 0 ? (num(first.texts[c]!, c)?.value ?? null) : null;
    };
    let amount = value('amount');
    const debit = value('debit');
    const credit = value('credit');
    if (amount === null && (debit !== null || credit !== null)) amount = cents((credit ?? 0) - Math.abs(debit ?? 0));
    let quantity = value('quantity');
    let description = dc >= 0 && merged[dc] ? describe(merged[dc]!, stripPosition) : null;
    // A receipt's `2 x Coffee`: the count is printed before the description, not in a column.
    const counted = quantity === null && description ? COUNT_PREFIX.exec(description) : null;
    if (counted) [quantity, description] = [parseNumber(counted[1]!, convs[dc] ?? null)?.value ?? null, counted[2]!];
    const unitPrice = value('unit_price');
    const cc = col('currency');
    const currency =
      (cc >= 0 ? currencyOf(merged[cc]!) : null) ??
      first.texts.map((t, c) => (isNumberCol(c) && t ? currencyOf(t) : null)).find((x) => x) ??
      headerCurrency ??
      fallbackCurrency;
    const flags: string[] = [];
    if (quantity !== null && unitPrice !== null && amount !== null) {
      const expected = discounted(quantity * unitPrice, col('discount') >= 0 ? first.texts[col('discount')]! : '', convs[col('discount')] ?? null);
      if (Math.abs(expected - amount) > 0.01 + 1e-9 && Math.abs(quantity * unitPrice - amount) > 0.01 + 1e-9) flags.push('amount_mismatch');
    }
    if (bc >= 0) {
      const shown = num(first.texts[bc]!, bc)?.value ?? null;
      if (shown !== null && balance !== null && amount !== null && Math.abs(cents(balance + amount) - shown) > 0.011) flags.push('balance_mismatch');
      balance = shown ?? (balance !== null && amount !== null ? cents(balance + amount) : null);
    }
    const cells: Record<string, string> = {};
    keys.forEach((k, c) => (cells[k] = merged[c]!));
    items.push({
      table_index: tableIndex,
      row: group[0]!.row,
      description,
      quantity,
      unit_price: unitPrice,
      amount,
      currency,
      cells,
      page: group[0]!.page,
      bbox: unionBox(group.flatMap((x) => x.boxes)),
      flags,
    });
  }
  return { items, summaries };
}

const dc0 = (map: ColumnMap) => map.roles.indexOf('description');

/** `2 x Coffee`, `3× Bagel`, `2 * Brötchen`: a count, a times sign, the description. */
const COUNT_PREFIX = /^(\d{1,4}(?:[.,]\d{1,3})?)\s*[xX×*]\s+(\S.*)$/u;

/** The description as one line; under a merged `Pos. Bezeichnung` header, without the position number. */
function describe(text: string, stripPosition: boolean): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return stripPosition ? one.replace(/^\d{1,4}\.?\s+(?=\S)/, '') : one;
}

/** `gross` after a discount cell: `10 %` takes a tenth off, a plain number is subtracted. */
function discounted(gross: number, text: string, conv: Convention | null): number {
  const d = text ? parseNumber(text, conv) : null;
  if (!d) return gross;
  return d.percent ? gross * (1 - d.value / 100) : gross - Math.abs(d.value);
}

/** A row whose label is a summary word and which has no quantity: its value is the amount, else the rightmost number. */
function readSummaryRow(
  texts: string[],
  map: ColumnMap,
  num: (t: string, c: number) => ReturnType<typeof parseNumber>,
): SummaryLine | null {
  const labels = texts.filter((t, c) => t && !num(t, c));
  const label = labels.join(' ');
  const kind = labels.length ? (summaryKind(labels[0]!) ?? summaryKind(label)) : null;
  if (!kind) return null;
  // An item that merely starts with a summary word (`Tax advice`, `Total station rental`) has a
  // quantity and a unit price; a `Total` row that sums the quantities has no unit price.
  const qc = map.roles.indexOf('quantity');
  const pc = map.roles.indexOf('unit_price');
  const hasQty = qc >= 0 && !!texts[qc] && !!num(texts[qc]!, qc);
  const hasPrice = pc >= 0 && !!texts[pc] && !!num(texts[pc]!, pc);
  if (hasQty && (hasPrice || pc < 0)) return null;
  const ac = map.roles.indexOf('amount');
  let parsed = ac >= 0 && texts[ac] ? num(texts[ac]!, ac) : null;
  for (let c = texts.length - 1; c >= 0 && (!parsed || parsed.percent); c--) {
    const n = texts[c] ? num(texts[c]!, c) : null;
    if (n && !n.percent) parsed = n;
  }
  if (parsed?.percent) parsed = null;
  // `Total 1.234,56` may sit in one cell when the summary text spans the columns.
  if (!parsed) {
    const m = /(-?\(?[€$£¥]?\s*\d[\d.,' ]*\)?-?\s*(?:円|[A-Z]{3})?)\s*$/u.exec(label);
    if (m) parsed = parseNumber(m[1]!, map.roles.indexOf('amount') >= 0 ? null : null);
  }
  return { kind, label, value: parsed?.value ?? null, currency: parsed?.currency ?? null };
}

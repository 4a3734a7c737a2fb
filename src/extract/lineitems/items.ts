/**
 * The rows of an item table as line items: numbers read with the column's convention, wrapped
 * description lines folded into their item, summary rows set aside.
 */
import type { BBox, LineItem, PageLayout } from '../types.js';
import type { ColumnMap } from './columns.js';
import { rowPage, unionBox, type Grid } from './grid.js';
import { WITH_CENTS, cents, currencyOf, parseNumber, withinACent, type Convention } from '../locale/numbers.js';
import { cellNumber } from './cells.js';
import { splitMergedRow } from './merged.js';
import type { SummaryLine } from './summary.js';
import { isChargeLabel, namesRate, startsWithPosition, summaryKind, type ColumnRole } from './vocabulary.js';
import { multiplies, unglue } from './glued.js';

/** One table's contribution: its items and the summary rows found inside it. */
export interface TableRows {
  items: LineItem[];
  summaries: SummaryLine[];
  /** Items whose amount is printed without the decimal mark its column prints (`600` among `4.50`, `6.00`), left as read. */
  markLost: LineItem[];
}

interface RawRow {
  row: number;
  texts: string[];
  boxes: BBox[];
  page: number;
  /** A sub-row (`Charges: vCPU 50.00` under its service): kept in the item's cells, not in its description. */
  sub?: boolean;
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
  pages: PageLayout[] = [],
): TableRows {
  const col = (r: ColumnRole) => map.roles.indexOf(r);
  const keys = cellKeys(map);
  const qcol = map.roles.indexOf('quantity');
  // Eight digits and more without a mark (an EAN, an article number) are no count and no price.
  const num = (t: string, c: number) => (t && !/^\d{8,}$/.test(t.trim()) ? cellNumber(t, convs[c] ?? null, c === qcol) : null);
  const isNumberCol = (c: number) => map.roles[c] !== null && NUMBER_ROLES.includes(map.roles[c]!);
  const headerCurrency = map.headers.map((h) => currencyOf(h)).find((c) => c) ?? null;

  const stripPosition = dc0(map) >= 0 && startsWithPosition(map.headers[dc0(map)]!);
  const items: LineItem[] = [];
  const summaries: SummaryLine[] = [];
  const markLost: LineItem[] = [];
  const raw: RawRow[] = [];
  let ended = false;
  // Inside the block under a subtotal or tax line, until a row with a count or a price opens more items.
  let inSummary = false;
  let priced = false;
  const qc = col('quantity');
  const pc = col('unit_price');
  const has = (texts: string[], c: number) => c >= 0 && !!texts[c] && num(texts[c]!, c) !== null;
  const dc = col('description');
  const key = [col('amount'), col('debit'), col('credit')].find((c) => c >= 0) ?? -1;
  const figureCols = map.roles.flatMap((role, c) => (role && NUMBER_ROLES.includes(role) && c !== key ? [c] : []));
  const rowsOf = (r: number): { texts: string[]; boxes: BBox[] }[] => {
    const texts = Array.from({ length: grid.cols }, (_, c) => grid.text(r, c));
    const figure = (t: string, c: number) => num(t, c)?.percent === false;
    const page = pages.find((p) => p.page === rowPage(grid.table, r));
    const split = key >= 0 ? splitMergedRow(texts, key, figureCols, figure, (c) => grid.at(r, c)?.bbox ?? null, page) : null;
    // Each item line has its own text; two figures beside one text are not two items (a net and a gross, say).
    if (split && split.every((x) => dc < 0 || x.texts[dc])) return split;
    return [{ texts, boxes: texts.flatMap((t, c) => (t ? [grid.at(r, c)!.bbox] : [])) }];
  };
  // Columns most of whose figures print cents (`12.50`, `1.234,00`).
  const printsCents = map.roles.map((_, c) => {
    const texts = Array.from({ length: grid.rows - map.headerRows }, (_, i) => grid.text(map.headerRows + i, c)).filter((t) => /\d/.test(t));
    return texts.length >= 2 && texts.filter((t) => WITH_CENTS.test(t)).length * 2 > texts.length;
  });
  const body: { r: number; texts: string[]; boxes: BBox[] }[] = [];
  const gluedCols = { quantity: qc, unit_price: pc, amount: col('amount') };
  const rateHeader = (c: number) => namesRate(map.headers[c]!);
  for (let r = map.headerRows; r < grid.rows; r++) {
    for (const part of rowsOf(r)) body.push({ r, ...part, texts: unglue(part.texts, gluedCols, num, (c) => convs[c] ?? null, rateHeader) });
  }
  for (const { r, texts, boxes } of body) {
    if (texts.every((t) => !t)) continue;
    const summary = readSummaryRow(texts, map, num);
    if (summary) {
      summaries.push(summary);
      // After the total nothing is an item (notes, payment terms); a carried-forward line is not an end.
      // Subtotals may close sections of items (`Subtotal hardware`, then more items), so only a total ends the items.
      if (summary.kind === 'total' || summary.kind === 'balance_close') ended = true;
      if (summary.kind === 'subtotal' || summary.kind === 'tax') inSummary = true;
      continue;
    }
    if (ended) continue;
    // A receipt's adjustment and payment lines (rounding, service charge, cash, change) are not items.
    if (dc >= 0 && ADJUSTMENT.test(texts[dc]!.trim())) continue;
    const counted = has(texts, qc) || has(texts, pc);
    if (!counted && isChargeRow(texts, num)) {
      // A charge under a title line without figures (`Compute service`, then `Charges $45.10`) is that
      // title's amount; under an item, or below the items, it repeats an item or adjusts the total.
      const last = raw[raw.length - 1];
      const page = rowPage(grid.table, r);
      const breakdown = SUB_ROW.test(texts.filter(Boolean).join(' '));
      if (last && breakdown && !last.texts.some((t, c) => isNumberCol(c) && num(t, c) !== null)) raw.push({ row: r, texts: texts.map((t, c) => (isNumberCol(c) ? t : '')), boxes, page });
      // `Charges: vCPU` under its service: a breakdown kept in the item's cells.
      else if (last && breakdown) raw.push({ row: r, texts, boxes, page, sub: true });
      continue;
    }
    // Under the subtotal of items that had counts or prices, a line with neither (shipping,
    // rounding, `Rechnungssumme brutto`, a payment note) belongs to the totals, not the items.
    if (inSummary && priced && !counted) continue;
    inSummary = false;
    priced ||= counted;
    raw.push({ row: r, texts, boxes, page: rowPage(grid.table, r) });
  }

  // Fold rows without numbers: into the next row when it has numbers but no description (the
  // description printed above its figures), else into the row above (a wrapped description) —
  // unless the items open with a title line (`PRESTATION SUPPORT`, then its figures with their
  // own details): then each title belongs to the row below it.
  const hasNumbers = (x: RawRow) => x.texts.some((t, c) => isNumberCol(c) && num(t, c) !== null);
  const ac = col('amount');
  const rows: RawRow[][] = [];
  // One item whose own text is only its period or dates (`Période de 01/01/2023 au 31/01/2023`)
  // under a text-only first row: that row is the item's title, not a section's.
  const detailOnly = raw.length >= 2 && !hasNumbers(raw[0]!) && hasNumbers(raw[1]!) && raw.filter(hasNumbers).length === 1 && dc >= 0 && DETAIL_LINE.test(raw[1]!.texts[dc]!.trim());
  const titled = opensWithTitles(raw.map(hasNumbers)) || detailOnly;
  for (let i = 0; i < raw.length; i++) {
    const x = raw[i]!;
    const prev = rows[rows.length - 1];
    // A group of text rows still waiting for its figures.
    const open = !!prev && !prev.some(hasNumbers);
    if (x.sub) {
      prev?.push(x);
      continue;
    }
    if (hasNumbers(x)) {
      if (open && dc >= 0 && (titled || !x.texts[dc])) prev!.push(x);
      // Figures without text under a row of figures that has no amount: the rest of that item's figures.
      else if (prev && dc >= 0 && !x.texts[dc] && ac >= 0 && num(x.texts[ac]!, ac) !== null && !prev.some((p) => num(p.texts[ac]!, ac) !== null)) prev.push(x);
      else rows.push([x]);
      continue;
    }
    const next = raw[i + 1];
    if (titled) {
      if (open) prev!.push(x);
      else if (next) rows.push([x]);
      else prev?.push(x);
      continue;
    }
    if (next && hasNumbers(next) && dc >= 0 && !next.texts[dc]) rows.push([x]);
    else prev?.push(x);
    // A text-only row before any item is a section title, not an item.
  }

  foldSubRows(rows, (x, role) => {
    const c = col(role);
    return c >= 0 ? (num(x.texts[c]!, c)?.value ?? null) : null;
  });

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
    // An item's figures may stand on two lines (a count beside its text, the prices under it).
    const figureText = (role: ColumnRole): string => {
      const c = col(role);
      return c < 0 ? '' : (group.find((x) => !x.sub && num(x.texts[c]!, c) !== null)?.texts[c] ?? first.texts[c]!);
    };
    const value = (role: ColumnRole): number | null => {
      const c = col(role);
      return c >= 0 ? (num(figureText(role), c)?.value ?? null) : null;
    };
    let amount = value('amount');
    const debit = value('debit');
    const credit = value('credit');
    if (amount === null && (debit !== null || credit !== null)) amount = cents((credit ?? 0) - Math.abs(debit ?? 0));
    let quantity = value('quantity');
    const own = dc >= 0 ? group.filter((x) => !x.sub).map((x) => x.texts[dc]!).filter(Boolean).join('\n') : '';
    let description = own ? describe(own, stripPosition) : null;
    // A receipt's `2 x Coffee`: the count is printed before the description, not in a column.
    const counted = quantity === null && description ? COUNT_PREFIX.exec(description) : null;
    if (counted) [quantity, description] = [parseNumber(counted[1]!, convs[dc] ?? null)?.value ?? null, counted[2]!];
    let unitPrice = value('unit_price');
    // A figure whose decimal mark the scan lost (`600` for `6.00`) in a column that prints cents:
    // a hundredth of it, where that makes quantity × unit price = amount.
    const lost = (role: ColumnRole) => col(role) >= 0 && printsCents[col(role)]! && /^\D*\d{3,}\D*$/.test(figureText(role));
    if (amount !== null && lost('amount') && !multiplies(quantity, unitPrice, amount) && multiplies(quantity, unitPrice, amount / 100)) amount = cents(amount / 100);
    if (unitPrice !== null && lost('unit_price') && !multiplies(quantity, unitPrice, amount) && multiplies(quantity, unitPrice / 100, amount)) unitPrice = cents(unitPrice / 100);
    const cc = col('currency');
    const currency =
      (cc >= 0 ? currencyOf(merged[cc]!) : null) ??
      first.texts.map((t, c) => (isNumberCol(c) && t ? currencyOf(t) : null)).find((x) => x) ??
      headerCurrency ??
      fallbackCurrency;
    const flags: string[] = [];
    if (quantity !== null && unitPrice !== null && amount !== null) {
      const disc = col('discount');
      const expected = discounted(quantity * unitPrice, disc >= 0 ? first.texts[disc]! : '', convs[disc] ?? null, disc >= 0 && map.headers[disc]!.includes('%'));
      if (Math.abs(expected - amount) > 0.01 + 1e-9 && Math.abs(quantity * unitPrice - amount) > 0.01 + 1e-9) flags.push('amount_mismatch');
    }
    if (bc >= 0) {
      const shown = num(first.texts[bc]!, bc)?.value ?? null;
      if (shown !== null && balance !== null && amount !== null && !withinACent(cents(balance + amount), shown)) flags.push('balance_mismatch');
      balance = shown ?? (balance !== null && amount !== null ? cents(balance + amount) : null);
    }
    const cells: Record<string, string> = {};
    keys.forEach((k, c) => (cells[k] = merged[c]!));
    const item: LineItem = {
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
    };
    items.push(item);
    // Without a count and a price, only the items' sum can tell (index.ts).
    if (amount !== null && lost('amount') && (quantity === null || unitPrice === null)) markLost.push(item);
  }
  return { items, summaries, markLost };
}

const dc0 = (map: ColumnMap) => map.roles.indexOf('description');

/**
 * Whether the items open with a title line above their figures: the first row is text only and
 * most rows with figures (two at least) come right after a text-only row. A section title before
 * the first of several items, or wrapped lines under the items, do not make that pattern.
 */
function opensWithTitles(numbered: boolean[]): boolean {
  if (numbered.length < 2 || numbered[0]) return false;
  let titled = 0;
  for (let i = 1; i < numbered.length; i++) if (numbered[i] && !numbered[i - 1]) titled++;
  const items = numbered.filter(Boolean).length;
  return titled >= 2 && titled * 2 > items;
}

/** Lines under a receipt's items that adjust or pay the total; `Discount 10 %` on an item line has a count or a price and stays. */
const ADJUSTMENT =
  /^(rounding|round(ing)? adj|serv(ice)? charge|serv(ice)? chg|srv chg|svc chg|\d+\s*% (service|serv|srv|svc)|total qty|total items|qty\.?\s*\d+$|cash|change|tendered|discount\s*:?$|rundung|trinkgeld|arrondi|redondeo)(?![a-zà-ÿ])/i;

/** An item line that gives only when (`Période de 01/01/2023 au 31/01/2023`, `Leistungszeitraum: 01.03.–31.03.2024`, `01/03/2024 - 31/03/2024`). */
const DETAIL_LINE = /^(?:p[ée]riode?|period|service period|billing period|zeitraum|leistungszeitraum|abrechnungszeitraum|periodo|per[íi]odo)\b|^(?:du|from|vom|van|dal|del|de)?\s*\d{1,2}[./-]\d{1,2}[./-]?(?:\d{2,4})?\s*(?:-|–|au|to|bis|à|tot|al|a)\s*\d{1,2}[./-]\d{1,2}/i;

/** Words that open a sub-row of the item above: a breakdown of its charge, not an item of its own. */
const SUB_ROW = /^(charges?|usage|includes?|including|of which|davon|inkl\.?|dont|incluye|waarvan|di cui)\b/i;

/**
 * Folds sub-rows into their item: rows with an amount but neither quantity nor unit price, under
 * an item that has them, which open with a breakdown word (`Charges: vCPU`) or whose amounts add
 * up to the item's (a cloud bill's per-resource charges).
 */
function foldSubRows(rows: RawRow[][], value: (x: RawRow, role: ColumnRole) => number | null): void {
  const lead = (g: RawRow[]) => g[0]!;
  const priced = (g: RawRow[]) => value(lead(g), 'quantity') !== null || value(lead(g), 'unit_price') !== null;
  const text = (g: RawRow[]) => lead(g).texts.filter(Boolean).join(' ');
  for (let i = 0; i < rows.length; i++) {
    const total = value(lead(rows[i]!), 'amount');
    if (!priced(rows[i]!) || total === null) continue;
    let j = i + 1;
    let sum = 0;
    while (j < rows.length && !priced(rows[j]!) && value(lead(rows[j]!), 'amount') !== null) sum = cents(sum + value(lead(rows[j++]!), 'amount')!);
    const n = j - i - 1;
    const marked = rows.slice(i + 1, j).every((g) => SUB_ROW.test(text(g)));
    if (n === 0 || !(marked || (n >= 2 && withinACent(sum, total)))) continue;
    for (const g of rows.splice(i + 1, n)) rows[i]!.push(...g.map((x) => ({ ...x, sub: true })));
  }
}

/** A row whose text is a charge or deduction label (`Charges`, `Shipping`, `Remise HT`) beside its figures. */
function isChargeRow(texts: string[], num: (t: string, c: number) => ReturnType<typeof parseNumber>): boolean {
  const labels = texts.filter((t, c) => t && !num(t, c));
  return labels.length > 0 && texts.some((t, c) => t && num(t, c)) && isChargeLabel(labels.join(' '));
}

/** `2 x Coffee`, `3× Bagel`, `2 * Brötchen`: a count, a times sign, the description. */
const COUNT_PREFIX = /^(\d{1,4}(?:[.,]\d{1,3})?)\s*[xX×*]\s+(\S.*)$/u;

/**
 * The description as one line; a line printed twice in a row (a name and an identical
 * description) once; under a merged `Pos. Bezeichnung` header, without the position number.
 */
function describe(text: string, stripPosition: boolean): string {
  const lines = text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const one = lines.filter((l, i) => i === 0 || l !== lines[i - 1]).join(' ');
  return stripPosition ? one.replace(/^\d{1,4}\.?\s+(?=\S)/, '') : one;
}

/** `gross` after a discount cell: `10 %` (or 10 under a `Disc.%` header) takes a tenth off, a plain number is subtracted. */
function discounted(gross: number, text: string, conv: Convention | null, percentHeader: boolean): number {
  const d = text ? parseNumber(text, conv) : null;
  if (!d) return gross;
  return d.percent || percentHeader ? gross * (1 - d.value / 100) : gross - Math.abs(d.value);
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

/**
 * Which rows of a table are its header and what each column holds: first from the header words
 * (vocabulary.ts), then, for what the header leaves open or a table without one, from how numeric
 * each column is and whether quantity × unit price = amount holds across its rows.
 */
import type { Grid } from './grid.js';
import { isNumeric, normalizeText, parseNumber, withinACent } from '../locale/numbers.js';
import { cellNumber, cellNumberAny, stackedNumber } from './cells.js';
import { isRate, twoFigures } from './glued.js';
import { VAT_RATES, headerLang, headerRole, summaryKind, type ColumnRole, type Lang } from './vocabulary.js';

/** How a table's columns were read. `roles[col]` is null for a column we do not use. */
export interface ColumnMap {
  headerRows: number;
  headers: string[];
  roles: (ColumnRole | null)[];
  /** Languages of the header words, most frequent first. */
  langs: Lang[];
  /** How much this looks like an item table (0 = not at all). */
  score: number;
}

/**
 * Header rows as [first, end): the rows among the first four with ≥ 2 different header words
 * and none a number; a title row above them (`Items`) is not part of the header. Without such a
 * row, or where those name neither the text nor a price or an amount, a row further down naming
 * the text, a price or an amount and one more column; else the detector's `header_rows`.
 */
export function headerRange(grid: Grid): [number, number] {
  let first = -1;
  let end = 0;
  let named = new Set<ColumnRole>();
  for (let r = 0; r < Math.min(4, grid.rows); r++) {
    // Distinct roles, so a title cell spanning the columns (`Items`) does not count once per column.
    const roles = new Set<ColumnRole>();
    let numbers = 0;
    for (let c = 0; c < grid.cols; c++) {
      const t = grid.text(r, c);
      if (!t) continue;
      const role = isNumeric(t) ? null : headerRole(t);
      if (!role && isNumeric(t)) numbers++;
      else if (role) roles.add(role);
    }
    if (numbers === 0 && roles.size >= 2) {
      if (first < 0) first = r;
      end = r + 1;
      named = new Set([...named, ...roles]);
    } else if (first >= 0) break;
  }
  if (!named.has('description') || !(named.has('amount') || named.has('unit_price'))) {
    // An item table the detector joined to the block above it (references, addresses): its
    // header further down, naming the text, a price or amount and one more column.
    for (let r = 4; r < grid.rows - 1; r++) {
      const roles = new Set<ColumnRole>();
      for (let c = 0; c < grid.cols; c++) {
        const t = grid.text(r, c);
        const role = t && !isNumeric(t) ? headerRole(t) : null;
        if (role) roles.add(role);
      }
      if (roles.size >= 3 && roles.has('description') && (roles.has('amount') || roles.has('unit_price'))) return [r, r + 1];
    }
  }
  return first >= 0 ? [first, end] : [0, Math.min(grid.table.header_rows, grid.rows)];
}

interface ColumnStats {
  filled: number;
  numeric: number;
  percent: number;
  integers: number[];
  values: number[];
  letters: number;
  /** Cells holding a rate and a figure side by side (`19 % 573,00`). */
  glued: number;
}

function stats(grid: Grid, col: number, from: number, quantity: boolean): ColumnStats {
  const s: ColumnStats = { filled: 0, numeric: 0, percent: 0, integers: [], values: [], letters: 0, glued: 0 };
  for (let r = from; r < grid.rows; r++) {
    const t = grid.text(r, col);
    if (!t || rowIsSummary(grid, r)) continue;
    s.filled++;
    const pair = twoFigures(t, 'dot') ?? twoFigures(t, 'comma');
    if (pair && isRate(pair[0].n)) s.glued++;
    const n = cellNumberAny(t, quantity) ?? stackedNumber(t, quantity) ?? pair?.[1].n;
    if (n) {
      s.numeric++;
      s.values.push(n.value);
      if (n.percent) s.percent++;
      if (Number.isInteger(n.value) && !/[.,]/.test(t)) s.integers.push(n.value);
    } else {
      s.letters += (normalizeText(t).match(/\p{L}/gu) ?? []).length;
    }
  }
  return s;
}

const summaryRowsCache = new WeakMap<Grid, boolean[]>();

/** Whether row `r` is a summary row; computed once per grid (stats ask for every column). */
function rowIsSummary(grid: Grid, r: number): boolean {
  let rows = summaryRowsCache.get(grid);
  if (!rows) {
    // A summary row has a label and one figure (two with a rate); `Tax advice 2 100.00 200.00` is an item.
    rows = Array.from({ length: grid.rows }, (_, row) => {
      let label = false;
      let figures = 0;
      for (let c = 0; c < grid.cols; c++) {
        const t = grid.text(row, c);
        if (!t) continue;
        const n = parseNumber(t, 'dot') ?? parseNumber(t, 'comma');
        if (n && !n.percent) figures++;
        else if (!n && summaryKind(t)) label = true;
      }
      return label && figures <= 1;
    });
    summaryRowsCache.set(grid, rows);
  }
  return rows[r]!;
}

/** Whether row `r` is a subtotal, tax or total line with its figure (not a carried-forward or opening balance). */
function opensWithTotal(grid: Grid, r: number): boolean {
  if (r >= grid.rows || !rowIsSummary(grid, r)) return false;
  for (let c = 0; c < grid.cols; c++) {
    const t = grid.text(r, c);
    if (t && !isNumeric(t)) return ['subtotal', 'tax', 'total'].includes(summaryKind(t) ?? '');
  }
  return false;
}

function isNumericColumn(s: ColumnStats): boolean {
  return s.filled > 0 && s.numeric / s.filled >= 0.6 && s.percent / s.filled < 0.5;
}

/** A column of VAT rates printed without `%`: two figures or more, every one a common rate, two different ones at most. */
function isRateColumn(s: ColumnStats): boolean {
  return s.values.length >= 2 && s.values.every((v) => VAT_RATES.has(v)) && new Set(s.values).size <= 2;
}

/** 1, 2, 3, … (or 10, 20, 30): a position column, not a quantity. */
function isSequence(s: ColumnStats): boolean {
  const v = s.integers;
  if (v.length < 2 || v.length !== s.filled) return false;
  const step = v[1]! - v[0]!;
  return step > 0 && v.every((x, i) => i === 0 || x - v[i - 1]! === step);
}

/** Rows in which columns q × p = a within a cent (read with either convention: this is only a test). */
function productHits(grid: Grid, from: number, q: number, p: number, a: number): number {
  let hits = 0;
  for (let r = from; r < grid.rows; r++) {
    const [tq, tp, ta] = [grid.text(r, q), grid.text(r, p), grid.text(r, a)];
    if (!tq || !tp || !ta) continue;
    for (const conv of ['dot', 'comma'] as const) {
      const [nq, np, na] = [cellNumber(tq, conv, true), cellNumber(tp, conv), cellNumber(ta, conv)];
      if (nq && np && na && withinACent(nq.value * np.value, na.value)) {
        hits++;
        break;
      }
    }
  }
  return hits;
}

const WEIGHT: Partial<Record<ColumnRole, number>> = {
  description: 2,
  quantity: 2,
  unit_price: 2,
  amount: 3,
  debit: 2,
  credit: 2,
  balance: 1,
  date: 0.5,
};

/** Roles a line item takes one column of; the others (a VAT rate, a tax, a unit, a code) may stand in several columns. */
const ONE_COLUMN: ColumnRole[] = ['description', 'quantity', 'unit_price', 'amount', 'currency', 'debit', 'credit', 'balance', 'date'];

/** Header words that name the item's text, and words that name a code or number column. */
const TEXT_HEADER = /(desc|bezeichnung|beschreibung|d[ée]signation|libell[ée]|omschrijving|descrizione|descri[çc][ãa]o|concepto|\bname\b|\bnom\b|\bnaam\b|\bnombre\b|品名|内容|摘要)/i;
const CODE_HEADER = /(\bcode\b|\bref|r[ée]f[ée]rence|\bnr\b|\bno\b|number|nummer|\bean\b|\bgtin\b|\bsku\b|#|código|codice|^(item|artikel|article|art[ií]culo)\b)/i;

/**
 * Keeps one column per role a line item reads (a column another role may still claim is left
 * free only then): for amount the net one if marked, else the rightmost; for the description the
 * column its header names for text rather than a code, else the one with the most letters; else
 * the leftmost.
 */
function dedupeRoles(roles: (ColumnRole | null)[], headers: string[], letters: number[]): void {
  const seen = new Map<ColumnRole, number[]>();
  roles.forEach((r, c) => r && seen.set(r, [...(seen.get(r) ?? []), c]));
  for (const [role, cols] of seen) {
    if (cols.length < 2 || !ONE_COLUMN.includes(role)) continue;
    let keep = cols[0]!;
    if (role === 'description') {
      const score = (c: number) => (TEXT_HEADER.test(headers[c]!) ? 2 : 0) - (CODE_HEADER.test(headers[c]!) ? 2 : 0);
      for (const c of cols) if (score(c) > score(keep) || (score(c) === score(keep) && letters[c]! > letters[keep]!)) keep = c;
    }
    if (role === 'amount') {
      const net = cols.find((c) => /(net|excl|exkl|ht\b|sin iva|税抜)/i.test(headers[c]!));
      keep = net ?? cols[cols.length - 1]!;
    }
    for (const c of cols) if (c !== keep) roles[c] = null;
  }
}

/** Reads the header and the columns of `grid`, and scores it as an item table. */
export function mapColumns(grid: Grid, inherited?: ColumnMap): ColumnMap {
  const [headerFrom, headerEnd] = headerRange(grid);
  let headerRows = headerEnd;
  if (inherited && headerRows === 0) {
    // A continuation on the next page without a repeated header: the first table's header applies.
    return { ...inherited, headerRows: 0, roles: [...inherited.roles], headers: [...inherited.headers] };
  }
  const headers: string[] = [];
  for (let c = 0; c < grid.cols; c++) {
    const parts: string[] = [];
    for (let r = headerFrom; r < headerRows; r++) {
      const cell = grid.at(r, c);
      if (cell && cell.text.trim() && !parts.includes(cell.text.trim())) parts.push(cell.text.trim());
    }
    headers.push(normalizeText(parts.join(' ')));
  }
  const roles = headers.map((h) => (h ? headerRole(h) : null));
  if (headerRows > 0 && roles.every((r) => r === null)) headerRows = 0;
  const colStats = headers.map((_, c) => stats(grid, c, headerRows, roles[c] === 'quantity' || roles[c] === 'unit'));
  const numeric = colStats.map(isNumericColumn);

  dedupeRoles(roles, headers, colStats.map((x) => x.letters));
  // `Units` / `Einheit` holding numbers where no column is the quantity: that is the quantity.
  const unitCol = roles.indexOf('unit');
  if (unitCol >= 0 && !roles.includes('quantity') && numeric[unitCol]) roles[unitCol] = 'quantity';
  // A header word on a column of text is not a quantity or price (e.g. `Rate` holding `hourly`).
  for (const role of ['quantity', 'unit_price', 'amount'] as const) {
    const c = roles.indexOf(role);
    if (c >= 0 && colStats[c]!.filled > 0 && colStats[c]!.numeric === 0) roles[c] = null;
  }
  // A tax rate and the amount beside it read as one column (`MwSt Gesamt`: `19 % 573,00`): the amount.
  const glued = roles.findIndex((r, c) => (r === 'tax' || r === 'vat_rate') && colStats[c]!.glued * 2 > colStats[c]!.filled);
  if (glued >= 0 && !roles.includes('amount')) roles[glued] = 'amount';
  fillFromNumbers(grid, headerRows, roles, colStats, numeric);
  settleByArithmetic(grid, headerRows, roles, colStats);

  const langCount = new Map<Lang, number>();
  for (const h of headers) {
    const l = headerLang(h);
    if (l) langCount.set(l, (langCount.get(l) ?? 0) + 1);
  }
  const langs = [...langCount.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l);

  const moneyCol = roles.findIndex((r) => r === 'amount' || r === 'unit_price' || r === 'debit' || r === 'credit');
  const bodyRows = grid.rows - headerRows;
  // Tax by rate (rate, base, tax) or a row of totals (net, VAT, gross): figures, but no item text and no count.
  const breakdown = (roles.includes('tax') || roles.includes('vat_rate')) && !roles.includes('description') && !roles.includes('quantity');
  // A block of totals (`Montant Total HT 1.245,30`, `Remise HT 0,00`, …): its first row is a total with its figure.
  const totalsBlock = opensWithTotal(grid, headerFrom) || (bodyRows > 0 && opensWithTotal(grid, headerRows));
  let score = 0;
  if (moneyCol >= 0 && colStats[moneyCol]!.numeric > 0 && bodyRows > 0 && !breakdown && !totalsBlock) {
    const fromHeader = headerRows > 0 ? 1 : 0.5;
    for (const r of new Set(roles)) if (r) score += (WEIGHT[r] ?? 0) * fromHeader;
    score += Math.min(2, colStats[moneyCol]!.numeric * 0.2);
  }
  return { headerRows, headers, roles, langs, score };
}

/** Assigns description / quantity / unit price / amount where the header did not. */
function fillFromNumbers(
  grid: Grid,
  from: number,
  roles: (ColumnRole | null)[],
  s: ColumnStats[],
  numeric: boolean[],
): void {
  const free = (c: number) => roles[c] === null;
  if (!roles.includes('description')) {
    let best = -1;
    for (let c = 0; c < grid.cols; c++) {
      if (free(c) && !numeric[c] && s[c]!.letters > 0 && (best < 0 || s[c]!.letters > s[best]!.letters)) best = c;
    }
    if (best >= 0) roles[best] = 'description';
  }
  const desc = roles.indexOf('description');
  const cand: number[] = [];
  for (let c = 0; c < grid.cols; c++) {
    if (!numeric[c] || c < desc) continue;
    if (free(c) && isSequence(s[c]!) && cand.length === 0 && c < grid.cols - 2) {
      roles[c] = 'position';
      continue;
    }
    if (free(c) || roles[c] === 'quantity' || roles[c] === 'unit_price' || roles[c] === 'amount') cand.push(c);
  }
  const has = (r: ColumnRole) => roles.includes(r);
  if (has('debit') || has('credit') || (has('quantity') && has('unit_price') && has('amount'))) return;
  // Try every left-to-right triple for quantity × unit price = amount; the header's choice, where
  // it made one, must be kept.
  let best: [number, number, number] | null = null;
  let bestHits = 0;
  for (let i = 0; i < cand.length; i++)
    for (let j = i + 1; j < cand.length; j++)
      for (let k = j + 1; k < cand.length; k++) {
        const [q, p, a] = [cand[i]!, cand[j]!, cand[k]!];
        const ok = (c: number, r: ColumnRole) => free(c) || roles[c] === r;
        if (!ok(q, 'quantity') || !ok(p, 'unit_price') || !ok(a, 'amount')) continue;
        const hits = productHits(grid, from, q, p, a);
        if (hits > bestHits) [best, bestHits] = [[q, p, a], hits];
      }
  const bodyRows = Math.max(1, s[cand[cand.length - 1] ?? 0]?.numeric ?? 1);
  if (best && bestHits >= Math.max(1, bodyRows * 0.5)) {
    // q × p is p × q: of the two factors, the one of whole numbers is the quantity.
    const counts = (c: number) => s[c]!.integers.length === s[c]!.numeric;
    if (free(best[0]) && free(best[1]) && counts(best[1]) && !counts(best[0])) best = [best[1], best[0], best[2]];
    [roles[best[0]], roles[best[1]], roles[best[2]]] = ['quantity', 'unit_price', 'amount'];
    return;
  }
  if (!has('amount')) {
    // The rightmost free column of figures, unless it holds VAT rates (19, 7) beside one that does not.
    const open = cand.filter(free);
    const plain = (c: number) => s[c]!.values.some((v) => !VAT_RATES.has(v));
    const a = [...open].reverse().find((c) => !isRateColumn(s[c]!) || !open.some((o) => o < c && plain(o)));
    if (a !== undefined) roles[a] = 'amount';
  }
  const a = roles.indexOf('amount');
  const left = cand.filter((c) => free(c) && c < a);
  if (left.length && !has('quantity') && !has('unit_price')) {
    const c = left[left.length - 1]!;
    // Small whole numbers left of the amount are counts; anything else is a price.
    const counts = s[c]!.integers.length === s[c]!.numeric && s[c]!.integers.every((v) => v < 1000);
    roles[c] = counts ? 'quantity' : 'unit_price';
  }
}

/**
 * Quantity, unit price and amount as their arithmetic says, where a header put them otherwise
 * (a header word read over the wrong column of a scan): the amount is the column that is the
 * product of the other two in most rows; of its two factors, a column of counts is the quantity
 * when the other prints cents.
 */
function settleByArithmetic(grid: Grid, from: number, roles: (ColumnRole | null)[], s: ColumnStats[]): void {
  const cols = (['quantity', 'unit_price', 'amount'] as const).map((r) => roles.indexOf(r));
  if (cols.some((c) => c < 0)) return;
  const [q, p, a] = cols as [number, number, number];
  const rows = Math.max(s[q]!.numeric, s[p]!.numeric, s[a]!.numeric);
  const header = productHits(grid, from, q, p, a);
  let [nq, np, na] = [q, p, a];
  for (const [x, y, z] of [[q, a, p], [p, a, q]] as const) {
    const hits = productHits(grid, from, x, y, z);
    if (hits > header && hits >= Math.max(2, rows * 0.5)) [nq, np, na] = [x, y, z];
  }
  // Prices print cents (`1,180.00`), counts print none (`1`); hours (`7.5`) are counts with a fraction.
  const texts = (c: number) => Array.from({ length: grid.rows - from }, (_, i) => grid.text(from + i, c)).filter((t) => /\d/.test(t));
  const cents = (c: number) => texts(c).length > 0 && texts(c).every((t) => /\d[.,]\d{2}\D*$/.test(t));
  const counts = (c: number) => texts(c).length > 0 && texts(c).every((t) => /^\D*\d+\D*$/.test(t));
  if (cents(nq) && counts(np) && productHits(grid, from, nq, np, na) >= Math.max(1, rows * 0.5)) [nq, np] = [np, nq];
  [roles[nq], roles[np], roles[na]] = ['quantity', 'unit_price', 'amount'];
}

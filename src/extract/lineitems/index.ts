/**
 * Line items and totals of a document from its tables and page words (API.md §4): choose the
 * item table (and its continuations on later pages), map its columns, read its numbers with the
 * document's decimal convention, fold wrapped descriptions, and keep summary rows out of the items.
 */
import { flagLowConfidence } from './confidence.js';
import type { LineItem, PageLayout, Table, Totals } from '../types.js';
import { mapColumns, type ColumnMap } from './columns.js';
import { rowPage, toGrid, type Grid } from './grid.js';
import { readRows } from './items.js';
import { adoptHeader } from './header.js';
import { cents, conventionVotes, currencyOf, type Convention } from '../locale/numbers.js';
import { buildTotals, summaryLinesBelow, wordsBelow, type SummaryLine } from './summary.js';
import { documentLocale, langConvention, type Locale } from '../locale/index.js';

export { parseNumber, detectConvention, currencyOf, type Convention, type ParsedNumber } from '../locale/numbers.js';

/** The result for one document: its items (possibly none) and totals (null when no summary rows were found). */
export interface LineItemsResult {
  line_items: LineItem[];
  totals: Totals | null;
}

/** Below this an item-table candidate is ignored: a header with a money column and one more role scores ≥ 5. */
const MIN_SCORE = 3;

interface Part {
  index: number;
  grid: Grid;
  map: ColumnMap;
}

/** Line items and totals of a document whose tables and page words are given (and its locale, when already known). */
export function extractLineItems(tables: Table[], pages: PageLayout[], locale?: Locale): LineItemsResult {
  const candidates = tables.map((t, index) => {
    const grid = toGrid(t);
    return { index, grid, map: mapColumns(grid) };
  });
  const grids = candidates.map((c) => c.grid);
  for (const c of candidates) if (c.map.headerRows === 0) c.map = adoptHeader(c.grid, grids) ?? c.map;
  let best: Part | null = null;
  for (const c of candidates) if (c.map.score >= MIN_SCORE && (!best || c.map.score > best.map.score)) best = c;
  if (!best) return { line_items: [], totals: null };
  // The best-scoring part of a table split over pages may be a later one: start from the first.
  const chosen: Part = best;
  best = candidates.find((c) => c.index < chosen.index && c.map.score >= MIN_SCORE && continuations(c, candidates).some((p) => p.index === chosen.index)) ?? best;

  const parts = [best, ...continuations(best, candidates)];
  const last = parts[parts.length - 1]!;
  const lastPage = pageOf(last.grid.table);
  const pageLayout = pages.find((p) => p.page === lastPage);
  const bottom = lastPageBottom(last.grid.table, lastPage);

  const convs = columnConventions(parts, wordsBelow(pageLayout, bottom));
  const docConv = convs.doc;
  const currency = itemCurrency(locale ?? documentLocale(pages), parts);

  const items: LineItem[] = [];
  const summaries: SummaryLine[] = [];
  const markLost: LineItem[] = [];
  for (const p of parts) {
    const rows = readRows(p.grid, p.index, p.map, convs.cols, currency, pages);
    items.push(...rows.items);
    summaries.push(...rows.summaries);
    markLost.push(...rows.markLost);
  }
  const seen = new Set(summaries.map((s) => s.kind));
  for (const s of summaryLinesBelow(pageLayout, bottom, docConv)) {
    // A kind already found inside the table is the same row seen twice; several tax lines are not.
    if (!seen.has(s.kind) || s.kind === 'tax') summaries.push(s);
  }
  let totals = buildTotals(
    summaries,
    items.map((i) => i.amount),
    currency,
  );
  // One amount whose decimal mark a scan lost (`600` for `6.00`): a hundredth of it, where that alone makes the items add up.
  if (totals?.flags.includes('items_sum_mismatch')) {
    const fits = markLost.filter((lost) => !buildTotals(summaries, items.map((i) => (i === lost ? i.amount! / 100 : i.amount)), currency)?.flags.includes('items_sum_mismatch'));
    if (fits.length === 1) {
      fits[0]!.amount = cents(fits[0]!.amount! / 100);
      totals = buildTotals(
        summaries,
        items.map((i) => i.amount),
        currency,
      );
    }
  }
  flagLowConfidence(items, tables);
  return { line_items: items, totals };
}

/** The lower edge of a table's rows on `page` (a stitched table's bbox is its first page's). */
function lastPageBottom(t: Table, page: number): number {
  if (!t.pages || t.pages.length <= 1) return t.bbox[3];
  let bottom = -Infinity;
  for (const c of t.cells) if (rowPage(t, c.row) === page) bottom = Math.max(bottom, c.bbox[3]);
  return Number.isFinite(bottom) ? bottom : t.bbox[3];
}

function pageOf(t: Table): number {
  return t.pages && t.pages.length ? t.pages[t.pages.length - 1]! : t.page;
}

/**
 * Tables on the following pages that continue `first`: same number of columns, and either the
 * same header repeated or no header and money where the first table has it.
 */
function continuations(first: Part, all: Part[]): Part[] {
  const out: Part[] = [];
  let lastPage = pageOf(first.grid.table);
  for (const c of all) {
    if (c.index <= first.index || c.grid.cols !== first.grid.cols) continue;
    const page = c.grid.table.page;
    if (page <= lastPage) continue;
    if (page > lastPage + 1) break;
    // The repeated header may be read a little differently (a wrapped word); the same column roles will do.
    const sameHeader =
      c.map.headerRows > 0 && (c.map.headers.join('|') === first.map.headers.join('|') || c.map.roles.join('|') === first.map.roles.join('|'));
    const map = sameHeader ? c.map : mapColumns(c.grid, first.map);
    if (!sameHeader && (c.map.headerRows > 0 || !moneyWhereExpected(c.grid, first.map))) continue;
    out.push({ index: c.index, grid: c.grid, map });
    lastPage = pageOf(c.grid.table);
  }
  return out;
}

function moneyWhereExpected(grid: Grid, map: ColumnMap): boolean {
  const ac = map.roles.findIndex((r) => r === 'amount' || r === 'debit' || r === 'credit');
  if (ac < 0) return false;
  for (let r = 0; r < grid.rows; r++) if (/\d/.test(grid.text(r, ac))) return true;
  return false;
}

/**
 * The decimal convention of each mapped column: its own evidence where it decides, else the
 * document's (all money columns and the words below the table), else the header language's.
 */
function columnConventions(parts: Part[], extra: string[]): { doc: Convention | null; cols: (Convention | null)[] } {
  const n = parts[0]!.grid.cols;
  const perCol = Array.from({ length: n }, () => ({ dot: 0, comma: 0 }));
  for (const p of parts) {
    for (let c = 0; c < n; c++) {
      if (!p.map.roles[c] || p.map.roles[c] === 'description' || p.map.roles[c] === 'date') continue;
      const texts: string[] = [];
      for (let r = p.map.headerRows; r < p.grid.rows; r++) texts.push(p.grid.text(r, c));
      const v = conventionVotes(texts);
      perCol[c]!.dot += v.dot;
      perCol[c]!.comma += v.comma;
    }
  }
  const extraVotes = conventionVotes(extra);
  const dot = perCol.reduce((s, v) => s + v.dot, extraVotes.dot);
  const comma = perCol.reduce((s, v) => s + v.comma, extraVotes.comma);
  const prior = langConvention(parts[0]!.map.langs[0] ?? null);
  const doc: Convention | null = dot > comma ? 'dot' : comma > dot ? 'comma' : prior;
  const cols = perCol.map((v) => (v.dot > v.comma ? 'dot' : v.comma > v.dot ? 'comma' : doc) as Convention | null);
  return { doc, cols };
}

/** The document's currency as its words name it, else the one the item table's cells name most often, else null (a language's guess is not enough). */
function itemCurrency(locale: Locale, parts: Part[]): string | null {
  if (locale.currency && !locale.currencyFromLanguage) return locale.currency.value as string;
  const count = new Map<string, number>();
  for (const p of parts) {
    for (const cell of p.grid.table.cells) {
      const c = currencyOf(cell.text);
      if (c) count.set(c, (count.get(c) ?? 0) + 1);
    }
  }
  let best: string | null = null;
  for (const [c, n] of count) if (!best || n > count.get(best)!) best = c;
  return best;
}

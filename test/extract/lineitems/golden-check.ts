/**
 * Compares an extraction result with a fixture of test/fixtures/invoices/manifest.json and lists
 * every difference in words, so a failing golden case says which cell or field went wrong.
 */
import { FIELD_NAMES, type ExtractResult, type Fields, type LineItem, type Table, type Totals } from '../../../src/extract/types.js';

export interface ExpectedItem {
  description: string;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
  currency: string | null;
  page: number;
  flags: string[];
}

export interface GoldenFixture {
  file: string;
  title: string;
  lang: string;
  ruled: boolean;
  pages: number;
  document_type: string;
  fields: Record<string, string | number>;
  item_table: { n_cols: number; header: string[] | null; header_repeated: boolean; rows: string[][] };
  line_items: ExpectedItem[];
  totals: Totals | null;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Rows of the tables on the fixture's pages, in order, as whitespace-normalised cell texts. */
function detectedRows(tables: Table[], pages: number): string[][] {
  const rows: string[][] = [];
  for (const t of tables) {
    if ((t.pages ?? [t.page]).every((p) => p > pages)) continue;
    const grid = Array.from({ length: t.n_rows }, () => Array<string>(t.n_cols).fill(''));
    for (const c of t.cells) if (grid[c.row]) grid[c.row]![c.col] = norm(c.text);
    rows.push(...grid);
  }
  return rows;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Up to `n` rows from `at` joined column by column (a wrapped cell split into rows by the detector). */
function merged(rows: string[][], at: number, n: number): string[] | null {
  const part = rows.slice(at, at + n);
  if (part.length < n || part.some((r) => r.length !== part[0]!.length)) return null;
  return part[0]!.map((_, c) =>
    part
      .map((r) => r[c]!)
      .filter(Boolean)
      .join(' '),
  );
}

/** Differences between the item table expected and the tables found (empty when every cell matches). */
export function tableDiffs(fx: GoldenFixture, tables: Table[]): string[] {
  const rows = detectedRows(tables, fx.pages);
  const expected = [...(fx.item_table.header ? [fx.item_table.header] : []), ...fx.item_table.rows].map((r) => r.map(norm));
  const diffs: string[] = [];
  let at = 0;
  for (const [i, want] of expected.entries()) {
    let found = -1;
    let span = 1;
    search: for (let k = at; k < rows.length; k++) {
      for (let n = 1; n <= 3; n++) {
        const m = merged(rows, k, n);
        if (m && same(m, want)) {
          [found, span] = [k, n];
          break search;
        }
      }
    }
    if (found >= 0) {
      at = found + span;
      continue;
    }
    const near = rows
      .map((r) => ({ r, hits: r.filter((x, c) => x && x === want[c]).length }))
      .sort((a, b) => b.hits - a.hits)[0];
    diffs.push(`${i === 0 && fx.item_table.header ? 'header' : 'row'} ${JSON.stringify(want)} not found; nearest ${JSON.stringify(near?.r ?? null)}`);
  }
  return diffs;
}

const close = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < 1e-6);

/** Differences between the expected and the extracted line items. */
export function itemDiffs(fx: GoldenFixture, items: LineItem[]): string[] {
  const diffs: string[] = [];
  if (items.length !== fx.line_items.length) diffs.push(`${items.length} items, expected ${fx.line_items.length}`);
  fx.line_items.forEach((want, i) => {
    const got = items[i];
    if (!got) return;
    const d: string[] = [];
    if (norm(got.description ?? '') !== norm(want.description)) d.push(`description ${JSON.stringify(got.description)} ≠ ${JSON.stringify(want.description)}`);
    for (const k of ['quantity', 'unit_price', 'amount'] as const) if (!close(got[k], want[k])) d.push(`${k} ${got[k]} ≠ ${want[k]}`);
    if (got.currency !== want.currency) d.push(`currency ${got.currency} ≠ ${want.currency}`);
    if (got.page !== want.page) d.push(`page ${got.page} ≠ ${want.page}`);
    if (!same([...got.flags].sort(), [...want.flags].sort())) d.push(`flags ${JSON.stringify(got.flags)} ≠ ${JSON.stringify(want.flags)}`);
    if (!Object.values(got.cells).some((v) => norm(v).includes(norm(want.description)))) d.push('cells lack the description text');
    if (d.length) diffs.push(`item ${i}: ${d.join('; ')}`);
  });
  return diffs;
}

/** Differences between the expected and the extracted totals. */
export function totalsDiffs(fx: GoldenFixture, totals: Totals | null): string[] {
  const want = fx.totals;
  if (!want || !totals) return want === totals ? [] : [`totals ${JSON.stringify(totals)} ≠ ${JSON.stringify(want)}`];
  const d: string[] = [];
  for (const k of ['subtotal', 'tax', 'total'] as const) if (!close(totals[k], want[k])) d.push(`${k} ${totals[k]} ≠ ${want[k]}`);
  if (totals.currency !== want.currency) d.push(`currency ${totals.currency} ≠ ${want.currency}`);
  if (!same([...totals.flags].sort(), [...want.flags].sort())) d.push(`flags ${JSON.stringify(totals.flags)} ≠ ${JSON.stringify(want.flags)}`);
  return d;
}

/** Differences between the expected fields (the others expected null) and the extracted ones, and the document type. */
export function fieldDiffs(fx: GoldenFixture, r: Pick<ExtractResult, 'document_type' | 'fields'>): string[] {
  const d: string[] = [];
  if (r.document_type !== fx.document_type) d.push(`document_type ${r.document_type} ≠ ${fx.document_type}`);
  for (const name of FIELD_NAMES) {
    const want = fx.fields[name] ?? null;
    const got = r.fields[name]?.value ?? null;
    if (typeof want === 'number' && typeof got === 'number' ? !close(got, want) : got !== want) d.push(`${name} ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
  }
  return d;
}

/** Fields right (expected value, or null where none is expected) out of all fields of all fixtures. */
export function fieldAccuracy(pairs: { fx: GoldenFixture; fields: Fields }[]): { right: number; all: number } {
  let right = 0;
  let all = 0;
  for (const { fx, fields } of pairs) {
    for (const name of FIELD_NAMES) {
      all++;
      const want = fx.fields[name] ?? null;
      const got = fields[name]?.value ?? null;
      if (typeof want === 'number' && typeof got === 'number' ? close(got, want) : got === want) right++;
    }
  }
  return { right, all };
}

/** Row match of the eval: an item counts when description, quantity, unit price and amount all equal an expected one's (each used once). */
export function itemMatches(fx: GoldenFixture, items: LineItem[]): { hit: number; expected: number; found: number } {
  const left = [...fx.line_items];
  let hit = 0;
  for (const got of items) {
    const i = left.findIndex(
      (w) => norm(got.description ?? '') === norm(w.description) && close(got.quantity, w.quantity) && close(got.unit_price, w.unit_price) && close(got.amount, w.amount),
    );
    if (i >= 0) {
      hit++;
      left.splice(i, 1);
    }
  }
  return { hit, expected: fx.line_items.length, found: items.length };
}

/** All kinds of difference for one result. */
export function allDiffs(fx: GoldenFixture, r: Pick<ExtractResult, 'document_type' | 'fields' | 'tables' | 'line_items' | 'totals'>) {
  return { table: tableDiffs(fx, r.tables), items: itemDiffs(fx, r.line_items), totals: totalsDiffs(fx, r.totals), fields: fieldDiffs(fx, r) };
}

/**
 * Summary rows (subtotal, tax, total, balances) of an item table: those the table detector kept
 * inside the table, and those printed below it outside its cells, read from the page's words.
 */
import type { PageLayout, Totals, Word } from '../types.js';
import { cents, itemsAddUp, looksLikeId, parseNumber, withinACent, type Convention } from '../locale/numbers.js';
import { textLines } from '../locale/lines.js';
import { summaryKind, type SummaryKind } from './vocabulary.js';

/** One summary row: what it is, its value (null when none could be read) and the currency printed with it. */
export interface SummaryLine {
  kind: SummaryKind;
  label: string;
  value: number | null;
  currency: string | null;
}

const GLUED = /^(.*?\D)\s*([-−(]?\s*(?:[€$£¥]|US\$)?\s*\d[\d.,' ]*\)?-?\s*(?:円|[A-Z]{3})?)$/u;

/** A label followed by a number (`Subtotal 1 234,56`, `MwSt. 19 % 190,00`, `合計¥12,000`) → summary line. */
export function readSummaryText(tokens: string[], conv: Convention | null): SummaryLine | null {
  const n = tokens.length;
  // The longest suffix of tokens that is one number: `1 234,56` is two words in a text layer.
  for (let k = Math.min(4, n - 1); k >= 1; k--) {
    const parsed = parseNumber(tokens.slice(n - k).join(' '), conv);
    if (!parsed || parsed.percent) continue;
    const label = tokens.slice(0, n - k).join(' ');
    if (looksLikeId(tokens.slice(n - k).join(' '))) return null;
    const kind = summaryKind(label);
    if (kind) return { kind, label, value: parsed.value, currency: parsed.currency };
  }
  const m = GLUED.exec(tokens.join(' '));
  if (m) {
    const parsed = parseNumber(m[2]!, conv);
    const kind = summaryKind(m[1]!);
    if (parsed && kind && !parsed.percent) return { kind, label: m[1]!.trim(), value: parsed.value, currency: parsed.currency };
  }
  return null;
}

/** Summary lines printed on `page` below `bottom` (the table's lower edge), in reading order. */
export function summaryLinesBelow(page: PageLayout | undefined, bottom: number, conv: Convention | null): SummaryLine[] {
  if (!page) return [];
  const below = page.words.filter((w) => w.y0 >= bottom - 0.5);
  const out: SummaryLine[] = [];
  for (const line of textLines(below)) {
    const s = readSummaryText(
      line.map((w) => w.text),
      conv,
    );
    const found = s ?? readRightBlock(line, conv);
    if (found) out.push(found);
  }
  return out;
}

/**
 * A summary line at the right end of a page line that also crosses other print (a VAT table
 * beside the totals block): its runs of words split where a gap is wider than 1.5 line heights,
 * the last one or two read as a summary line.
 */
function readRightBlock(line: Word[], conv: Convention | null): SummaryLine | null {
  const starts = [0];
  for (let i = 1; i < line.length; i++) {
    const h = Math.max(line[i]!.y1 - line[i]!.y0, line[i - 1]!.y1 - line[i - 1]!.y0);
    if (line[i]!.x0 - line[i - 1]!.x1 > 1.5 * h) starts.push(i);
  }
  // The last run holding label and figure, or the last two (a label, a gap, its figure); a label with figures in it is a table row.
  for (let k = starts.length - 1; k >= Math.max(1, starts.length - 2); k--) {
    const s = readSummaryText(
      line.slice(starts[k]!).map((w) => w.text),
      conv,
    );
    if (s && !/\d/.test(s.label.replace(/\d+(?:[.,]\d+)?\s*%/g, ''))) return s;
  }
  return null;
}

/** Number-like words below the table, so their separators vote on the document's convention. */
export function wordsBelow(page: PageLayout | undefined, bottom: number): string[] {
  return page ? page.words.filter((w) => w.y0 >= bottom - 0.5).map((w) => w.text) : [];
}

/**
 * Totals from summary lines and the items' amounts. Several tax lines (7 % and 19 %) add up;
 * the first subtotal and the first total count. Null when there is no summary line at all.
 */
export function buildTotals(lines: SummaryLine[], amounts: (number | null)[], currency: string | null): Totals | null {
  const money = lines.filter((l) => l.kind === 'subtotal' || l.kind === 'tax' || l.kind === 'total' || l.kind === 'balance_close');
  if (!money.length) return null;
  const first = (k: SummaryKind) => money.find((l) => l.kind === k && l.value !== null)?.value ?? null;
  const taxes = money.filter((l) => l.kind === 'tax' && l.value !== null);
  const subtotals = money.filter((l) => l.kind === 'subtotal' && l.value !== null).map((l) => l.value!);
  const itemSum = amounts.every((a) => a !== null) ? cents(amounts.reduce((s: number, a) => s + a!, 0)) : null;
  // Sections each with a subtotal (`Subtotal hardware`, `Subtotal services`): their sum is the subtotal.
  const sectionSum = cents(subtotals.reduce((s, v) => s + v, 0));
  const subtotal = subtotals.length > 1 && itemSum !== null && withinACent(sectionSum, itemSum) ? sectionSum : first('subtotal');
  const tax = taxes.length ? cents(taxes.reduce((s, l) => s + l.value!, 0)) : null;
  const statement = !money.some((l) => l.kind !== 'balance_close');
  const total = statement ? first('balance_close') : first('total');
  const flags: string[] = [];
  const known = amounts.filter((a): a is number => a !== null);
  if (known.length && known.length === amounts.length) {
    const sum = cents(known.reduce((s, a) => s + a, 0));
    if (statement) {
      const open = lines.find((l) => l.kind === 'balance_open')?.value ?? null;
      if (open !== null && total !== null && !withinACent(cents(open + sum), total)) flags.push('balance_mismatch');
    } else if (!itemsAddUp(sum, subtotal, tax, total)) {
      flags.push('items_sum_mismatch');
    }
  }
  if (subtotal !== null && tax !== null && total !== null && !withinACent(cents(subtotal + tax), total)) flags.push('total_mismatch');
  const cur = money.find((l) => l.currency)?.currency ?? currency;
  return { subtotal, tax, total, currency: cur, flags };
}

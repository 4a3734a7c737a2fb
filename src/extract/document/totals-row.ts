/**
 * A totals row: the amount before tax, the tax and the total printed side by side under a header
 * that names them (`TOTAL HT  TOTAL TVA  TOTAL TTC` over `100,00  20,00  120,00`), found by its
 * arithmetic rather than by where each label stands: the first two add up to the third. OCR may
 * garble the labels of such a box, or run them and the amounts into the paragraph beside it; the
 * three amounts at the end of the line and their sum survive that.
 */
import type { Word } from '../types.js';
import { WITH_CENTS, cents, oneDigitApart, parseNumber, sameAmount, type Convention } from '../locale/numbers.js';
import { joinWords, type TextLine } from '../locale/lines.js';
import { namesTotalsRow } from '../lineitems/vocabulary.js';
import { amountWords } from './amounts.js';

export interface TotalsRow {
  subtotal: { value: number; word: Word };
  tax: { value: number; word: Word };
  total: { value: number; word: Word };
  page: number;
  header: string;
  /** The amount or the tax as read, a digit off what the other two say it is (then repaired). */
  misread: { kind: 'subtotal' | 'tax'; value: number } | null;
}

/**
 * Each line ending in three amounts a, b, c with a + b = c to the cent, the tax b smaller than the
 * amount a, all of one sign, under a header (on one of the four lines above, at most two line heights above it, its words over the amounts) that names a
 * tax and a total and no item column. A rate on the line (`20 %`) makes it a row of a tax
 * breakdown, not the totals.
 */
export function totalsRows(lines: TextLine[], conv: Convention | null): TotalsRow[] {
  const out: TotalsRow[] = [];
  lines.forEach((l, i) => {
    if (l.words.some((w) => w.text.includes('%'))) return;
    const amounts = amountWords(l.words, conv).flatMap((w) => {
      const n = WITH_CENTS.test(w.text) ? parseNumber(w.text, conv) : null;
      return n && !n.percent ? [{ value: n.value, word: { ...w, page: l.page } as Word }] : [];
    });
    if (amounts.length < 3) return;
    type Amount = (typeof amounts)[0];
    const c = amounts.at(-1)!;
    let [a, b] = amounts.slice(-3, -1) as [Amount, Amount];
    const sign = Math.sign(c.value);
    if (sign === 0 || Math.sign(a.value) !== sign || (b.value !== 0 && Math.sign(b.value) !== sign)) return;
    if (Math.abs(b.value) >= Math.abs(a.value)) return;
    // One digit misread in the amount or the tax (`100,50` for `100,80`): the total and the
    // other say what it is, and the row is marked repaired.
    let misread: TotalsRow['misread'] = null;
    if (!sameAmount(a.value + b.value, c.value)) {
      const fix = (x: { value: number; word: Word }, v: number) => (oneDigitApart(x.value.toFixed(2), v.toFixed(2)) ? { ...x, value: v } : null);
      const fa = fix(a, cents(c.value - b.value));
      const fb = fa ? null : fix(b, cents(c.value - a.value));
      if (!fa && !fb) return;
      misread = fa ? { kind: 'subtotal', value: a.value } : { kind: 'tax', value: b.value };
      if (fa) a = fa;
      if (fb) b = fb;
    }
    const h = l.bbox[3] - l.bbox[1];
    // The header's words over the amounts (half the row's width to the left, for labels wider
    // than their figures): a paragraph beside the box that OCR ran into the header's line says
    // nothing, and it may put lines of its own between the header and the row.
    const width = c.word.x1 - a.word.x0;
    const over = (u: TextLine) => u.words.filter((w) => (w.x0 + w.x1) / 2 > a.word.x0 - width / 2 && (w.x0 + w.x1) / 2 < c.word.x1 + width / 4);
    let header: Word[] | null = null;
    for (let k = i - 1; k >= Math.max(0, i - 4) && !header; k--) {
      const u = lines[k]!;
      if (u.page !== l.page || u.bbox[3] > l.bbox[1] + 0.5 * h || l.bbox[1] - u.bbox[3] >= 2 * h) continue;
      const ws = over(u);
      if (ws.length && !ws.some((w) => WITH_CENTS.test(w.text)) && namesTotalsRow(joinWords(ws))) header = ws;
    }
    if (!header) return;
    out.push({ subtotal: a, tax: b, total: c, page: l.page, header: joinWords(header), misread });
  });
  return out;
}

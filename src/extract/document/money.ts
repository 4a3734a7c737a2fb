/**
 * The money fields (subtotal, tax, total, amount due, opening and closing balance) from the
 * document's summary lines: a summary label (lineitems/vocabulary.ts) followed by one number
 * at the end of the line.
 */
import type { Word } from '../types.js';
import { ENDS_WITH_CENTS, WITH_CENTS, cents, looksLikeId, normalizeText, oneDigitApart, parseNumber, sameAmount, type Convention } from '../locale/numbers.js';
import { summaryKind, type SummaryKind } from '../lineitems/vocabulary.js';
import { labelRegex } from '../locale/labels.js';
import { field } from './labelled.js';
import type { FieldCandidate } from './choose.js';
import type { Pair } from './kv.js';
import { blocks, joinWords, type TextLine } from '../locale/lines.js';
import { amountWords, printedAt, roundings, rounded } from './amounts.js';
import { totalsRows } from './totals-row.js';

/** One summary line: what it says it is, its value, and the words of label and value. */
export interface MoneyLine {
  kind: SummaryKind;
  due: boolean;
  value: number;
  currency: string | null;
  label: Word[];
  number: Word[];
  line: TextLine;
}

/** A money figure in a label (`Total station rental 2 100.00`) makes it an item, not a summary line. */
const FIGURE = new RegExp(`${WITH_CENTS.source}|\\d{4,}`);

/** The summary line `line` is, or null. The number is the longest run of up to four words at the end that reads as one. */
export function moneyLine(line: TextLine, conv: Convention | null): MoneyLine | null {
  const words = amountWords(line.words, conv);
  for (let k = Math.min(4, words.length - 1); k >= 1; k--) {
    const number = words.slice(words.length - k);
    const parsed = parseNumber(number.map((w) => w.text).join(' '), conv);
    if (!parsed || parsed.percent) continue;
    const before = words.slice(0, words.length - k);
    if (looksLikeId(joinWords(number))) return null;
    // The whole text before the number, or else its last block: a totals box printed beside a
    // tax table shares its lines (`0,00 %  9,90 €  9,90 €    Total Net HT    1.245,30 €`).
    const last = blocks({ ...line, words: before }).at(-1) ?? [];
    for (const label of last.length < before.length ? [before, last] : [before]) {
      const text = joinWords(label);
      const withoutRates = text.replace(/\d+(?:[.,]\d+)?\s*%/g, '');
      if (FIGURE.test(withoutRates)) continue;
      const lower = normalizeText(text).toLowerCase();
      const kind = summaryKind(lower);
      const due = labelRegex('amount_due').test(lower);
      if (!kind && !due) continue;
      return { kind: kind ?? 'total', due, value: parsed.value, currency: parsed.currency, label, number, line };
    }
    return null;
  }
  return null;
}

/**
 * A totals box printed as a small table: two or more summary labels side by side (`TOTAL HT   TOTAL
 * TVA   TOTAL TTC`) over a line of amounts, each amount under its label. What OCR joins to the
 * amounts' line from the left (a paragraph beside the box) does not matter: only the amounts
 * under a label are read.
 */
const TOTALLING = /^(total|sub-?\s?total|sous-total|gesamt|summe|zwischensumme|netto|brutto|totaal|subtotaal|totale|montant total|net [àa] payer)/i;

function boxedTotals(lines: TextLine[], conv: Convention | null): { label: string; value: number; word: Word; page: number }[] {
  const out: { label: string; value: number; word: Word; page: number }[] = [];
  lines.forEach((l, i) => {
    const labels = blocks(l).filter((b) => !/\d/.test(joinWords(b).replace(/\d+(?:[.,]\d+)?\s*%/g, '')) && summaryKind(joinWords(b)));
    // Every label says it totals (`TOTAL HT`, `Summe netto`): `Amount   Tax` heads a tax breakdown's columns.
    if (labels.length < 2 || !labels.every((b) => TOTALLING.test(joinWords(b)))) return;
    const h = l.bbox[3] - l.bbox[1];
    const under = lines.slice(i + 1, i + 4).find((u) => u.page === l.page && u.bbox[1] > l.bbox[3] - 0.2 * h && u.bbox[1] < l.bbox[3] + 2.5 * h && u.words.some((w) => WITH_CENTS.test(w.text)));
    // A row with a rate (`SR @ 6%  127.37  7.64`) is a line of a tax breakdown, not the totals.
    if (!under || under.words.some((w) => w.text.includes('%'))) return;
    const amounts = amountWords(under.words, conv).filter((w) => WITH_CENTS.test(w.text));
    const used = new Set<Word>();
    for (const b of labels) {
      const [x0, x1] = [b[0]!.x0, b[b.length - 1]!.x1];
      const mid = (x0 + x1) / 2;
      let best: Word | null = null;
      for (const w of amounts) {
        const c = (w.x0 + w.x1) / 2;
        if (used.has(w) || c < x0 - (x1 - x0) || c > x1 + (x1 - x0)) continue;
        if (!best || Math.abs(c - mid) < Math.abs((best.x0 + best.x1) / 2 - mid)) best = w;
      }
      const n = best ? parseNumber(best.text, conv) : null;
      if (!best || !n || n.percent) continue;
      used.add(best);
      out.push({ label: joinWords(b), value: n.value, word: { ...best, page: l.page } as Word, page: l.page });
    }
  });
  return out;
}

type MoneyName = 'subtotal' | 'tax' | 'total' | 'amount_due' | 'opening_balance' | 'closing_balance';

/** Labels of counts and discounts that open like a total (`Total Qty`, `Total Savings`): not money fields. */
const NOT_MONEY = /(qty|quantity|items?\b|pcs|menge|anzahl|stück|articles?|discount|savings|rabatt|remise|descuento|sconto|points?|weight|gewicht|poids)/i;
/** A total before tax (`Total Sales (Excluding GST)`, `Total HT`): the subtotal. */
const NET_TOTAL = /(excl|exkl|excluding|before tax|before gst|\bnet(to)?\b|\bht\b|hors tax|sin iva|zonder btw|ohne)/i;
/** `Net à payer`: the net amount left to pay, the total, not a net before tax. */
const NET_TO_PAY = /^net [àa] payer/i;
/** Payment and change lines: never the total. */
const PAYMENT = /^(cash|change|tendered|paid|payment|card|visa|master|credit|debit|bar|gegeben|rückgeld|wechselgeld|espèces|rendu|monnaie|efectivo|cambio|contant|wisselgeld|contanti|resto|troco)/i;
/** An amount still open (`Offener Betrag`, `Balance due`) is due, not the total. */
const STILL_OPEN = /(offen|balance due|amount due|restbetrag|reste à payer|montant dû|saldo pendiente|openstaand|da saldare)/i;

interface Money {
  kind: MoneyName;
  value: number;
  label: string;
  number: Word[];
  page: number;
  score: number;
  /** Made by arithmetic from a printed total (its rounding), not printed itself. */
  rounded?: boolean;
}

/** Every reading of a money field: summary lines (a label, then the number at the end) and key-value pairs whose key is a summary label. */
function moneyReadings(lines: TextLine[], pairs: Pair[], conv: Convention | null): Money[] {
  const out: Money[] = [];
  const add = (text: string, found: SummaryKind | null, due: boolean, value: number, number: Word[], page: number, score: number) => {
    const label = text.replace(/\s*[:：]\s*$/, '');
    const l = label.toLowerCase();
    const kind = found;
    if (NOT_MONEY.test(l) || PAYMENT.test(l)) return;
    if (due || (kind === 'total' && STILL_OPEN.test(l))) out.push({ kind: 'amount_due', value, label, number, page, score });
    if (!kind || kind === 'carry') return;
    const name: MoneyName = kind === 'balance_open' ? 'opening_balance' : kind === 'balance_close' ? 'closing_balance' : kind === 'total' && NET_TOTAL.test(l) && !NET_TO_PAY.test(l) ? 'subtotal' : kind;
    if (name === 'total' && STILL_OPEN.test(l)) return;
    out.push({ kind: name, value, label, number, page, score });
  };
  for (const l of lines) {
    const m = moneyLine(l, conv);
    if (m) add(joinWords(m.label), m.kind, m.due, m.value, m.number, l.page, 0.9);
  }
  for (const r of boxedTotals(lines, conv)) add(r.label, summaryKind(r.label), labelRegex('amount_due').test(r.label.toLowerCase()), r.value, [r.word], r.page, 0.85);
  const seen = new Set(out.map((m) => m.number[0]));
  for (const p of pairs) {
    if (p.how === 'inline' && seen.has(p.value[0]!)) continue;
    // `Total : 93.40 6.60`: a tax summary's total row (amount and tax), not the document's total.
    const end = Math.max(...p.value.map((w) => w.x1));
    const after = p.line.words.filter((w) => w.x0 >= end);
    if (p.how === 'inline' && after.some((w) => /[.,]\d{2}(?!\d)/.test(w.text))) continue;
    const label = joinWords(p.key).replace(/\s*[:：]$/, '');
    const kind = summaryKind(label);
    const due = labelRegex('amount_due').test(normalizeText(label).toLowerCase());
    if (!kind && !due) continue;
    const parsed = parseNumber(joinWords(p.value), conv);
    if (!parsed || parsed.percent || looksLikeId(joinWords(p.value))) continue;
    add(label, kind, due, parsed.value, p.value, p.line.page, p.how === 'inline' ? 0.9 : 0.85);
  }
  // `Net Total` under the tax line is what is left to pay after tax (a till's total), not the
  // amount before tax it is on an invoice.
  const below = (a: Money, b: Money) => a.page === b.page && a.number[0]!.y0 > b.number[0]!.y1;
  for (const m of out) if (m.kind === 'subtotal' && /^nett? total/i.test(m.label) && out.some((t) => t.kind === 'tax' && below(m, t))) m.kind = 'total';
  return out;
}

/** What a figure chosen by arithmetic against the labelled reading stands at (below 0.7: review looks). */
const CHOSEN_AGAINST = 0.6;

/**
 * The money fields as candidates, scored by label and checked by arithmetic: the total that
 * the subtotal and tax add up to, or that cash minus change is, is preferred; a rounded total
 * (what a till receipt is paid) over the unrounded; a tax as large as the total is no tax.
 */
export function moneyCandidates(lines: TextLine[], pairs: Pair[], conv: Convention | null, paid: Paid): Record<MoneyName, FieldCandidate[]> {
  const found = moneyReadings(lines, pairs, conv);
  addPrepaid(found, lines, conv);
  addTotalsRows(found, lines, conv);
  const of = (k: MoneyName) => found.filter((m) => m.kind === k);
  // A candidate's score is its label's, times how sure the OCR was of its words.
  const toCand = (m: Money, score = m.score): FieldCandidate => {
    const f = field(m.value, m.number, m.page, 1);
    return { field: f, score: score * f.confidence, via: 'label' };
  };
  const taxes = of('tax');
  // Several tax lines (7 % and 19 %) add up to the tax; a row of taxes repeated in a summary is one.
  const distinct = taxes.filter((t, i) => taxes.findIndex((u) => u.value === t.value && u.label === t.label) === i);
  const taxCands: FieldCandidate[] = distinct.map((t) => toCand(t));
  // A `Total TVA` is that sum already: it is no part of another.
  const parts = distinct.filter((t) => !/^(total|gesamt|summe|totaal|totale|montant total)/i.test(t.label));
  if (parts.length > 1) {
    const sum = cents(parts.reduce((s, m) => s + m.value, 0));
    const words = parts.flatMap((m) => (m.page === parts[0]!.page ? m.number : []));
    const f = field(sum, words, parts[0]!.page, 1, parts.map((m) => joinWords(m.number)).join(' + '));
    taxCands.push({ field: f, score: 0.86 * f.confidence, via: 'label' });
  }
  // A receipt's total in brackets (`( 47.70)`) that cash paid is the amount, not a credit.
  if (paid.cash !== null) for (const m of found) if (m.kind === 'total' && m.value < 0) m.value = -m.value;
  // A total before its rounding adjustment (`Total 181.98`, `Rounding Adj .02`): the rounded
  // amount is what the till took, read as surely as the two lines it comes from.
  const rounds = roundings(lines, conv);
  for (const m of of('total')) {
    if (m.value <= 0) continue;
    for (const r of rounds) for (const v of rounded(m.value, r)) if (!sameAmount(v, m.value) && !found.some((o) => o.kind === 'total' && sameAmount(o.value, v))) found.push({ ...m, value: v, label: `${m.label} rounded`, number: [...m.number, ...r.words], rounded: true });
  }
  const subs = of('subtotal').map((m) => toCand(m));
  // What else says the total: subtotal plus tax, cash minus change, a card payment, cash with no change.
  const evidence: { kind: string; value: number; words: (Word & { page?: number })[]; ink: number }[] = [];
  const ink = (words: Word[]) => field(0, words, 1, 1).confidence;
  for (const sc of subs) for (const t of taxCands) evidence.push({ kind: 'sum', value: cents((sc.field.value as number) + (t.field.value as number)), words: [], ink: Math.min(sc.field.confidence, t.field.confidence) });
  if (paid.cash !== null && paid.change !== null) evidence.push({ kind: 'cash', value: cents(paid.cash - paid.change), words: paid.cashWords, ink: ink(paid.cashWords) });
  if (paid.card !== null) evidence.push({ kind: 'card', value: paid.card, words: paid.cardWords, ink: ink(paid.cardWords) });
  for (const v of paid.paidInCash) evidence.push({ kind: 'paid', value: v.value, words: v.words, ink: ink(v.words) });
  // The subtotal, subtotal plus tax, or a printed total, with the rounding adjustment: the
  // rounded total. A zero adjustment says only that the subtotal is the total (tax included).
  const printed = of('total').filter((m) => !m.rounded);
  const sums = evidence.filter((e) => e.kind === 'sum');
  for (const r of rounds) {
    const subBases = subs.map((c) => ({ value: c.field.value as number, ink: c.field.confidence }));
    if (r.value === 0) {
      for (const b of subBases) evidence.push({ kind: 'round', value: b.value, words: [], ink: Math.min(b.ink, ink(r.words)) });
      continue;
    }
    for (const b of [...subBases, ...sums]) for (const v of rounded(b.value, r)) evidence.push({ kind: 'round', value: v, words: [], ink: Math.min(b.ink, ink(r.words)) });
    // From a printed total: support for another printed total, never for the rounded total made of it.
    for (const m of printed) for (const v of rounded(m.value, r)) evidence.push({ kind: 'rounded total', value: v, words: [], ink: Math.min(ink(m.number), ink(r.words)) });
  }
  // A sum of rounded figures may be a cent off; what was paid, and a rounding, are exact.
  const agrees = (e: { kind: string; value: number }, v: number) => (e.kind === 'sum' ? sameAmount(e.value, v) : cents(e.value) === cents(v));
  const support = (v: number, made = false) => new Set(evidence.filter((e) => agrees(e, v) && !(made && e.kind === 'rounded total')).map((e) => e.kind)).size;
  const totals = of('total').map((m) => {
    let score = m.score - 0.05;
    const l = m.label.toLowerCase();
    if (/round|arrondi|gerundet|redondeo/.test(l)) score += 0.04;
    if (/grand|gesamt|brutto|ttc|incl|inkl|endbetrag|rechnungsbetrag|rechnungssumme|net [àa] payer|to pay|payable/.test(l)) score += 0.03;
    if (paid.cash !== null && m.value > paid.cash + 0.01) score -= 0.15;
    // A till's total of nothing, where amounts were charged, is another line's zero (`Total Savings 0.00`) or a misreading.
    if (m.value === 0 && (found.some((o) => o.value > 0 && (o.kind === 'total' || o.kind === 'subtotal')) || evidence.some((e) => e.value > 0))) score -= 0.3;
    // A till prints cents: an OCR'd total without them is a count or a misreading (`TOTAL 7`).
    if (m.number.some((w) => w.confidence !== null) && !WITH_CENTS.test(joinWords(m.number))) score -= 0.15;
    score += 0.08 * Math.min(2, support(m.value, m.rounded));
    return toCand(m, score);
  });
  // Cash minus change, or a card payment, is what a till receipt's total is, when no total could be read.
  for (const e of evidence) {
    if (e.kind === 'sum' || !e.words.length || e.value <= 0 || totals.some((t) => sameAmount(t.field.value as number, e.value))) continue;
    const f = field(e.value, e.words, e.words[0]!.page ?? 1, 1, joinWords(e.words));
    totals.push({ field: f, score: (e.kind === 'card' ? 0.55 : 0.6) * f.confidence + 0.2 * (support(e.value) - 1), via: 'position' });
  }
  // An amount printed alone on its line that the subtotal and tax add up to (or round to) is the
  // total whose label stands apart or was not read: printed and added up, it outweighs cash
  // minus change alone.
  const lone = lines.flatMap((l) => {
    const a = l.words.length <= 2 ? loneAmount(l, conv) : null;
    return a ? [{ ...a, page: l.page }] : [];
  });
  for (const e of evidence) {
    if ((e.kind !== 'sum' && e.kind !== 'round') || e.value <= 0 || totals.some((t) => sameAmount(t.field.value as number, e.value))) continue;
    const alone = lone.find((a) => agrees(e, a.value));
    if (!alone) continue;
    const f = field(alone.value, [alone.word], alone.page, 1);
    totals.push({ field: f, score: 0.6 * f.confidence + 0.08 * Math.min(2, support(alone.value)), via: 'position' });
  }
  // Two of them agreeing outweigh a labelled total none of them agrees with.
  if (evidence.some((e) => support(e.value) >= 2)) for (const t of totals) if (t.via === 'label' && support(t.field.value as number) === 0) t.score -= 0.1;
  if (paid.cash !== null && paid.change === null && paid.cashWords.length && paid.card === null && !totals.length) {
    const f = field(paid.cash, paid.cashWords, paid.cashWords[0]!.page ?? 1, 1, joinWords(paid.cashWords));
    totals.push({ field: f, score: 0.45 * f.confidence, via: 'position' });
  }
  // Subtotal and tax that add up to the chosen total are the ones; others lose.
  const best = totals.reduce<FieldCandidate | null>((b, c) => (!b || c.score > b.score ? c : b), null);
  if (best) {
    const T = best.field.value as number;
    for (const t of taxCands) if ((t.field.value as number) >= T && T > 0) t.score -= 0.4;
    for (const s of subs) if (taxCands.some((t) => sameAmount((s.field.value as number) + (t.field.value as number), T))) s.score += 0.05;
    for (const t of taxCands) if (subs.some((s) => sameAmount((s.field.value as number) + (t.field.value as number), T))) t.score += 0.05;
    // Every tax read as large as the total is a misreading (`3.904,31` read `3,904,317`): the
    // total less the subtotal, where the page prints it (a tax breakdown's line), is the tax,
    // chosen against the labelled reading.
    const sub = subs.reduce<FieldCandidate | null>((b, c) => (!b || c.score > b.score ? c : b), null);
    const v = sub ? cents(T - (sub.field.value as number)) : 0;
    const at = v > 0 && taxCands.length && taxCands.every((t) => (t.field.value as number) >= T) ? printedAt(v, lines, conv) : null;
    if (at) {
      const f = field(v, at.words, at.page, CHOSEN_AGAINST);
      taxCands.push({ field: f, score: f.confidence, via: 'position' });
    }
  }
  // An OCR'd total one digit away from what surer amounts say was misread: they decide. What was
  // paid within a rounding step of it (5 sen, 5 cents) is the total paid, as tills round cash.
  if (best && best.field.confidence < 1 && support(best.field.value as number) === 0) {
    const T = best.field.value as number;
    const seen = new Set<number>();
    for (const e of evidence) {
      const rounded = e.kind !== 'sum' && Math.abs(e.value - T) < 0.05;
      if (seen.has(e.value) || sameAmount(e.value, T) || e.ink < best.field.confidence || (!rounded && !oneDigitApart(e.value.toFixed(2), T.toFixed(2)))) continue;
      seen.add(e.value);
      totals.push({ field: { ...best.field, value: e.value }, score: best.score + 0.01, via: 'label' });
      best.score -= 0.2;
    }
  }
  return {
    subtotal: subs,
    tax: taxCands,
    total: totals,
    amount_due: of('amount_due').map((m) => toCand(m, m.score - 0.05)),
    opening_balance: of('opening_balance').map((m) => toCand(m)),
    closing_balance: of('closing_balance').map((m) => toCand(m)),
  };
}

/** A payment made before the invoice (`Acompte`, `Montant déjà payé`, `Anzahlung`, `Already paid`): the amount due is the total less it. */
const PREPAID = /^(acompte|avance|montant d[ée]j[àa] pay[ée]|d[ée]j[àa] pay[ée]|already paid|amount paid|paid to date|prepaid|prepayment|advance payment|deposit paid|anzahlung|geleistete anzahlung|bereits (?:bezahlt|gezahlt|geleistet)|vooruitbetaling|vooruitbetaald|reeds betaald|al betaald|anticipo|gi[àa] pagato|ya pagado|adiantamento|valor pago)/i;

/**
 * Where a prepayment is printed, the amount to pay (`Net à payer 90,00` under `Montant déjà payé
 * 10,00`) is what is left of the total: the total is the two added, and the amount to pay read as
 * the total loses to it.
 */
function addPrepaid(found: Money[], lines: TextLine[], conv: Convention | null): void {
  let paid: { value: number; words: Word[] } | null = null;
  for (const l of lines) {
    if (!PREPAID.test(l.lower)) continue;
    const words = amountWords(l.words, conv);
    const last = words[words.length - 1]!;
    const n = /\d[.,]\d{2}/.test(last.text) ? parseNumber(last.text, conv) : null;
    if (n && !n.percent && n.value !== 0) paid = { value: Math.abs(n.value), words: [{ ...last, page: l.page } as Word] };
  }
  if (!paid) return;
  for (const m of found.filter((x) => x.kind === 'total' && !x.rounded && (NET_TO_PAY.test(x.label) || labelRegex('amount_due').test(x.label.toLowerCase())))) {
    const sign = m.value < 0 ? -1 : 1;
    found.push({ ...m, value: cents(m.value + sign * paid.value), label: `${m.label} + prepaid`, number: [...m.number, ...paid.words], score: m.score - 0.02 });
    m.score -= 0.2;
  }
}

/**
 * The amounts of a totals row (totals-row.ts) as subtotal, tax and total: as sure as a labelled
 * line where its total is one a label reads too (the row and the label agree), less where it
 * stands alone or one of its amounts was repaired.
 */
function addTotalsRows(found: Money[], lines: TextLine[], conv: Convention | null): void {
  const totals = found.filter((m) => m.kind === 'total' || m.kind === 'amount_due');
  for (const r of totalsRows(lines, conv)) {
    // Another reading of the total, not the row's own figure read again under a label.
    const same = (w: Word) => w.x0 === r.total.word.x0 && w.y0 === r.total.word.y0;
    const agrees = totals.some((m) => sameAmount(m.value, r.total.value) && !(m.page === r.page && m.number.some(same)));
    // A repaired row stands only with a total read apart, and below what review may skip.
    if (r.misread && !agrees) continue;
    const score = r.misread ? 0.6 : agrees ? 0.85 : 0.6;
    // The misread figure, wherever else it was read (the same box under its labels), loses.
    const { misread } = r;
    if (misread) for (const m of found) if (m.kind === misread.kind && sameAmount(m.value, misread.value)) m.score -= 0.2;
    const at = (kind: MoneyName, label: string, a: { value: number; word: Word }): Money => ({ kind, value: a.value, label, number: [a.word], page: r.page, score });
    found.push(at('subtotal', 'total net (row)', r.subtotal), at('tax', 'total tax (row)', r.tax), at('total', 'total (row)', r.total));
  }
}

/** The amount a line holds alone (`29.80`, `29. 80`), with its word, or null. */
function loneAmount(line: TextLine, conv: Convention | null): { value: number; word: Word } | null {
  const words = amountWords(line.words, conv);
  const w = words[0];
  if (words.length !== 1 || !w || !ENDS_WITH_CENTS.test(w.text)) return null;
  const n = parseNumber(w.text, conv);
  return n && !n.percent ? { value: n.value, word: w } : null;
}

/** What was paid in cash and given back on a till receipt, when printed, with the cash line's words. */
export interface Paid {
  cash: number | null;
  change: number | null;
  cashWords: (Word & { page?: number })[];
  /** A card payment (`VISA 191.20`, `CREDIT RM 182.00`): the amount charged is the total. */
  card: number | null;
  cardWords: (Word & { page?: number })[];
  /** Cash lines besides the one tendered (`Cash 71.00` over `Cash Received 101.00`): the amount paid in cash. */
  paidInCash: { value: number; words: (Word & { page?: number })[] }[];
}

/** A line that says only that the amount was paid (`Pay 20.00`, `Paid Amount : 200.00`), unlike `Pay parking ticket 1.50`. */
const PAID_ONLY = /^(pay|payment|paid amount|amount paid|amount tendered)[\s:.]*(rm|myr|\$|€|eur|usd|gbp)?[\s:.]*$/;

/** What was paid in cash and given back on a till receipt, when printed. */
export function cashAndChange(lines: TextLine[], conv: Convention | null): Paid {
  const paid: Paid = { cash: null, change: null, cashWords: [], card: null, cardWords: [], paidInCash: [] };
  let tendered = false;
  for (const l of lines) {
    const t = l.lower;
    const ws = amountWords(l.words, conv);
    const last = ws[ws.length - 1];
    const read = parseNumber(last?.text ?? '', conv);
    if (!read || read.percent || !ENDS_WITH_CENTS.test(last!.text)) continue;
    // `Cash -50.00`: what was handed over, whatever sign the till prints.
    const n = { value: Math.abs(read.value) };
    if (/^(cash|tendered|cash tendered|cash received|received|amount received|bar|gegeben|espèces|efectivo|contant|contanti|dinheiro|tunai)\b/.test(t) || PAID_ONLY.test(joinWords(ws.slice(0, -1)).toLowerCase())) {
      const words = [{ ...last!, page: l.page }];
      // The amount handed over is the tendered or received one; another cash line is what was paid.
      const isTendered = /(tender|receiv|gegeben)/.test(t);
      if (paid.cash === null || (isTendered && !tendered)) {
        if (paid.cash !== null) paid.paidInCash.push({ value: paid.cash, words: paid.cashWords });
        paid.cash = n.value;
        paid.cashWords = words;
        tendered = isTendered;
      } else paid.paidInCash.push({ value: n.value, words });
    } else if (paid.card === null && /^(visa|master ?card|mastercard|amex|credit card|debit card|credit|debit|card|kartenzahlung|girocard|ec-karte|carte bancaire|cb|tarjeta|pin|bancomat)\b/.test(t) && !/\b(no|nr|number|#)\b|\*{2}/.test(t)) {
      paid.card = n.value;
      paid.cardWords = [{ ...last!, page: l.page }];
    } else if (paid.change === null && /^(change|rückgeld|wechselgeld|rendu|monnaie rendue|cambio|wisselgeld|resto|troco)\b/.test(t)) paid.change = n.value;
  }
  return paid;
}

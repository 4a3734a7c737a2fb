/**
 * The document's type from its words and layout: a title word near the top of the first page
 * (`Invoice`, `Kontoauszug`, `領収書`, …) and the cues that go with each type (an invoice
 * number, a due date and totals; cash and change on a receipt; opening and closing balances and
 * debit/credit columns on a statement). A document without a title and its cues is `other`, so
 * a report's tables never become line items.
 */
import type { DocumentType, Fields } from '../types.js';
import type { ColumnRole } from '../lineitems/vocabulary.js';
import { joinWords, type TextLine } from '../locale/lines.js';
import { amountsIn, sameAmount } from '../locale/numbers.js';

const W = (src: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${src})(?![\\p{L}])`, 'iu');

const TITLES: Record<Exclude<DocumentType, 'other'>, RegExp> = {
  invoice: W(
    'invoice|tax ?invoice|credit note|pro ?forma invoice|rechnung|rechnungs(?:nummer|-nr\\.?|datum|betrag|empfänger)|gutschrift|facture|avoir|factura|factuur|factuur(?:nummer|datum|bedrag)|creditnota|fattura|nota di credito|fatura|nota fiscal',
  ),
  receipt: W(
    'receipt|sales receipt|cash receipt|quittung|kassenbon|kassenbeleg|kassenzettel|reçu|ticket de caisse|ticket|recibo|factura simplificada|kassabon|kassa ?ticket|scontrino|ricevuta|cupom fiscal|talão',
  ),
  bank_statement: W(
    'statement|account statement|bank statement|statement of account|kontoauszug|kontoübersicht|relevé de compte|relevé|extracto(?: de cuenta)?|rekeningafschrift|afschrift|estratto conto|extrato(?: bancário| de conta)?',
  ),
};
const JA_TITLES: Record<Exclude<DocumentType, 'other'>, RegExp> = {
  invoice: /請求書|納品書/,
  receipt: /領収書|領収証|レシート/,
  bank_statement: /入出金明細|取引明細|預金通帳|口座明細/,
};

const RECEIPT_CUES = W(
  'cash|change|card|visa|mastercard|bar|gegeben|rückgeld|wechselgeld|esp[eè]ces?|rendu|monnaie|efectivo|cambio|tarjeta|contant|wisselgeld|pin|contanti|resto|troco|dinheiro|thank you|vielen dank|merci|gracias|bedankt|grazie|obrigado',
);
const JA_RECEIPT_CUES = /お預り|お釣り|合計点数|ありがとう/;
/** A till's payment block: a line that opens with cash, tendered or change and ends in an amount. */
const TILL = /^(cash|cash tendered|tendered|change|change due|rounding|rückgeld|wechselgeld|gegeben|bar|espèces|rendu|monnaie|efectivo|cambio|contant|wisselgeld|contanti|resto|troco|dinheiro|お預り|お釣り)\b.*\d[.,]\d{2}\s*$/iu;
const TIME = /(?<!\d)([01]?\d|2[0-3]):[0-5]\d(?!\d)/;
const CASH = W('cash|tunai|tendered|paid amount|amount paid|bar|gegeben|esp[eè]ces?|efectivo|contant|contanti|dinheiro');
const CARD = W('visa|mastercard|master card|debit card|credit card|amex|ec-karte|girocard|carte bancaire|tarjeta|pinnen');
/**
 * What a till prints, by kind: what was paid, the change, the rounding, the cashier or till,
 * a time of day, thanks and returns notes, a card payment, the count of items, a tax summary, a
 * table or covers. Three kinds or more, with no field only an invoice prints, make a till
 * receipt whatever its title (`TAX INVOICE`).
 */
const TILL_CUES: RegExp[] = [
  CASH,
  W('change|change due|baki|rückgeld|wechselgeld|rendu|monnaie rendue|cambio|wisselgeld|resto|troco'),
  W('rounding|round adj|round amt|rounding adj(?:ustment)?|rundung|arrondi|redondeo|afronding|arrotondamento|arredondamento'),
  W('cashier|casher|operator|served by|counter|terminal|pos(?: ?no| ?id)?|salesperson|kassierer|bediener|kasse|caissier|caisse|cajero|caja|kassa|cassiere|cassa|operador'),
  TIME,
  W('thank you|thanks|come again|terima kasih|goods sold|no refund|not returnable|vielen dank|danke|merci|gracias|bedankt|grazie|obrigado'),
  CARD,
  W('total qty|total quantity|total items?|item count|no\\.? of items|qty|anzahl artikel|nombre d.articles|artículos'),
  W('gst summary|tax summary|sst summary|gst @|gst\\s*\\d+\\s*%'),
  W('table|pax|dine in|take ?away|tisch|mesa|tavolo'),
];
/** A till prints short lines; longer ones are prose. */
const TILL_LINE_WORDS = 8;
/** Fields only an invoice prints: its customer, due date, payment terms or IBAN keep it an invoice. */
const INVOICE_ONLY: (keyof Fields)[] = ['due_date', 'customer_name', 'payment_terms', 'iban'];

/** Each title pattern anchored to the whole text, compiled once. */
const WHOLE_TITLES: RegExp[] = [...Object.values(TITLES).map((re) => new RegExp(`^(?:${re.source})$`, 'iu')), ...Object.values(JA_TITLES).map((re) => new RegExp(`^(?:${re.source})$`))];

/** Text that is only a document title (`INVOICE`, `請求書`): neither a vendor nor an address. */
export function isTitleOnly(t: string): boolean {
  return WHOLE_TITLES.some((re) => re.test(t));
}

/** Text that names a document type anywhere (`Kontoauszug 11/2026`): a title, not an address. */
export function hasTitle(t: string): boolean {
  return Object.values(TITLES).some((re) => re.test(t)) || Object.values(JA_TITLES).some((re) => re.test(t));
}

/** What the classifier looks at besides the words: the fields read and the item table's column roles. */
export interface Cues {
  fields: Fields;
  roles: (ColumnRole | null)[];
  /** Width of the printed text on page 1 over the page width. */
  textShare: number;
}

/**
 * Points of a title word on the first page: near the top (its first 8 lines, or the top third of
 * its text, under a long address block) counts most.
 */
function titleScore(lines: TextLine[], type: Exclude<DocumentType, 'other'>): number {
  const first = lines.filter((l) => l.page === lines[0]?.page);
  if (!first.length) return 0;
  const top = first[0]!.bbox[1];
  const span = first[first.length - 1]!.bbox[3] - top;
  let score = 0;
  first.slice(0, 40).forEach((l, i) => {
    const t = joinWords(l.words);
    if (TITLES[type].test(t) || JA_TITLES[type].test(t)) score = Math.max(score, i < 8 || l.bbox[1] - top < span / 3 ? 4 : 1);
  });
  return score;
}

/** The document's type (`other` unless one type's title or a till's payment block says it, with its cues). */
export function classify(lines: TextLine[], cues: Cues): DocumentType {
  const f = cues.fields;
  const has = (...names: (keyof Fields)[]) => names.filter((n) => f[n] !== null).length;
  const text = lines.slice(0, 200).map((l) => joinWords(l.words));
  const receiptCues = text.filter((t) => RECEIPT_CUES.test(t) || JA_RECEIPT_CUES.test(t)).length;
  // A till's cash-and-change block makes a receipt whatever its title (`Simplified tax invoice`).
  // Counted on a till's short lines: a report's prose names as many (`change`, `served by`, `table`).
  const short = lines.slice(0, 200).filter((l) => l.words.length <= TILL_LINE_WORDS).map((l) => joinWords(l.words));
  const kinds = TILL_CUES.filter((re) => short.some((t) => re.test(t))).length;
  // A line saying the total was paid in cash or by card (`REGLE PAR ESPECE 56.00 DH` under
  // `Total 56.00`): a till's.
  const total = typeof f.total?.value === 'number' ? f.total.value : null;
  const paidTotal = total !== null && total > 0 && text.some((t) => (CASH.test(t) || CARD.test(t)) && amountsIn(t).some((a) => sameAmount(a.value, total)));
  const till = (text.filter((t) => TILL.test(t)).length >= 2 && f.total !== null) || (paidTotal && has(...INVOICE_ONLY) === 0) || (kinds >= 3 && has(...INVOICE_ONLY) === 0);
  const roles = new Set(cues.roles);
  const scores: Record<Exclude<DocumentType, 'other'>, number> = {
    invoice: titleScore(lines, 'invoice') + Math.min(4, has('invoice_number', 'due_date', 'customer_name', 'vendor_tax_id', 'subtotal', 'tax', 'total', 'payment_terms', 'order_number')),
    receipt:
      Math.max(titleScore(lines, 'receipt'), till ? 5 : 0) +
      Math.min(4, has('total', 'tax') + Math.min(2, receiptCues) + (text.slice(0, 10).some((t) => TIME.test(t)) ? 1 : 0) + (cues.textShare < 0.5 ? 1 : 0)),
    bank_statement:
      titleScore(lines, 'bank_statement') +
      Math.min(4, has('opening_balance', 'closing_balance', 'account_number', 'iban', 'period_start') + (roles.has('balance') ? 1 : 0) + (roles.has('debit') || roles.has('credit') ? 1 : 0)),
  };
  let best: DocumentType = 'other';
  let bestScore = 4;
  for (const [type, s] of Object.entries(scores) as [DocumentType, number][]) if (s > bestScore) [best, bestScore] = [type, s];
  return best;
}

/**
 * Header and summary-row words of invoices and statements in en, de, es, nl, fr, it, pt and ja. Each
 * header maps to a column role; roles we do not put into a line item (position, SKU, unit, VAT
 * rate, discount, …) are recognised too, so that `Pos.` or `MwSt %` is never taken for a
 * quantity or an amount.
 */
import { normalizeText } from '../locale/numbers.js';
import type { DocLang } from '../locale/labels.js';

/** What a column holds. Only description/quantity/unit_price/amount/currency/debit/credit feed a LineItem. */
export type ColumnRole =
  | 'description'
  | 'quantity'
  | 'unit_price'
  | 'amount'
  | 'currency'
  | 'debit'
  | 'credit'
  | 'balance'
  | 'date'
  | 'position'
  | 'sku'
  | 'unit'
  | 'vat_rate'
  | 'tax'
  | 'discount';

/** Languages told apart by their header words (the document languages); a weak prior for the decimal convention. */
export type Lang = DocLang;

const TAX = /(\bvat\b|\btax(es)?\b|mwst|\bust\b|umsatzsteuer|steuer|\biva\b|\bbtw\b|\btva\b|\bgst\b|消費税|税)/;
const RATE = /(%|\brate\b|satz|\btasa\b|\btaux\b|tarief|税率)/;
const NET = /(excl|exkl|netto|\bnet\b|\bht\b|sin iva|zonder|hors|税抜)/;
const AMOUNT = /(amount|total|betrag|gesamt|summe|importe|importo|\bvalor\b|bedrag|totaal|montant|金額|\bsum\b|\bnet\b|netto)/;

/** Ordered: the first rule that matches a header decides its role (`Unit price` before `Unit`). */
const RULES: [ColumnRole, RegExp][] = [
  ['unit_price', /(unit price|price per unit|price\/unit|unit cost|\brate\b|einzelpreis|stückpreis|e-preis|preis\/einheit|preis je|precio unit|precio\/u|p\. ?unit|prijs per|stukprijs|eenheidsprijs|prix unit|prix u\b|\bp\.u\.|prezzo unit|prezzo\/u|preço unit|preço\/u|単価|^price$|^preis$|^precio$|^prijs$|^prix$|^prezzo$|^preço$|^unit ?price)/],
  ['discount', /(discount|\bdisc\b|rabatt|nachlass|descuento|\bdto\b|korting|remise|値引|割引)/],
  ['quantity', /(^qt[ée]s?\.?$|\bqty\b|quantity|\bquant|menge|anzahl|\banz\b|\bstk\b|stück$|cantidad|\bcant\b|\buds\b|unidades|aantal|\bqté\b|\bqte\b|quantità|q\.tà|\bqtà\b|quantidade|\bqtd\.?|\bqtde\b|数量|^hours$|^hrs$|^std\.?$|stunden)/],
  ['unit', /(^units?$|einheit|^me$|^eh$|unidad|eenheid|unité|^u\.?m\.?$|unità|unidade|単位|\buom\b)/],
  ['sku', /(art\.? ?-?nr|artikelnr|artikelnummer|\bsku\b|item code|item no|product code|part no|^code$|^ref|referencia|código|codigo|^cod\.?$|codice|artikelcode|^réf|品番|コード)/],
  ['position', /(^pos\b|^pos\.|^position$|^nr\.?$|^no\.?$|^#$|^n[º°o]\.?$|^line$|^lfd|^núm\.?$|^項番$|^no$)/],
  ['currency', /(^currency$|^währung$|^moneda$|^devise$|^通貨$|^ccy$|^cur$)/],
  ['balance', /(balance|saldo|solde|残高|kontostand)/],
  ['debit', /(debit|\bsoll\b|belastung|ausgang|cargo|débito|\baf\b|débit|withdrawal|paid out|出金|お引出|お支払)/],
  ['credit', /(credit|\bhaben\b|gutschrift|eingang|abono|crédito|\bbij\b|crédit|deposit|paid in|入金|お預入)/],
  ['date', /(date|datum|fecha|日付|年月日|buchungstag|wertstellung|valuta|value day)/],
  ['description', /(desc|beschreibung|bezeichnung|artikel|leistung|produkt|product|concepto|artículo|articulo|omschrijving|désignation|designation|libellé|品名|内容|摘要|^item|service|details|particulars|^text$|article|producto|servicio|detalle|verwendungszweck|buchungstext|omschrijving|artikel|naam|descrizione|articolo|descrição|produto|商品|項目|取引内容)/],
];

/** The role of a column from its header text, or null when the header says nothing we know. */
export function headerRole(header: string): ColumnRole | null {
  // `Price (EUR)`, `Betrag €`: the currency says nothing about the role.
  const h = normalizeText(header)
    .toLowerCase()
    .replace(/[([]?\b(eur|usd|gbp|chf|jpy)\b[)\]]?|[€$£¥円]|\(\s*\)/g, '')
    .trim();
  if (!h) return null;
  if (TAX.test(h)) {
    if (AMOUNT.test(h) && NET.test(h)) return 'amount'; // `Amount excl. VAT`, `Betrag netto`
    if (RATE.test(h) && !AMOUNT.test(h)) return 'vat_rate';
    if (/(incl|inkl|brutto|ttc|con iva|税込)/.test(h) && AMOUNT.test(h)) return 'amount';
    return RATE.test(h) ? 'vat_rate' : 'tax';
  }
  const matched = RULES.filter(([, re]) => re.test(h)).map(([role]) => role);
  // Two columns merged by the detector (`Pos. Bezeichnung`): the description is the one that matters.
  if (matched.includes('description') && matched.every((r) => r === 'description' || r === 'position')) return 'description';
  if (matched.length) return matched[0]!;
  if (AMOUNT.test(h)) return 'amount';
  return null;
}

/** True when a header starts with a position word (`Pos.`, `Nr.`, `#`): its cells may start with the position number. */
export function startsWithPosition(header: string): boolean {
  return /^(pos\b|pos\.|position|nr\.?\s|no\.?\s|#|lfd)/i.test(normalizeText(header));
}

/** A header word's language, for the decimal-convention prior; null when it is shared or unknown. */
export function headerLang(header: string): Lang | null {
  const h = normalizeText(header).toLowerCase();
  if (/[\u3040-\u30ff\u4e00-\u9fff]/.test(h)) return 'ja';
  if (/(beschreibung|bezeichnung|menge|anzahl|einzelpreis|betrag|gesamt|mwst|einheit|artikel|summe|soll|haben|buchung)/.test(h)) return 'de';
  if (/(descripción|concepto|cantidad|precio|importe|iva|unidad|cargo|abono|fecha)/.test(h)) return 'es';
  if (/(omschrijving|aantal|prijs|bedrag|btw|eenheid|totaal|datum)/.test(h)) return 'nl';
  if (/(désignation|quantité|qté|prix|montant|tva|unité|libellé|débit|crédit)/.test(h)) return 'fr';
  if (/(descrizione|quantità|q\.tà|prezzo|importo|imponibile)/.test(h)) return 'it';
  if (/(descrição|quantidade|qtd|preço|valor)/.test(h)) return 'pt';
  if (/(description|quantity|qty|unit price|amount|price|total|item)/.test(h)) return 'en';
  return null;
}

/** VAT rates the EU, Switzerland, Japan and others use, in percent. */
export const VAT_RATES = new Set([0, 2.1, 2.5, 2.6, 3, 3.7, 3.8, 4, 5, 5.5, 6, 7, 7.7, 8, 8.1, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27]);

/** A header that names a tax or a rate (`VAT [%] Net`, `MwSt Gesamt`): a figure of its cells may be a rate. */
export function namesRate(header: string): boolean {
  const h = normalizeText(header).toLowerCase();
  return TAX.test(h) || h.includes('%');
}

/**
 * A header over a totals row (`Total HT  Total TVA  Total TTC`, `Netto  MwSt  Brutto`, `Net  VAT
 * Total`): it names a tax and a total, or a net and a gross amount, and no item column (a quantity, a unit
 * price, a description) nor a rate, word by word, so OCR that garbles one label or runs the header into a
 * paragraph beside it leaves enough.
 */
export function namesTotalsRow(header: string): boolean {
  const h = normalizeText(header).toLowerCase();
  // A tax and a total (`Total TVA`, `MwSt … Brutto`), or the net and the gross (`Total HT … Total TTC`).
  if (!(TAX.test(h) && (AMOUNT.test(h) || NET.test(h) || GROSS.test(h))) && !(NET.test(h) && GROSS.test(h))) return false;
  const item = new Set<ColumnRole>(['quantity', 'unit_price', 'description', 'unit', 'sku', 'discount']);
  // A rate's column (`Code  %  Net  GST  Total`) heads a tax breakdown, whose total row comes
  // before a till's rounding.
  return !h.split(/\s+/).some((w) => {
    if (/^(%|rate|satz|steuersatz|tasa|taux|tarief|aliquota|taxa|税率)$/.test(w)) return true;
    const r = headerRole(w);
    return r !== null && item.has(r);
  });
}

/** What a summary row says it is. `carry` is a page total carried forward: neither an item nor a total. */
export type SummaryKind = 'subtotal' | 'tax' | 'total' | 'carry' | 'balance_open' | 'balance_close';

/** `re` matches at the start of `l` and is not the start of a longer word (`Tax` but not `Taxi`); for the short tax words only, as German compounds (`Gesamtbetrag`) must match. */
function starts(re: RegExp, l: string): boolean {
  const m = re.exec(l);
  if (!m) return false;
  const next = l[m[0].length];
  return !next || !/[a-zäöüßà-ÿ]/.test(next);
}

/** A total's qualifier saying tax is in it (`brutto`, `TTC`, `gross`), or left out (`net`, `HT`, `excl. VAT`). */
const GROSS = /(incl|inkl|brutto|\bgross\b|ttc|con iva|税込)/;
const NET_QUALIFIER = /(excl|exkl|excluding|before (?:tax|gst|vat)|\bnet(to)?\b|\bht\b|hors tax|sin iva|zonder btw|ohne (mwst|ust|steuer)|税抜)/;

/** The kind of summary row a label starts, or null when it is not one. Anchored at the start. */
export function summaryKind(label: string): SummaryKind | null {
  // `TotalGST`, `TOTALSALES`: a total's word run into the next by the ink.
  const l = normalizeText(label)
    .toLowerCase()
    .replace(/[:：]\s*$/, '')
    .replace(/^total(?=(gst|tax|vat|sales|amount|amt|savings?|qty|items?|incl|excl|due|payable|rm)\b)/, 'total ');
  if (!l) return null;
  if (/^(carried forward|brought forward|übertrag|uebertrag|transporte|suma y sigue|à reporter|a reporter|riporto|a riportare|a transportar|繰越)/.test(l)) return 'carry';
  if (/^(opening balance|balance brought|previous balance|anfangssaldo|alter (kontostand|saldo)|saldo (inicial|anterior)|beginsaldo|saldo begin|solde (initial|précédent|d'ouverture)|前月繰越|前回残高|期首残高)/.test(l)) return 'balance_open';
  if (/^(closing balance|new balance|balance carried|endsaldo|neuer (kontostand|saldo)|saldo (final|nuevo)|eindsaldo|saldo eind|nieuw saldo|solde (final|nouveau)|nouveau solde|今回残高|期末残高|残高合計)/.test(l)) return 'balance_close';
  if (/^(sub-? ?total|zwischensumme|nettobetrag|netto ?summe|summe netto|gesamt netto|nettobetrag|netto$|total net|nett? total|net amount|total ht|total hors|base imponible|subtotaal|totaal excl|sous-total|sous total|totale imponibile|imponibile|subtotale|totale parziale|total ilíquido|小計|税抜合計|税抜金額)/.test(l)) return 'subtotal';
  if (/^(total|gesamt|summe|rechnungsbetrag|rechnungssumme|endbetrag|endsumme|bruttobetrag|bruttosumme|importe total|totaal|te betalen|net [àa] payer|montant total|montant ttc|totale|合計|税込|ご請求|請求金額|amount due|balance due|grand total|zu zahlen|a pagar)/.test(l) && !/^total(?:ly|ity)/.test(l)) {
    const gross = GROSS.test(l);
    if (TAX.test(l) && !/合計/.test(l)) {
      // `TOTAL INCLUDES 6% GST 1.60`: the tax the total holds.
      if (/\bincludes?\b/.test(l)) return 'tax';
      // `Total Sales (Excluding GST)`: the total before tax, though it names the tax.
      if (NET_QUALIFIER.test(l) && !gross) return 'subtotal';
      // `Total 6% supplies (Inc. GST)`: one tax rate's share of the document, not its total.
      if (/suppl/.test(l)) return null;
      // `Total Sales (Inclusive of GST)`, `Total Due (GST Inc)`, `Total payable incl. VAT`: the total.
      if (gross || /(\binc\b|\bdue\b|payable|\bsales\b)/.test(l)) return 'total';
      return 'tax'; // `Total VAT`, `Summe MwSt`
    }
    // `Total amount (net)`, `Montant total HT`, `Rechnungssumme netto`: the total before tax;
    // `Total 6% supplies` (a GST receipt's rate section) too.
    if ((NET_QUALIFIER.test(l) || /suppl/.test(l)) && !gross && !/^(net à payer|net a payer)/.test(l)) return 'subtotal';
    return 'total';
  }
  // `VAT Reg No. GB 123…`, `Tax ID: 91-…`, `MwSt-Nr.`: the vendor's tax id, not a tax amount.
  if (/^(vat|tax|gst|mwst|ust|iva|btw|tva)[\s.-]*(reg|id\b|no\b|nr\b|number|nummer|identifi)/.test(l)) return null;
  if (starts(/^(vat|tax|sales tax|gst|mwst|ust|umsatzsteuer|mehrwertsteuer|iva|btw|tva|消費税|内消費税)/, l)) return 'tax';
  if (/^(zzgl|plus|\+|add\b|davon|incl|inkl|enth|dont|de los cuales|waarvan)/.test(l) && TAX.test(l)) return 'tax'; // `zzgl. 19 % MwSt.`, `Add GST @ 6%`
  return null;
}

/**
 * A label of a charge or deduction printed beside the items rather than as one: charges,
 * shipping, freight, handling, postage, a discount (en, de, fr, nl, es, it, pt). Such a row with
 * an amount alone is no item.
 */
export function isChargeLabel(label: string): boolean {
  const l = normalizeText(label)
    .toLowerCase()
    .replace(/[:：]\s*$/, '')
    .trim();
  return /^((net |total |other |additional |service )?charges?|sur-?charges?(\/charges?)?|shipping( (and|&) handling| costs?| fees?)?|s ?& ?h|freight|handling( fees?)?|postage|delivery (charges?|fees?|costs?)|discounts?|rebates?|allowances?|credits?|versand(kosten)?|porto|fracht(kosten)?|zuschlag|nachlass|rabatt|skonto|frais( de (port|livraison|transport|dossier))?|remise|escompte|verzend(kosten|ing)|vracht(kosten)?|korting|gastos( de (env[ií]o|transporte))?|portes|descuento|spese( di (spedizione|trasporto))?|sconto|frete|desconto)(\b|$)(?!\s*\p{L}{4,})/u.test(l);
}

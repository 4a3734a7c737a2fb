/**
 * The printed labels of document fields in en, de, fr, es, nl, it, pt and ja, as regular
 * expression sources over lower-cased, NFKC-normalised text. A label matches as whole words
 * (Japanese labels anywhere), so `Kundennummer` is not `Kunde` and `manufacturers` is not `facture`.
 */
import { allMatches } from '../matches.js';

export type DocLang = 'en' | 'de' | 'fr' | 'es' | 'nl' | 'it' | 'pt' | 'ja';
export const DOC_LANGS: readonly DocLang[] = ['en', 'de', 'fr', 'es', 'nl', 'it', 'pt', 'ja'];

/** Fields read from the words after a label. */
export type LabelField =
  | 'invoice_number'
  | 'issue_date'
  | 'due_date'
  | 'order_number'
  | 'vendor_tax_id'
  | 'customer_name'
  | 'payment_terms'
  | 'account_number'
  | 'iban'
  | 'period'
  | 'currency'
  | 'amount_due'
  /** Dates that are neither issue nor due date (delivery, order, service): read by no field, they only keep `Date` from matching inside them. */
  | 'other_date';

const N = '(?:n[º°o]\\.?|nr\\.?|no\\.?|#)';

export const LABELS: Record<DocLang, Partial<Record<LabelField, string[]>>> = {
  en: {
    // A bare `Nº 2023-6013` opening a line (under an invoice title) when a number with a separator or of seven digits follows (not `No. 12, Jalan`: an address; `º` is `o` once normalised, and OCR reads it `?` at times).
    invoice_number: ['^(?:n[º°o?]\\.?|#)(?=\\s*:?\\s*(?:[\\p{L}\\p{N}]*[-_/][\\p{L}\\p{N}_/-]*\\d|[\\p{L}]*\\d{7,})(?:\\s|$))', `invoice (?:${N}|number|num\\.?)`, 'invoice', `credit note(?: ${N})?`, 'tax invoice', `receipt (?:${N}|number)`, `bill (?:${N}|number)`],
    issue_date: ['invoice date', 'issue date', 'date of issue', 'issued on', 'dated', 'date'],
    due_date: ['due date', 'payment due', 'due by', 'due on', 'due', 'pay by', 'payable by', 'payable before', 'payable on'],
    order_number: [`(?:purchase )?order (?:${N}|number|ref\\.?)`, `po (?:${N}|number)`, 'p\\.o\\.', 'your order', 'po'],
    vendor_tax_id: [`vat (?:reg\\.? )?(?:${N}|number|id)`, `tax (?:id|${N}|number)`, 'tin', 'abn', `gst (?:${N}|number)`, 'ein', 'vat'],
    customer_name: ['account holder', 'bill to', 'bill-to', 'billed to', 'billing address', 'invoice address', 'delivery address', 'recipient', 'invoice to', 'invoiced to', 'sold to', 'customer', 'client', 'ship to', 'deliver to'],
    payment_terms: ['payment terms', 'terms of payment', 'terms'],
    account_number: [`account (?:${N}|number)`, 'account'],
    iban: ['iban'],
    period: ['statement period', 'period'],
    currency: ['currency'],
    amount_due: ['amount due', 'balance due', 'total due', 'amount payable', 'please pay'],
    other_date: ['(?:original|related|referenced|preceding|corrected) invoice date', 'date of (?:the )?(?:original|related|referenced|preceding) invoice', '(?:service |period )?(?:start|end) date', 'delivery date', 'ship date', 'shipping date', 'order date', 'service date', 'date of supply', 'tax point', 'print date', 'value date'],
  },
  de: {
    invoice_number: ['rechnungsnummer', 'rechnungs-nr\\.?', `rechnung (?:${N})`, 'rechnung', 'gutschrift', `gutschrift (?:${N})`, 'beleg-?nr\\.?', `quittung(?: ${N})?`, `kassenbon(?: ${N})?`, 'bon-?nr\\.?', `bon ${N}`],
    issue_date: ['rechnungsdatum', 'belegdatum', 'ausstellungsdatum', 'datum'],
    due_date: ['fälligkeitsdatum', 'fällig am', 'fällig bis', 'fällig', 'zahlbar bis(?: zum)?', 'zu zahlen bis(?: zum)?'],
    order_number: ['bestellnummer', 'bestell-nr\\.?', `bestellung (?:${N})`, 'ihre bestellung', 'auftragsnummer', 'auftrags-nr\\.?', `auftrag (?:${N})`],
    vendor_tax_id: ['ust-?id-?nr\\.?', 'ust\\.?-?idnr\\.?', 'ust-?id', 'umsatzsteuer-id(?:entifikationsnummer)?', 'steuernummer', 'st\\.-?nr\\.?', 'mwst-?nr\\.?', 'uid'],
    customer_name: ['kontoinhaber', 'rechnungsempfänger', 'rechnungsadresse', 'rechnungsanschrift', 'lieferanschrift', 'empfänger', 'kunde', 'auftraggeber', 'lieferadresse'],
    payment_terms: ['zahlungsbedingungen', 'zahlungsziel', 'zahlungskonditionen'],
    account_number: ['kontonummer', 'konto-?nr\\.?', 'konto'],
    iban: ['iban'],
    period: ['zeitraum', 'abrechnungszeitraum', 'auszugszeitraum'],
    currency: ['währung'],
    amount_due: ['zu zahlen', 'zahlbetrag', 'offener betrag', 'zahlbarer betrag'],
    other_date: ['datum der (?:ursprungs|ursprünglichen |vorherigen |korrigierten )rechnung', 'leistungsbeginn', 'leistungsende', 'beginndatum', 'enddatum', 'lieferdatum', 'leistungsdatum', 'bestelldatum', 'auftragsdatum', 'liefertermin', 'druckdatum', 'buchungsdatum', 'valutadatum'],
  },
  fr: {
    invoice_number: [`facture (?:${N}|numéro)`, 'facture ?n[*\'"”e]?(?=\\s*:)', `(?:facture )?affacturée ${N}`, 'numéro de facture', `${N} de facture`, 'facture', `avoir(?: ${N})`, `reçu (?:${N})`, `ticket (?:${N})`],
    issue_date: ['date de (?:la )?facture', "date d'émission", 'date de facturation', 'émise le', 'date'],
    due_date: ["date d'échéance", 'échéance', 'date limite de (?:règlement|paiement)', '[àa] (?:payer|régler|regler) avant(?: le)?', 'payable (?:le|avant(?: le)?)', 'date de paiement'],
    order_number: [`(?:${N} de )?commande(?: ${N})?`, 'bon de commande', 'votre commande'],
    // `N° TVA` with its sign read into the word, or lost (`NTVA:`, `N*TVA`), as OCR gives it.
    vendor_tax_id: ['n° tva(?: intra(?:com(?:munautaire)?)?)?', 'n[*\'"”]?tva', 'tva intra(?:com(?:munautaire)?)?', 'numéro de tva', 'tva'],
    customer_name: ['titulaire du compte', 'titulaire', 'facturé à', 'facturer à', 'adresse du client', 'adresse de livraison', 'livré à', 'livrer à', 'client', 'destinataire', 'adresse de facturation'],
    payment_terms: ['conditions de paiement', 'conditions de règlement', 'modalités de paiement', 'règlement'],
    account_number: [`(?:${N} de )?compte`, 'numéro de compte'],
    iban: ['iban'],
    period: ['période'],
    currency: ['devise', 'monnaie'],
    // Capitals often drop the accent: `NET A PAYER`.
    amount_due: ['net [àa] payer', 'montant dû', 'reste [àa] payer', 'montant [àa] payer'],
    other_date: ["date de (?:la )?facture (?:associ[ée]e|d'origine|initiale|rectifi[ée]e|pr[ée]c[ée]dente)", 'date de (?:d[ée]but|fin)(?: de (?:la )?(?:prestation|p[ée]riode|service))?', 'date de livraison', 'date de commande', 'date de prestation'],
  },
  es: {
    invoice_number: [`factura (?:${N}|número)`, 'número de factura', `${N} (?:de )?factura`, 'factura', `recibo (?:${N})`, `ticket (?:${N})`, 'factura simplificada'],
    issue_date: ['fecha de (?:la )?factura', 'fecha de emisión', 'fecha expedición', 'fecha'],
    due_date: ['fecha de vencimiento', 'fecha límite de pago', 'vencimiento', 'vence'],
    order_number: [`(?:${N} (?:de )?)?pedido(?: ${N})?`, 'número de pedido', 'su pedido'],
    vendor_tax_id: ['cif', 'nif', 'nie', 'n\\.?i\\.?f\\.?', 'c\\.?i\\.?f\\.?'],
    customer_name: ['titular', 'cliente', 'facturar a', 'destinatario'],
    payment_terms: ['condiciones de pago', 'forma de pago', 'plazo de pago'],
    account_number: [`(?:${N} de )?cuenta`, 'número de cuenta'],
    iban: ['iban'],
    period: ['periodo', 'período'],
    currency: ['divisa', 'moneda'],
    amount_due: ['importe a pagar', 'total a pagar', 'a pagar'],
    other_date: ['fecha de entrega', 'fecha de pedido', 'fecha de envío', 'fecha valor'],
  },
  nl: {
    invoice_number: ['factuurnummer', `factuur(?: ${N})?`, 'creditnota', `bon ${N}`, 'kassabon'],
    issue_date: ['factuurdatum', 'datum'],
    due_date: ['vervaldatum', 'uiterste betaaldatum', 'te betalen voor', 'betalen voor', 'vervaldag'],
    order_number: ['ordernummer', 'bestelnummer', 'uw order', 'uw bestelling', 'inkoopordernummer'],
    vendor_tax_id: ['btw-?(?:nummer|nr\\.?|id)', 'btw-identificatienummer', 'btw'],
    customer_name: ['rekeninghouder', 'klant', 'factuuradres', 'afleveradres', 'leveradres', 'gefactureerd aan', 'factuur aan', 'aan'],
    payment_terms: ['betalingsvoorwaarden', 'betalingstermijn', 'betaaltermijn'],
    account_number: ['rekeningnummer', 'rekening'],
    iban: ['iban'],
    period: ['periode'],
    currency: ['valuta'],
    amount_due: ['te betalen', 'openstaand bedrag'],
    other_date: ['leverdatum', 'orderdatum', 'besteldatum'],
  },
  it: {
    invoice_number: [`fattura (?:${N}|numero)`, 'numero fattura', 'fattura', `scontrino(?: ${N})?`, `ricevuta(?: ${N})?`, `nota di credito(?: ${N})?`],
    issue_date: ['data fattura', 'data di emissione', 'data documento', 'data'],
    due_date: ['data (?:di )?scadenza', 'scadenza'],
    order_number: [`ordine(?: ${N})?`, 'numero ordine', 'vs\\. ordine', 'rif\\. ordine'],
    vendor_tax_id: ['p\\.? ?iva', 'partita iva', 'codice fiscale', 'c\\.f\\.'],
    customer_name: ['cliente', 'destinatario', 'intestatario', 'spett\\.le'],
    payment_terms: ['condizioni di pagamento', 'termini di pagamento', 'modalità di pagamento', 'pagamento'],
    account_number: [`(?:${N} )?conto(?: corrente)?`, 'numero conto'],
    iban: ['iban'],
    period: ['periodo'],
    currency: ['valuta'],
    amount_due: ['da pagare', 'totale da pagare', 'netto a pagare'],
    other_date: ['data di consegna', 'data ordine', 'data consegna'],
  },
  pt: {
    invoice_number: [`fatura (?:${N}|número)`, 'número da fatura', 'fatura', 'nota fiscal', `recibo(?: ${N})?`, 'fatura-recibo'],
    issue_date: ['data de emissão', 'data da fatura', 'data'],
    due_date: ['data de vencimento', 'vencimento'],
    order_number: [`(?:${N} (?:do )?)?pedido(?: ${N})?`, 'encomenda', 'número da encomenda'],
    vendor_tax_id: ['nif', 'nipc', 'cnpj', 'contribuinte'],
    customer_name: ['titular', 'cliente', 'destinatário', 'faturar a'],
    payment_terms: ['condições de pagamento', 'forma de pagamento'],
    account_number: [`(?:${N} (?:da )?)?conta`, 'número da conta'],
    iban: ['iban'],
    period: ['período'],
    currency: ['moeda'],
    amount_due: ['valor a pagar', 'total a pagar', 'a pagar'],
    other_date: ['data de entrega', 'data da encomenda', 'data do pedido'],
  },
  ja: {
    invoice_number: ['請求書番号', '請求番号', '請求書no\\.?', '伝票番号', '領収書番号'],
    issue_date: ['請求日', '発行日', '請求書発行日', '日付'],
    due_date: ['お支払期限', '支払期限', '支払期日', 'お支払期日', '振込期限'],
    order_number: ['注文番号', '発注番号', 'ご注文番号'],
    vendor_tax_id: ['登録番号', '適格請求書発行事業者登録番号'],
    customer_name: ['口座名義', '名義人'],
    payment_terms: ['支払条件', 'お支払条件', 'お支払方法'],
    account_number: ['口座番号'],
    iban: ['iban'],
    period: ['期間', '対象期間'],
    currency: ['通貨'],
    amount_due: ['ご請求金額', 'お支払金額', '請求金額'],
    other_date: ['納品日', '注文日', '出荷日'],
  },
};

/** A label ends where a word does (`Receipt #` may touch its number): not inside `Kundennummer`, not the `PO` of `PO-7781`. */
const AFTER = '(?:(?<![\\p{L}\\p{N}])|(?![\\p{L}\\p{N}]|-[\\p{L}\\p{N}]))';

const cache = new Map<string, RegExp>();

/** What OCR reads an accented letter as, or prints it as in capitals (`REGLEMENT`, `réglement` for `règlement`). */
const LOOK_ALIKE: Record<string, string> = { é: 'eéèê', è: 'eéèê', ê: 'eéèê', ë: 'eë', à: 'aàâ', â: 'aàâ', ç: 'cç', ô: 'oô', î: 'iî', ï: 'iï', ù: 'uùû', û: 'uùû', ä: 'aä', ö: 'oö', ü: 'uü', á: 'aá', í: 'ií', ó: 'oó', ú: 'uú', ñ: 'nñ', ã: 'aã', õ: 'oõ' };

/** A document's title word alone (`invoice`, `facture`, `Rechnung`): a label where it heads a line or a box, not where it is named in a phrase. */
export const TITLE_WORD = /^(?:invoice|facture|rechnung|factuur|factura|fattura|fatura|gutschrift|avoir)$/;
/** Words that name a document in running text (`sur la facture`, `this invoice`, `Ihre Rechnung`): what follows is no number of it. */
export const DETERMINER = /(?:^|\s)(?:the|this|your|our|la|le|cette|votre|notre|sur|die|der|diese|ihre|unsere|de|het|uw|deze|el|esta|su|questa|sua|a)\s$/;

/** A label's pattern with each accented letter matching its look-alikes (inside a class too). */
export function foldAccents(src: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === '\\') {
      out += ch + (src[++i] ?? '');
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    const alike = LOOK_ALIKE[ch];
    out += alike ? (inClass ? alike : `[${alike}]`) : ch;
  }
  return out;
}

/** One regex of all the labels of `field` in every language: longest first, whole words. */
export function labelRegex(field: LabelField): RegExp {
  let re = cache.get(field);
  if (!re) {
    const all = DOC_LANGS.flatMap((l) => LABELS[l][field] ?? []);
    const sorted = [...new Set(all)].sort((a, b) => b.length - a.length);
    const latin = sorted.filter((s) => !/[\u3040-\u30ff\u4e00-\u9fff]/.test(s)).map(foldAccents);
    const cjk = sorted.filter((s) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(s));
    const parts = [];
    if (latin.length) parts.push(`(?<![\\p{L}\\p{N}])(?:${latin.join('|')})${AFTER}`);
    if (cjk.length) parts.push(`(?:${cjk.join('|')})`);
    re = new RegExp(parts.join('|'), 'gu');
    cache.set(field, re);
  }
  re.lastIndex = 0;
  return re;
}

let perLanguage: Map<DocLang, RegExp> | null = null;

/** How often the labels of each language occur in `text` (lower-cased); `iban` and labels under four letters do not count. */
export function labelLanguages(text: string): Map<DocLang, number> {
  perLanguage ??= new Map(
    DOC_LANGS.map((lang) => {
      const srcs = Object.values(LABELS[lang])
        .flat()
        .filter((src): src is string => !!src && src !== 'iban' && src.length >= 4)
        .sort((a, b) => b.length - a.length);
      const cjk = srcs.filter((x) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(x));
      const latin = srcs.filter((x) => !cjk.includes(x));
      const parts = [...(latin.length ? [`(?<![\\p{L}\\p{N}])(?:${latin.join('|')})${AFTER}`] : []), ...cjk];
      return [lang, new RegExp(parts.join('|'), 'gu')] as [DocLang, RegExp];
    }),
  );
  const hits = new Map<DocLang, number>();
  for (const [lang, re] of perLanguage) {
    const n = allMatches(re, text).length;
    if (n) hits.set(lang, n);
  }
  return hits;
}

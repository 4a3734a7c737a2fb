/**
 * An e-invoice's XML read into the engine's fields and lines: UN/CEFACT CII (ZUGFeRD 2.x,
 * Factur-X, XRechnung CII: `CrossIndustryInvoice`; ZUGFeRD 1.x: `CrossIndustryDocument`) and UBL
 * 2.1 `Invoice` / `CreditNote` (Peppol, XRechnung UBL). Values are taken as the XML states them:
 * decimals with a dot, CII dates `format="102"` (YYYYMMDD), UBL dates ISO. A credit note's
 * amounts stay as the XML and the print give them (positive under a credit note's heading).
 */
import type { FieldName } from '../types.js';
import { child, children, textAt, type XmlElement } from './xml.js';

export const CII_NS = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
export const ZUGFERD1_NS = 'urn:ferd:CrossIndustryDocument:invoice:1p0';
export const UBL_INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const UBL_CREDIT_NOTE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

/** Root elements that are an invoice, by namespace. */
export const INVOICE_ROOTS: ReadonlyArray<{ ns: string; name: string }> = [
  { ns: CII_NS, name: 'CrossIndustryInvoice' },
  { ns: ZUGFERD1_NS, name: 'CrossIndustryDocument' },
  { ns: UBL_INVOICE_NS, name: 'Invoice' },
  { ns: UBL_CREDIT_NOTE_NS, name: 'CreditNote' },
];

export function isInvoiceRoot(ns: string, name: string): boolean {
  return INVOICE_ROOTS.some((r) => r.ns === ns && r.name === name);
}

/** A value of the XML and the text it was written as. */
export interface CarriedValue {
  value: string | number;
  text: string;
}

export interface CarriedLine {
  description: string | null;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
}

export interface CarriedInvoice {
  syntax: 'cii' | 'ubl';
  /** A credit note (CII type 381, UBL `CreditNote`): its amounts as the XML gives them. */
  credit_note: boolean;
  fields: Partial<Record<FieldName, CarriedValue>>;
  lines: CarriedLine[];
}

/** The invoice in `root`, or null when the root is no invoice this reads. */
export function readInvoice(root: XmlElement): CarriedInvoice | null {
  if (!isInvoiceRoot(root.ns, root.name)) return null;
  return root.ns === CII_NS || root.ns === ZUGFERD1_NS ? readCii(root) : readUbl(root);
}

function amount(el: XmlElement | null): CarriedValue | undefined {
  const t = el?.text;
  if (!t || !/^[-+]?\d+(\.\d+)?$/.test(t)) return undefined;
  return { value: Number(t), text: t };
}

function text(t: string | null): CarriedValue | undefined {
  const s = t?.replace(/\s+/g, ' ').trim();
  return s ? { value: s, text: s } : undefined;
}

/** A CII date (`format="102"` YYYYMMDD) or an ISO date, as ISO. */
function date(el: XmlElement | null): CarriedValue | undefined {
  const t = el?.text;
  const m = t ? /^(\d{4})-?(\d{2})-?(\d{2})/.exec(t) : null;
  return m ? { value: `${m[1]}-${m[2]}-${m[3]}`, text: t! } : undefined;
}

function num(el: XmlElement | null): number | null {
  const v = amount(el)?.value;
  return typeof v === 'number' ? v : null;
}

/** Of several amounts (a tax total given in two currencies), the one in `currency`. */
function inCurrency(els: XmlElement[], currency: string | undefined): XmlElement | null {
  return els.find((e) => !e.attrs.currencyID || e.attrs.currencyID === currency) ?? els[0] ?? null;
}

function defined(fields: Partial<Record<FieldName, CarriedValue | undefined>>): Partial<Record<FieldName, CarriedValue>> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Record<FieldName, CarriedValue>>;
}

function address(parts: Array<string | null>): CarriedValue | undefined {
  return text(parts.filter((p): p is string => !!p).join(', '));
}

/** The first of `names` among `el`'s children. */
function either(el: XmlElement | null, ...names: string[]): XmlElement | null {
  for (const n of names) {
    const c = child(el, n);
    if (c) return c;
  }
  return null;
}

function readCii(root: XmlElement): CarriedInvoice {
  const doc = either(root, 'ExchangedDocument', 'HeaderExchangedDocument');
  const tx = either(root, 'SupplyChainTradeTransaction', 'SpecifiedSupplyChainTradeTransaction');
  const agreement = either(tx, 'ApplicableHeaderTradeAgreement', 'ApplicableSupplyChainTradeAgreement');
  const settlement = either(tx, 'ApplicableHeaderTradeSettlement', 'ApplicableSupplyChainTradeSettlement');
  const sums = either(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation', 'SpecifiedTradeSettlementMonetarySummation');
  const seller = child(agreement, 'SellerTradeParty');
  const sellerAddress = child(seller, 'PostalTradeAddress');
  const taxIds = children(seller, 'SpecifiedTaxRegistration').map((r) => child(r, 'ID'));
  const vat = taxIds.find((id) => id?.attrs.schemeID === 'VA') ?? taxIds[0] ?? null;
  const currency = textAt(settlement, 'InvoiceCurrencyCode') ?? undefined;
  const means = children(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const iban = means.map((m) => textAt(m, 'PayeePartyCreditorFinancialAccount', 'IBANID')).find(Boolean) ?? null;
  const terms = child(settlement, 'SpecifiedTradePaymentTerms');
  const typeCode = textAt(doc, 'TypeCode');
  const fields = defined({
    invoice_number: text(textAt(doc, 'ID')),
    issue_date: date(child(doc, 'IssueDateTime', 'DateTimeString')),
    due_date: date(child(terms, 'DueDateDateTime', 'DateTimeString')),
    currency: text(currency ?? null),
    total: amount(child(sums, 'GrandTotalAmount')),
    subtotal: amount(child(sums, 'TaxBasisTotalAmount')),
    tax: amount(inCurrency(children(sums, 'TaxTotalAmount'), currency)),
    amount_due: amount(child(sums, 'DuePayableAmount')),
    vendor_name: text(textAt(seller, 'Name')),
    vendor_tax_id: text(vat?.text ?? null),
    vendor_address: address([
      textAt(sellerAddress, 'LineOne'),
      textAt(sellerAddress, 'LineTwo'),
      textAt(sellerAddress, 'LineThree'),
      [textAt(sellerAddress, 'PostcodeCode'), textAt(sellerAddress, 'CityName')].filter(Boolean).join(' ') || null,
      textAt(sellerAddress, 'CountryID'),
    ]),
    customer_name: text(textAt(agreement, 'BuyerTradeParty', 'Name')),
    iban: text(iban?.replace(/\s+/g, '') ?? null),
    order_number: text(textAt(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID') ?? textAt(agreement, 'BuyerOrderReferencedDocument', 'ID')),
    payment_terms: text(textAt(terms, 'Description')),
  });
  const lines = children(tx, 'IncludedSupplyChainTradeLineItem').map((li): CarriedLine => {
    const lineAgreement = either(li, 'SpecifiedLineTradeAgreement', 'SpecifiedSupplyChainTradeAgreement');
    const lineDelivery = either(li, 'SpecifiedLineTradeDelivery', 'SpecifiedSupplyChainTradeDelivery');
    const lineSettlement = either(li, 'SpecifiedLineTradeSettlement', 'SpecifiedSupplyChainTradeSettlement');
    const lineSums = either(lineSettlement, 'SpecifiedTradeSettlementLineMonetarySummation', 'SpecifiedTradeSettlementMonetarySummation');
    return {
      description: textAt(li, 'SpecifiedTradeProduct', 'Name'),
      quantity: num(child(lineDelivery, 'BilledQuantity')),
      unit_price: num(child(lineAgreement, 'NetPriceProductTradePrice', 'ChargeAmount')) ?? num(child(lineAgreement, 'GrossPriceProductTradePrice', 'ChargeAmount')),
      amount: num(child(lineSums, 'LineTotalAmount')),
    };
  });
  return { syntax: 'cii', credit_note: typeCode === '381', fields, lines };
}

function readUbl(root: XmlElement): CarriedInvoice {
  const credit = root.name === 'CreditNote';
  const supplier = child(root, 'AccountingSupplierParty', 'Party');
  const customer = child(root, 'AccountingCustomerParty', 'Party');
  const partyName = (p: XmlElement | null) => textAt(p, 'PartyName', 'Name') ?? textAt(p, 'PartyLegalEntity', 'RegistrationName');
  const postal = child(supplier, 'PostalAddress');
  const taxSchemes = children(supplier, 'PartyTaxScheme');
  const vat = taxSchemes.find((s) => textAt(s, 'TaxScheme', 'ID') === 'VAT') ?? taxSchemes[0] ?? null;
  const currency = textAt(root, 'DocumentCurrencyCode') ?? undefined;
  const means = children(root, 'PaymentMeans');
  const sums = child(root, 'LegalMonetaryTotal');
  const taxTotals = children(root, 'TaxTotal').map((t) => child(t, 'TaxAmount')).filter((t): t is XmlElement => !!t);
  const fields = defined({
    invoice_number: text(textAt(root, 'ID')),
    issue_date: date(child(root, 'IssueDate')),
    due_date: date(child(root, 'DueDate') ?? means.map((m) => child(m, 'PaymentDueDate')).find(Boolean) ?? null),
    currency: text(currency ?? null),
    total: amount(child(sums, 'TaxInclusiveAmount')),
    subtotal: amount(child(sums, 'TaxExclusiveAmount')),
    tax: amount(inCurrency(taxTotals, currency)),
    amount_due: amount(child(sums, 'PayableAmount')),
    vendor_name: text(partyName(supplier)),
    vendor_tax_id: text(textAt(vat, 'CompanyID')),
    vendor_address: address([
      textAt(postal, 'StreetName'),
      textAt(postal, 'AdditionalStreetName'),
      textAt(postal, 'AddressLine', 'Line'),
      [textAt(postal, 'PostalZone'), textAt(postal, 'CityName')].filter(Boolean).join(' ') || null,
      textAt(postal, 'Country', 'IdentificationCode'),
    ]),
    customer_name: text(partyName(customer)),
    iban: text(means.map((m) => textAt(m, 'PayeeFinancialAccount', 'ID')).find(Boolean)?.replace(/\s+/g, '') ?? null),
    order_number: text(textAt(root, 'OrderReference', 'ID')),
    payment_terms: text(textAt(root, 'PaymentTerms', 'Note')),
  });
  const lines = children(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map(
    (li): CarriedLine => ({
      description: textAt(li, 'Item', 'Name') ?? textAt(li, 'Item', 'Description'),
      quantity: num(child(li, credit ? 'CreditedQuantity' : 'InvoicedQuantity')),
      unit_price: num(child(li, 'Price', 'PriceAmount')),
      amount: num(child(li, 'LineExtensionAmount')),
    }),
  );
  return { syntax: 'ubl', credit_note: credit, fields, lines };
}

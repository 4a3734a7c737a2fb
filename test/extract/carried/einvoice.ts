/**
 * E-invoices made in code for the tests: one invoice's values written as Factur-X / ZUGFeRD 2
 * CII, ZUGFeRD 1 CII and UBL 2.1 (Invoice or CreditNote) XML, and printed on a PDF page
 * (pdf-lib, Helvetica) with the XML attached as an embedded file, as a ZUGFeRD PDF carries it.
 */
import { AFRelationship, PDFDocument, StandardFonts } from 'pdf-lib';

export interface TestInvoice {
  number: string;
  issue: string; // ISO
  due: string; // ISO
  seller: string;
  sellerVat: string;
  buyer: string;
  iban: string;
  order: string;
  currency: string;
  lines: Array<{ name: string; qty: number; price: number }>;
  taxRate: number;
}

export const INVOICE_A: TestInvoice = {
  number: 'INV-1001',
  issue: '2024-03-15',
  due: '2024-04-14',
  seller: 'Nordlicht Werkzeuge GmbH',
  sellerVat: 'DE123456789',
  buyer: 'Hafenbau AG',
  iban: 'DE89370400440532013000',
  order: 'PO-7788',
  currency: 'EUR',
  lines: [
    { name: 'Cordless drill', qty: 2, price: 40 },
    { name: 'Drill bit set', qty: 1, price: 20 },
  ],
  taxRate: 19,
};

export const INVOICE_B: TestInvoice = {
  ...INVOICE_A,
  number: 'INV-2002',
  lines: [
    { name: 'Cordless drill', qty: 4, price: 40 },
    { name: 'Safety goggles', qty: 8, price: 5 },
  ],
};

export function sums(inv: TestInvoice): { net: number; tax: number; gross: number } {
  const net = inv.lines.reduce((s, l) => s + l.qty * l.price, 0);
  const tax = Math.round(net * inv.taxRate) / 100;
  return { net, tax, gross: net + tax };
}

const d102 = (iso: string) => iso.replaceAll('-', '');
const f2 = (n: number) => n.toFixed(2);

/** Factur-X / ZUGFeRD 2 (`CrossIndustryInvoice`) or ZUGFeRD 1 (`CrossIndustryDocument`) XML. */
export function ciiXml(inv: TestInvoice, version: 1 | 2 = 2, typeCode = '380'): string {
  const s = sums(inv);
  const v1 = version === 1;
  const root = v1 ? 'CrossIndustryDocument' : 'CrossIndustryInvoice';
  const ns = v1 ? 'urn:ferd:CrossIndustryDocument:invoice:1p0' : 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
  const ram = v1 ? 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12' : 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
  const udt = v1 ? 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15' : 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100';
  const [doc, tx, agr, del, set, sum, lAgr, lDel, lSet, lSum] = v1
    ? ['HeaderExchangedDocument', 'SpecifiedSupplyChainTradeTransaction', 'ApplicableSupplyChainTradeAgreement', 'ApplicableSupplyChainTradeDelivery', 'ApplicableSupplyChainTradeSettlement', 'SpecifiedTradeSettlementMonetarySummation', 'SpecifiedSupplyChainTradeAgreement', 'SpecifiedSupplyChainTradeDelivery', 'SpecifiedSupplyChainTradeSettlement', 'SpecifiedTradeSettlementMonetarySummation']
    : ['ExchangedDocument', 'SupplyChainTradeTransaction', 'ApplicableHeaderTradeAgreement', 'ApplicableHeaderTradeDelivery', 'ApplicableHeaderTradeSettlement', 'SpecifiedTradeSettlementHeaderMonetarySummation', 'SpecifiedLineTradeAgreement', 'SpecifiedLineTradeDelivery', 'SpecifiedLineTradeSettlement', 'SpecifiedTradeSettlementLineMonetarySummation'];
  const lines = inv.lines
    .map(
      (l, i) => `<ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>${l.name}</ram:Name></ram:SpecifiedTradeProduct>
      <ram:${lAgr}><ram:NetPriceProductTradePrice><ram:ChargeAmount>${f2(l.price)}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:${lAgr}>
      <ram:${lDel}><ram:BilledQuantity unitCode="C62">${l.qty}</ram:BilledQuantity></ram:${lDel}>
      <ram:${lSet}><ram:${lSum}><ram:LineTotalAmount>${f2(l.qty * l.price)}</ram:LineTotalAmount></ram:${lSum}></ram:${lSet}>
    </ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:${root} xmlns:rsm="${ns}" xmlns:ram="${ram}" xmlns:udt="${udt}">
  <rsm:${doc}>
    <ram:ID>${inv.number}</ram:ID>
    <ram:TypeCode>${typeCode}</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">${d102(inv.issue)}</udt:DateTimeString></ram:IssueDateTime>
  </rsm:${doc}>
  <rsm:${tx}>
    ${lines}
    <ram:${agr}>
      <ram:SellerTradeParty>
        <ram:Name>${inv.seller}</ram:Name>
        <ram:PostalTradeAddress><ram:PostcodeCode>20095</ram:PostcodeCode><ram:LineOne>Kaistrasse 5</ram:LineOne><ram:CityName>Hamburg</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${inv.sellerVat}</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>${inv.buyer}</ram:Name></ram:BuyerTradeParty>
      <ram:BuyerOrderReferencedDocument><ram:${v1 ? 'ID' : 'IssuerAssignedID'}>${inv.order}</ram:${v1 ? 'ID' : 'IssuerAssignedID'}></ram:BuyerOrderReferencedDocument>
    </ram:${agr}>
    <ram:${del}/>
    <ram:${set}>
      <ram:InvoiceCurrencyCode>${inv.currency}</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${inv.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>
      <ram:SpecifiedTradePaymentTerms><ram:Description>30 days net</ram:Description><ram:DueDateDateTime><udt:DateTimeString format="102">${d102(inv.due)}</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:${sum}>
        <ram:LineTotalAmount>${f2(s.net)}</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>${f2(s.net)}</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="${inv.currency}">${f2(s.tax)}</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${f2(s.gross)}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${f2(s.gross)}</ram:DuePayableAmount>
      </ram:${sum}>
    </ram:${set}>
  </rsm:${tx}>
</rsm:${root}>
`;
}

/** UBL 2.1 `Invoice` or `CreditNote` XML (Peppol BIS 3 shape). */
export function ublXml(inv: TestInvoice, kind: 'Invoice' | 'CreditNote' = 'Invoice'): string {
  const s = sums(inv);
  const credit = kind === 'CreditNote';
  const lines = inv.lines
    .map(
      (l, i) => `<cac:${kind}Line>
    <cbc:ID>${i + 1}</cbc:ID>
    <cbc:${credit ? 'CreditedQuantity' : 'InvoicedQuantity'} unitCode="C62">${l.qty}</cbc:${credit ? 'CreditedQuantity' : 'InvoicedQuantity'}>
    <cbc:LineExtensionAmount currencyID="${inv.currency}">${f2(l.qty * l.price)}</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>${l.name}</cbc:Name></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="${inv.currency}">${f2(l.price)}</cbc:PriceAmount></cac:Price>
  </cac:${kind}Line>`,
    )
    .join('\n  ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<${kind} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${kind}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
  <cbc:ID>${inv.number}</cbc:ID>
  <cbc:IssueDate>${inv.issue}</cbc:IssueDate>
  ${credit ? '' : `<cbc:DueDate>${inv.due}</cbc:DueDate>`}
  <cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>${credit ? 381 : 380}</cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>
  <cbc:DocumentCurrencyCode>${inv.currency}</cbc:DocumentCurrencyCode>
  <cac:OrderReference><cbc:ID>${inv.order}</cbc:ID></cac:OrderReference>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PartyName><cbc:Name>${inv.seller}</cbc:Name></cac:PartyName>
    <cac:PostalAddress><cbc:StreetName>Kaistrasse 5</cbc:StreetName><cbc:CityName>Hamburg</cbc:CityName><cbc:PostalZone>20095</cbc:PostalZone><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>${inv.sellerVat}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>${inv.buyer}</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>${credit ? `<cbc:PaymentDueDate>${inv.due}</cbc:PaymentDueDate>` : ''}<cac:PayeeFinancialAccount><cbc:ID>${inv.iban}</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:PaymentTerms><cbc:Note>30 days net</cbc:Note></cac:PaymentTerms>
  <cac:TaxTotal><cbc:TaxAmount currencyID="${inv.currency}">${f2(s.tax)}</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="${inv.currency}">${f2(s.net)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="${inv.currency}">${f2(s.net)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="${inv.currency}">${f2(s.gross)}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="${inv.currency}">${f2(s.gross)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  ${lines}
</${kind}>
`;
}

const dmy = (iso: string) => iso.split('-').reverse().join('.');

/** The invoice printed on an A4 page; `attach` adds an embedded file (name → content). */
export async function invoicePdf(inv: TestInvoice, attach?: { name: string; content: string | Uint8Array }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595, 842]);
  const s = sums(inv);
  let y = 790;
  const text = (t: string, x: number, size = 10, f = font) => page.drawText(t, { x, y, size, font: f });
  text(inv.seller, 50, 14, bold);
  y -= 16;
  text('Kaistrasse 5, 20095 Hamburg', 50);
  y -= 40;
  text('INVOICE', 50, 18, bold);
  y -= 30;
  for (const [label, value] of [
    ['Invoice No.:', inv.number],
    ['Invoice date:', dmy(inv.issue)],
    ['Due date:', dmy(inv.due)],
    ['Order No.:', inv.order],
    ['Customer:', inv.buyer],
  ]) {
    text(label!, 50);
    text(value!, 160);
    y -= 15;
  }
  y -= 25;
  const cols = [50, 300, 380, 480];
  ['Description', 'Qty', 'Unit price', 'Amount'].forEach((h, i) => text(h, cols[i]!, 10, bold));
  y -= 18;
  for (const l of inv.lines) {
    [l.name, String(l.qty), f2(l.price), f2(l.qty * l.price)].forEach((t, i) => text(t, cols[i]!));
    y -= 16;
  }
  y -= 20;
  for (const [label, value] of [
    ['Subtotal', f2(s.net)],
    [`VAT ${inv.taxRate}%`, f2(s.tax)],
    ['Total', `${f2(s.gross)} ${inv.currency}`],
  ]) {
    text(label!, 380);
    text(value!, 480);
    y -= 16;
  }
  y -= 30;
  text(`IBAN: ${inv.iban.replace(/(.{4})/g, '$1 ').trim()}`, 50);
  y -= 15;
  text(`VAT ID: ${inv.sellerVat}`, 50);
  if (attach) {
    await doc.attach(typeof attach.content === 'string' ? new TextEncoder().encode(attach.content) : attach.content, attach.name, {
      mimeType: 'text/xml',
      description: 'Factur-X invoice',
      afRelationship: AFRelationship.Alternative,
    });
  }
  return doc.save();
}

import { describe, expect, it } from 'vitest';
import { headerLang, headerRole, summaryKind } from '../../../src/extract/lineitems/vocabulary.js';

describe('headerRole', () => {
  const cases: [string, string | null][] = [
    ['Description', 'description'], ['Beschreibung', 'description'], ['Bezeichnung', 'description'], ['Artikel', 'description'],
    ['Descripción', 'description'], ['Concepto', 'description'], ['Omschrijving', 'description'], ['Désignation', 'description'],
    ['品名', 'description'], ['内容', 'description'], ['摘要', 'description'], ['Verwendungszweck', 'description'],
    ['Qty', 'quantity'], ['Quantity', 'quantity'], ['Menge', 'quantity'], ['Anzahl', 'quantity'], ['Cantidad', 'quantity'],
    ['Aantal', 'quantity'], ['Quantité', 'quantity'], ['Qté', 'quantity'], ['数量', 'quantity'], ['Hours', 'quantity'],
    ['Unit price', 'unit_price'], ['Unit Price', 'unit_price'], ['Einzelpreis', 'unit_price'], ['Precio unitario', 'unit_price'],
    ['Prijs', 'unit_price'], ['Prix unitaire HT', 'unit_price'], ['単価', 'unit_price'], ['Rate', 'unit_price'], ['Einzelpreis €', 'unit_price'],
    ['Amount', 'amount'], ['Total', 'amount'], ['Line total', 'amount'], ['Betrag', 'amount'], ['Gesamt', 'amount'], ['Gesamt €', 'amount'],
    ['Importe', 'amount'], ['Bedrag', 'amount'], ['Montant HT', 'amount'], ['金額', 'amount'], ['Amount excl. VAT', 'amount'], ['Betrag netto', 'amount'],
    ['Pos.', 'position'], ['Nr.', 'position'], ['No.', 'position'], ['#', 'position'],
    ['Art.-Nr.', 'sku'], ['SKU', 'sku'], ['Product code', 'sku'], ['Código', 'sku'], ['Réf.', 'sku'],
    ['Unit', 'unit'], ['Einheit', 'unit'], ['Unidad', 'unit'], ['単位', 'unit'],
    ['VAT %', 'vat_rate'], ['MwSt-Satz', 'vat_rate'], ['IVA %', 'vat_rate'], ['BTW', 'tax'], ['VAT amount', 'tax'], ['税率', 'vat_rate'],
    ['Discount', 'discount'], ['Rabatt', 'discount'], ['Dto.', 'discount'], ['Korting', 'discount'], ['Remise', 'discount'],
    ['Currency', 'currency'], ['Währung', 'currency'],
    ['Debit', 'debit'], ['Soll', 'debit'], ['Credit', 'credit'], ['Haben', 'credit'], ['Balance', 'balance'], ['Saldo', 'balance'],
    ['Date', 'date'], ['Buchungstag', 'date'], ['Fecha', 'date'],
    ['Pos. Bezeichnung', 'description'], ['Menge Einheit', 'quantity'],
    ['Remarks about it', null], ['', null],
  ];
  it.each(cases)('%j → %s', (header, role) => {
    expect(headerRole(header)).toBe(role);
  });
});

describe('summaryKind', () => {
  const cases: [string, string | null][] = [
    ['Subtotal', 'subtotal'], ['Sub-total:', 'subtotal'], ['Zwischensumme', 'subtotal'], ['Nettobetrag', 'subtotal'], ['Base imponible', 'subtotal'],
    ['Subtotaal', 'subtotal'], ['Sous-total HT', 'subtotal'], ['小計', 'subtotal'],
    ['Tax (8.25%)', 'tax'], ['VAT 20%', 'tax'], ['MwSt. 19 %', 'tax'], ['zzgl. 19 % MwSt.', 'tax'], ['IVA (21 %)', 'tax'], ['BTW', 'tax'],
    ['TVA 20 %', 'tax'], ['消費税（10%）', 'tax'], ['Total VAT', 'tax'],
    ['Total', 'total'], ['Total USD', 'total'], ['Gesamtbetrag EUR', 'total'], ['Rechnungsbetrag', 'total'], ['Totaal', 'total'],
    ['Total TTC', 'total'], ['合計', 'total'], ['Amount due', 'total'], ['Total incl. VAT', 'total'],
    ['Total amount (net):', 'subtotal'], ['Montant Total HT', 'subtotal'], ['Rechnungssumme netto', 'subtotal'], ['Gesamtbetrag netto', 'subtotal'],
    ['Total amount (gross):', 'total'], ['Montant Total TTC', 'total'], ['Rechnungssumme Brutto', 'total'], ['Net à payer', 'total'], ['Total tax amount:', 'tax'],
    ['Total Sales (Excluding GST)', 'subtotal'], ['TOTAL EXCL. GST', 'subtotal'], ['Total before GST', 'subtotal'], ['Total Sales (Inclusive of GST)', 'total'],
    ['Total Due (GST Inc)', 'total'], ['TOTAL INCLUDES 6% GST', 'tax'], ['Total GST', 'tax'], ['Total 6% supplies', 'subtotal'],
    ['TotalGST :', 'tax'], ['TOTALSALES (Inclusive of GST)', 'total'], ['Total 0% suppl', 'subtotal'], ['Total 6% supplies (Inc. GST)', null], ['Totalbetrag', 'total'], ['ADD : GST @ 6% On', 'tax'], ['Add VAT 20%', 'tax'],
    ['Übertrag', 'carry'], ['Carried forward', 'carry'],
    ['Opening balance', 'balance_open'], ['Alter Kontostand', 'balance_open'], ['Closing balance', 'balance_close'], ['Neuer Kontostand', 'balance_close'],
    ['Website redesign', null], ['Taxi fare', null], ['', null],
  ];
  it.each(cases)('%j → %s', (label, kind) => {
    expect(summaryKind(label)).toBe(kind);
  });
});

describe('headerLang', () => {
  it('tells the languages apart', () => {
    expect(headerLang('Einzelpreis')).toBe('de');
    expect(headerLang('Cantidad')).toBe('es');
    expect(headerLang('Omschrijving')).toBe('nl');
    expect(headerLang('Désignation')).toBe('fr');
    expect(headerLang('単価')).toBe('ja');
    expect(headerLang('Unit price')).toBe('en');
    expect(headerLang('#')).toBeNull();
  });
});

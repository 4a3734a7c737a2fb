/**
 * Line items on invoice layouts of several kinds, each a cause of wrong items seen on real
 * invoices: charges printed beside the items (under each item, or in the summary block with an
 * item's amount), a VAT rate glued to the amount beside it, quantity and unit price in either
 * order or under a header read over the wrong column, a price whose decimal mark a scan lost,
 * article numbers on a second line. PDFs are drawn here (invoice-pdf.ts) and read by the whole
 * engine; what only a scan's OCR does to a cell is given as table cells (build.ts).
 */
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../src/extract/index.js';
import { extractLineItems } from '../../../src/extract/lineitems/index.js';
import { invoicePdf, type InvoiceLayout } from './invoice-pdf.js';
import { page, table } from './build.js';

type Row = [string | null, number | null, number | null, number | null];
const rows = (items: { description: string | null; quantity: number | null; unit_price: number | null; amount: number | null }[]): Row[] =>
  items.map((i) => [i.description, i.quantity, i.unit_price, i.amount]);
const read = async (layout: InvoiceLayout) => (await extractDocument(await invoicePdf(layout))).line_items;
const head = ['Northwind Cloud Ltd', 'Invoice No. INV-2026-118', 'Date: 2026-11-02', 'Bill to: Harbor Tools Ltd'];
const right = (header: string, width = 80) => ({ header, width, align: 'right' as const });

describe('charges, shipping and discounts are not items', () => {
  it('a Charges row under each service, with its amount, is the service once', async () => {
    const items = await read({
      head,
      columns: [{ header: 'Description', width: 300 }, right('Amount')],
      rows: [
        ['Compute service', '$45.10'],
        ['Charges', '$45.10'],
        ['Object storage', '$3.20'],
        ['Charges', '$3.20'],
      ],
      below: [['Total', '$48.30']],
    });
    expect(rows(items)).toEqual([
      ['Compute service', null, null, 45.1],
      ['Object storage', null, null, 3.2],
    ]);
  });

  it('shipping and a discount under the items, one with an item’s amount, are no items', async () => {
    const items = await read({
      head,
      columns: [{ header: 'Item', width: 300 }, right('Amount')],
      rows: [
        ['Copy paper A4, 5 boxes', '15.00'],
        ['Toner cartridge', '62.50'],
      ],
      below: [
        ['Shipping', '15.00'],
        ['Discount', '-5.00'],
        ['Total', '87.50'],
      ],
    });
    expect(rows(items)).toEqual([
      ['Copy paper A4, 5 boxes', null, null, 15],
      ['Toner cartridge', null, null, 62.5],
    ]);
  });

  it('a priced delivery line is an item; Versandkosten and Rabatt beside the totals are not (German, 1.234,56)', async () => {
    const items = await read({
      head: ['Schmidt Anlagenbau GmbH', 'Rechnung Nr. 2026-5512', 'Datum: 02.11.2026', 'Kunde: Hafen AG'],
      columns: [{ header: 'Pos.', width: 30, align: 'right' }, { header: 'Bezeichnung', width: 180 }, right('Menge', 50), right('Einzelpreis', 75), right('Gesamtpreis')],
      rows: [
        ['1', 'Pumpe PX-200', '2', '1.234,56', '2.469,12'],
        ['2', 'Anlieferung', '1', '128,00', '128,00'],
        ['', 'Versandkosten', '', '', '128,00'],
        ['', 'Rabatt', '', '', '-50,00'],
      ],
      below: [
        ['Zwischensumme', '2.675,12'],
        ['Umsatzsteuer 19 %', '508,27'],
        ['Rechnungsbetrag', '3.183,39'],
      ],
    });
    expect(rows(items)).toEqual([
      ['Pumpe PX-200', 2, 1234.56, 2469.12],
      ['Anlieferung', 1, 128, 128],
    ]);
  });

  it('a block of totals (Montant Total HT, Remise HT, …) is no item table, even when it is the only table', () => {
    const totals = table(
      [
        ['Montant Total HT', '1.245,30 €'],
        ['Remise HT', '0,00 €'],
        ['Total Net HT', '1.245,30 €'],
        ['Total TVA', '123,54 €'],
        ['Montant Total TTC', '1.368,84 €'],
      ],
      { headerRows: 1 },
    );
    expect(extractLineItems([totals], [page([])]).line_items).toEqual([]);
  });
});

describe('a VAT rate is never read into an amount', () => {
  const columns = [{ header: 'Description', width: 200 }, right('Qty', 40), right('Unit price', 70), right('VAT %', 35), right('Amount', 55)];
  it('a rate column between price and amount, in a PDF (English, French, Dutch headers)', async () => {
    const en = await read({ head, columns, rows: [['Air conditioning service', '3', '191.00', '19', '573.00'], ['Filter set', '2', '24.50', '7', '49.00']], below: [['Total', '622.00']] });
    expect(rows(en)).toEqual([
      ['Air conditioning service', 3, 191, 573],
      ['Filter set', 2, 24.5, 49],
    ]);
    const fr = await read({
      head: ['Atelier Lumière SARL', 'Facture N° F-2026-031', 'Date : 02/11/2026', 'Facturé à : Café du Port'],
      columns: [{ header: 'Désignation', width: 190 }, right('Qté', 35), right('Prix unit. HT', 70), right('TVA', 45), right('Montant HT', 70)],
      rows: [['Lampe suspendue laiton', '4', '86,00', '20 %', '344,00'], ['Ampoule LED\nE27 blanc chaud', '12', '4,50', '5,5 %', '54,00']],
      below: [['Total HT', '398,00']],
    });
    expect(rows(fr)).toEqual([
      ['Lampe suspendue laiton', 4, 86, 344],
      ['Ampoule LED E27 blanc chaud', 12, 4.5, 54],
    ]);
    const nl = await read({
      head: ['Bakkerij de Vries B.V.', 'Factuurnummer: 2026-0871', 'Factuurdatum: 02-11-2026', 'Afleveradres: Jansen Bouw B.V.'],
      columns: [{ header: 'Omschrijving', width: 190 }, right('Aantal', 45), right('Prijs', 70), right('BTW %', 45), right('Bedrag', 70)],
      rows: [['Taart groot', '2', '32,50', '9', '65,00'], ['Koffie (kan)', '6', '7,00', '21', '42,00']],
      below: [['Subtotaal', '107,00']],
    });
    expect(rows(nl)).toEqual([
      ['Taart groot', 2, 32.5, 65],
      ['Koffie (kan)', 6, 7, 42],
    ]);
  });

  it('a rate glued to the amount in one cell (19 573.00, 19 % 573,00, 19,00 51,50) is the amount alone', () => {
    const glued = table([
      ['Description', 'Qty', 'Unit price', 'VAT %', 'Amount'],
      ['Air conditioning service', '3', '191.00', '', '19 573.00'],
      ['Filter set', '2', '1,024.50', '', '2,049.00'],
    ]);
    expect(rows(extractLineItems([glued], [page([])]).line_items)).toEqual([
      ['Air conditioning service', 3, 191, 573],
      ['Filter set', 2, 1024.5, 2049],
    ]);
    const merged = table([
      ['Beschreibung', 'Menge', 'Einzelpreis', 'MwSt Gesamt'],
      ['Wartung', '3', '191,00', '19 % 573,00'],
      ['Schrauben', '25', '2,06', '19,00 51,50'],
      ['Fachbuch', '1', '39,90', '7 39,90'],
    ]);
    expect(rows(extractLineItems([merged], [page([])]).line_items)).toEqual([
      ['Wartung', 3, 191, 573],
      ['Schrauben', 25, 2.06, 51.5],
      ['Fachbuch', 1, 39.9, 39.9],
    ]);
  });

  it('a space-grouped amount stays whole where the arithmetic says so', () => {
    const t = table([
      ['Désignation', 'Qté', 'Prix unitaire', 'Montant'],
      ['Serveur', '2', '2 786,00', '5 572,00'],
      ['Câbles', '10', '12,00', '120,00'],
    ]);
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['Serveur', 2, 2786, 5572],
      ['Câbles', 10, 12, 120],
    ]);
  });
});

describe('quantity, unit price and amount by their arithmetic', () => {
  it('reads the columns in any order (price before quantity, amount before price)', async () => {
    const priceFirst = await read({
      head,
      columns: [{ header: 'Description', width: 200 }, right('Unit price'), right('Qty', 50), right('Total')],
      rows: [['Illuminated sign', '1,180.00', '1', '1,180.00'], ['Mounting brackets', '12.50', '4', '50.00']],
      below: [['Total', '1,230.00']],
    });
    expect(rows(priceFirst)).toEqual([
      ['Illuminated sign', 1, 1180, 1180],
      ['Mounting brackets', 4, 12.5, 50],
    ]);
    const amountFirst = await read({
      head,
      columns: [{ header: 'Description', width: 200 }, right('Amount'), right('Quantity', 60), right('Unit price')],
      rows: [['Illuminated sign', '1,180.00', '1', '1,180.00'], ['Mounting brackets', '50.00', '4', '12.50']],
      below: [['Total', '1,230.00']],
    });
    expect(rows(amountFirst)).toEqual(rows(priceFirst));
  });

  it('a header read over the wrong column gives no quantity of 1180: counts are the quantity, cents the price', () => {
    const t = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Illuminated sign', '1,180.00', '1', '1,180.00'],
      ['Mounting brackets', '12.50', '4', '50.00'],
      ['Installation', '95.00', '2', '190.00'],
    ]);
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['Illuminated sign', 1, 1180, 1180],
      ['Mounting brackets', 4, 12.5, 50],
      ['Installation', 2, 95, 190],
    ]);
  });

  it('the amount is the column that is the product of the other two, whatever the header said', () => {
    const t = table([
      ['Item', 'Amount', 'Qty', 'Price'],
      ['Desk lamp', '24.00', '2', '48.00'],
      ['Chair', '180.00', '1', '180.00'],
      ['Cable', '3.50', '4', '14.00'],
    ]);
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['Desk lamp', 2, 24, 48],
      ['Chair', 1, 180, 180],
      ['Cable', 4, 3.5, 14],
    ]);
  });

  it('a count glued to its price (1 180.00, the price cell empty) is taken apart', () => {
    const t = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Illuminated sign', '', '1 180.00', '180.00'],
      ['Mounting brackets', '4', '12.50', '50.00'],
    ]);
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['Illuminated sign', 1, 180, 180],
      ['Mounting brackets', 4, 12.5, 50],
    ]);
  });

  it('a receipt’s 6.00 read as 600 by a scan is 6.00 where quantity × price says so', () => {
    const t = table([
      ['Item', 'Qty', 'Price', 'Amount'],
      ['Kopi O', '2', '3.00', '600'],
      ['Roti canai', '3', '1.50', '4.50'],
      ['Nasi lemak', '1', '6.00', '6.00'],
    ]);
    const r = extractLineItems([t], [page([['Total', '16.50']])]);
    expect(rows(r.line_items)).toEqual([
      ['Kopi O', 2, 3, 6],
      ['Roti canai', 3, 1.5, 4.5],
      ['Nasi lemak', 1, 6, 6],
    ]);
    expect(r.totals?.flags).toEqual([]);
  });

  it('without count or price, a 600 among amounts with cents is 6.00 only where that makes the items add up', () => {
    const t = table([
      ['Item', 'Amount'],
      ['Kopi O', '600'],
      ['Roti canai', '4.50'],
      ['Nasi lemak', '6.00'],
    ]);
    const amounts = (total: string) => extractLineItems([t], [page([['Total', total]])]).line_items.map((i) => i.amount);
    expect(amounts('16.50')).toEqual([6, 4.5, 6]);
    expect(amounts('610.50')).toEqual([600, 4.5, 6]);
  });

  it('an article number on the line under an item is part of it, not a quantity', () => {
    const t = table([
      ['#', 'Line item description', 'Quantity', 'Unit price', 'Net'],
      ['1', 'GWDSTG-DIN976-M10X1000', '25,00', '2,06', '51,50'],
      ['', 'GWDSTG-DIN976-M10X1000', '7711231873598', '', ''],
      ['2', 'MUELLSACK-BLAU-700X1100', '150,00', '49,29', '7.393,50'],
      ['', 'MUELLSACK-BLAU-700X1100', '7748539263943', '', ''],
    ]);
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['GWDSTG-DIN976-M10X1000', 25, 2.06, 51.5],
      ['MUELLSACK-BLAU-700X1100', 150, 49.29, 7393.5],
    ]);
  });
});

describe('one row per item, whatever its number of lines', () => {
  it('two columns the detector gave one index (text and price side by side) are read apart', () => {
    const t = table([
      ['Désignation', 'Unité', 'Qté', 'Total HT'],
      ['Prestation support', 'PCE', '1,00', '60,00'],
      ['Fournitures papier', 'PCE', '3,00', '90,00'],
    ]);
    // The price column shares the description's index: its cells sit right of the text, in the same column.
    const at = (row: number, text: string, x0: number) => ({ row, col: 0, row_span: 1, col_span: 1, text, bbox: [x0, 100 + row * 20, x0 + 60, 120 + row * 20] as [number, number, number, number], confidence: null });
    t.cells.push(at(0, 'P.U. HT', 150), at(1, '60,00', 150), at(2, '30,00', 150));
    for (const c of t.cells) if (c.col === 0 && c.bbox[0] < 150) c.bbox = [50, c.bbox[1], 120, c.bbox[3]];
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['Prestation support', 1, 60, 60],
      ['Fournitures papier', 3, 30, 90],
    ]);
  });

  it('an item whose count stands beside its text and its prices on the line under it is one item', () => {
    const t = table([
      ['#', 'Line item description', 'EAN Quantity', 'Unit price', 'Net'],
      ['1', 'GWDSTG-DIN976-M10X1000', '25,00', '2,06', '51,50'],
      ['', 'MUELLSACK-BLAU-700X1100', '05899800555 150', '', ''],
      ['2', '', '', '49,29', '7.393,50'],
    ]);
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['GWDSTG-DIN976-M10X1000', 25, 2.06, 51.5],
      ['MUELLSACK-BLAU-700X1100', 150, 49.29, 7393.5],
    ]);
  });


  it('an item table joined to the block of references above it is read from its own header down', () => {
    const t = table([
      ['Nos références', 'Vos identifiants'],
      ['N° de client : CL-0215', 'SIRET : 98765432100029'],
      ['N° de commande : BC-2547', 'SIREN : 987 654 321'],
      ['Date de livraison : 28/01/2026', 'TVA : FR05 987 654 321'],
      ['Adresse : 12 rue du Port', 'Code : 3654789852'],
      ['Ligne', 'Désignation', 'Prix unitaire HT', 'Qté', 'Total HT'],
      ['1', 'Remboursement affranchissement', '60,00', '1,00', '60,00'],
      ['2', 'Fournitures diverses', '10,00', '3,00', '30,00'],
    ]);
    expect(rows(extractLineItems([t], [page([])]).line_items)).toEqual([
      ['Remboursement affranchissement', 1, 60, 60],
      ['Fournitures diverses', 3, 10, 30],
    ]);
  });


  it('descriptions of three lines, one with figures in it, stay one item each', async () => {
    const items = await read({
      head,
      columns: [{ header: 'Description', width: 240 }, right('Qty', 40), right('Rate', 70), right('Amount', 70)],
      rows: [
        ['Data migration\nfrom legacy system, phase 2\nincl. 3 test runs', '12', '85.00', '1,020.00'],
        ['Training session', '1', '400.00', '400.00'],
        ['Travel expenses\nHamburg 14-16 Nov', '1', '312.40', '312.40'],
      ],
      below: [
        ['Subtotal', '1,732.40'],
        ['Sales tax 8%', '138.59'],
        ['Total', '1,870.99'],
      ],
    });
    expect(rows(items)).toEqual([
      ['Data migration from legacy system, phase 2 incl. 3 test runs', 12, 85, 1020],
      ['Training session', 1, 400, 400],
      ['Travel expenses Hamburg 14-16 Nov', 1, 312.4, 312.4],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { extractLineItems } from '../../../src/extract/lineitems/index.js';
import { page, table } from './build.js';

const fields = (r: ReturnType<typeof extractLineItems>) =>
  r.line_items.map((i) => [i.description, i.quantity, i.unit_price, i.amount, i.currency, i.flags]);

describe('extractLineItems: choosing the item table', () => {
  it('picks the table whose header names items among address and payment tables', () => {
    const address = table([['Invoice no.', 'INV-7'], ['Date', '2026-11-30'], ['Customer', 'Contoso']], { top: 40 });
    const items = table([['Description', 'Qty', 'Unit price', 'Amount'], ['Widget', '2', '5.00', '10.00']], { top: 200 });
    const bank = table([['Bank', 'IBAN'], ['First Bank', 'DE12 3456']], { top: 500 });
    const r = extractLineItems([address, items, bank], [page([])]);
    expect(r.line_items.map((i) => i.table_index)).toEqual([1]);
    expect(fields(r)).toEqual([['Widget', 2, 5, 10, null, []]]);
  });
  it('finds nothing, and no totals, when no table has money columns', () => {
    const r = extractLineItems([table([['Name', 'City'], ['Ann', 'Oslo']])], [page([['Total', '12.00']])]);
    expect(r).toEqual({ line_items: [], totals: null });
    expect(extractLineItems([], [])).toEqual({ line_items: [], totals: null });
  });
  it('maps a table without a header from its numbers: q × p = a, wherever the columns are', () => {
    const t = table(
      [
        ['1', 'Coffee beans', '8.50', '2', '17.00'],
        ['2', 'Milk frother', '39.95', '1', '39.95'],
        ['3', 'Paper filters', '3.20', '5', '16.00'],
      ],
      { headerRows: 0 },
    );
    const r = extractLineItems([t], [page([])]);
    expect(fields(r)).toEqual([
      ['Coffee beans', 2, 8.5, 17, null, []],
      ['Milk frother', 1, 39.95, 39.95, null, []],
      ['Paper filters', 5, 3.2, 16, null, []],
    ]);
    expect(Object.keys(r.line_items[0]!.cells)).toEqual(['column_1', 'column_2', 'column_3', 'column_4', 'column_5']);
  });
});

describe('extractLineItems: columns that are not quantity, price or amount', () => {
  it('keeps Pos., Art.-Nr., Einheit, MwSt % and Rabatt out, and honours the discount', () => {
    const t = table([
      ['Pos.', 'Art.-Nr.', 'Bezeichnung', 'Menge', 'Einheit', 'Einzelpreis', 'Rabatt', 'MwSt %', 'Gesamt'],
      ['1', '4711', 'Schrauben', '100', 'Stk.', '0,20', '10 %', '19', '18,00'],
      ['2', '4712', 'Dübel', '50', 'Stk.', '0,10', '', '19', '5,00'],
    ]);
    const r = extractLineItems([t], [page([])]);
    expect(fields(r)).toEqual([
      ['Schrauben', 100, 0.2, 18, null, []],
      ['Dübel', 50, 0.1, 5, null, []],
    ]);
    expect(r.line_items[0]!.cells).toEqual({
      'Pos.': '1', 'Art.-Nr.': '4711', Bezeichnung: 'Schrauben', Menge: '100', Einheit: 'Stk.', Einzelpreis: '0,20', Rabatt: '10 %', 'MwSt %': '19', Gesamt: '18,00',
    });
  });
  it('flags amount_mismatch beyond a cent, not within it', () => {
    const t = table([
      ['Item', 'Qty', 'Price', 'Total'],
      ['A', '3', '0.333', '1.00'],
      ['B', '2', '10.00', '25.00'],
    ]);
    expect(extractLineItems([t], [page([])]).line_items.map((i) => i.flags)).toEqual([[], ['amount_mismatch']]);
  });
  it('reads a currency column and currency signs in cells and headers', () => {
    const withCol = table([['Description', 'Qty', 'Unit price', 'Currency', 'Amount'], ['A', '1', '5.00', 'CHF', '5.00'], ['B', '1', '€7.00', '', '7.00']]);
    expect(extractLineItems([withCol], [page([])]).line_items.map((i) => i.currency)).toEqual(['CHF', 'EUR']);
    const inHeader = table([['Omschrijving', 'Aantal', 'Bedrag (EUR)'], ['Koffie', '2', '7,00']]);
    expect(extractLineItems([inHeader], [page([])]).line_items[0]!.currency).toBe('EUR');
  });
});

describe('extractLineItems: number conventions per document', () => {
  it('reads 1.500 as 1500 when the document writes decimals with a comma', () => {
    const t = table([['Description', 'Qty', 'Price', 'Amount'], ['Nails', '1.500', '0,02', '30,00']]);
    expect(fields(extractLineItems([t], [page([])]))).toEqual([['Nails', 1500, 0.02, 30, null, []]]);
  });
  it('reads 1.500 as 1.5 when it writes thousands with a comma', () => {
    const t = table([['Description', 'Qty', 'Price', 'Amount'], ['Cable', '1.500', '2,000.00', '3,000.00']]);
    expect(fields(extractLineItems([t], [page([])]))).toEqual([['Cable', 1.5, 2000, 3000, null, []]]);
  });
  it('falls back on the header language when no number decides', () => {
    const de = table([['Bezeichnung', 'Menge', 'Betrag'], ['Beratung', '1', '1.200']]);
    expect(extractLineItems([de], [page([])]).line_items[0]!.amount).toBe(1200);
    const en = table([['Description', 'Qty', 'Amount'], ['Consulting', '1', '1,200']]);
    expect(extractLineItems([en], [page([])]).line_items[0]!.amount).toBe(1200);
  });
  it('lets the words below the table decide', () => {
    const t = table([['Description', 'Qty', 'Amount'], ['Consulting', '1', '1.200']]);
    expect(extractLineItems([t], [page([['Total', '1.200,00']])]).line_items[0]!.amount).toBe(1200);
  });
});

describe('extractLineItems: continuation lines', () => {
  it('folds a wrapped description into the item above, and a description printed above its figures into the item below', () => {
    const t = table([
      ['Description', 'Qty', 'Price', 'Amount'],
      ['Hosting (12 months),', '12', '25.00', '300.00'],
      ['incl. daily backups', '', '', ''],
      ['Migration of the old', '', '', ''],
      ['', '1', '500.00', '500.00'],
    ]);
    const r = extractLineItems([t], [page([])]);
    expect(r.line_items.map((i) => [i.description, i.row, i.cells.Description])).toEqual([
      ['Hosting (12 months), incl. daily backups', 1, 'Hosting (12 months),\nincl. daily backups'],
      ['Migration of the old', 3, 'Migration of the old'],
    ]);
    expect(r.line_items[0]!.bbox).toEqual([50, 120, 410, 160]);
  });
  it('does not make a section title before the first item into an item', () => {
    const t = table([['Description', 'Amount'], ['Services', ''], ['Design', '100.00']]);
    expect(extractLineItems([t], [page([])]).line_items.map((i) => i.description)).toEqual(['Design']);
  });
  it('takes the text line above one item whose own text is only its period as the item title', () => {
    const t = table([['Description', 'Unit price', 'Qty', 'Amount'], ['PRESTATION SUPPORT - Description', '', '', ''], ['Période de 01/01/2023 au 31/01/2023', '40,00', '5,00', '200,00']]);
    const [item] = extractLineItems([t], [page([])]).line_items;
    expect(item!.description).toMatch(/^PRESTATION SUPPORT/);
    expect(item!.amount).toBe(200);
  });
});

describe('extractLineItems: summary rows and totals', () => {
  it('keeps subtotal, tax and total rows inside the table out of the items', () => {
    const t = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['A', '2', '50.00', '100.00'],
      ['B', '1', '20.00', '20.00'],
      ['', '', 'Subtotal', '120.00'],
      ['', '', 'VAT 20%', '24.00'],
      ['', '', 'Total', '144.00'],
      ['Thank you for your business', '', '', ''],
    ]);
    const r = extractLineItems([t], [page([])]);
    expect(r.line_items.map((i) => i.description)).toEqual(['A', 'B']);
    expect(r.totals).toEqual({ subtotal: 120, tax: 24, total: 144, currency: null, flags: [] });
  });
  it('reads summary lines below the table, adds up two tax rates and flags what does not add up', () => {
    const t = table([['Description', 'Amount'], ['A', '100,00'], ['B', '50,00']]);
    const p = page([['Zwischensumme', '160,00'], ['MwSt.', '19', '%', '19,00'], ['MwSt.', '7', '%', '3,50'], ['Gesamtbetrag', '€', '180,00']]);
    expect(extractLineItems([t], [p]).totals).toEqual({ subtotal: 160, tax: 22.5, total: 180, currency: 'EUR', flags: ['items_sum_mismatch', 'total_mismatch'] });
  });
  it('compares the items with the total when there is no subtotal', () => {
    const t = table([['Description', 'Amount'], ['A', '10.00'], ['B', '5.00']]);
    expect(extractLineItems([t], [page([['Total', '15.00']])]).totals!.flags).toEqual([]);
    expect(extractLineItems([t], [page([['Total', '16.00']])]).totals!.flags).toEqual(['items_sum_mismatch']);
  });
  it('reads a label and a number glued in one word', () => {
    const t = table([['品名', '数量', '金額'], ['りんご', '2', '¥200']]);
    expect(extractLineItems([t], [page([['合計¥200']])]).totals).toEqual({ subtotal: null, tax: null, total: 200, currency: 'JPY', flags: [] });
  });
});

describe('extractLineItems: tables over two pages', () => {
  const head = ['Description', 'Qty', 'Price', 'Amount'];
  it('joins a headerless continuation table on the next page, skipping the carried-forward line', () => {
    const p1 = table([head, ['A', '1', '10.00', '10.00'], ['B', '2', '10.00', '20.00'], ['', '', 'Carried forward', '30.00']], { page: 1, top: 600 });
    const p2 = table([['C', '1', '5.00', '5.00']], { page: 2, top: 60, headerRows: 0 });
    const r = extractLineItems([p1, p2], [page([], { page: 1 }), page([['Total', '35.00']], { page: 2 })]);
    expect(r.line_items.map((i) => [i.description, i.table_index, i.page, i.cells.Description])).toEqual([
      ['A', 0, 1, 'A'],
      ['B', 0, 1, 'B'],
      ['C', 1, 2, 'C'],
    ]);
    expect(r.totals).toEqual({ subtotal: null, tax: null, total: 35, currency: null, flags: [] });
  });
  it('joins a continuation with the header repeated', () => {
    const p1 = table([head, ['A', '1', '10.00', '10.00']], { page: 1 });
    const p2 = table([head, ['B', '1', '5.00', '5.00']], { page: 2 });
    expect(extractLineItems([p1, p2], [page([], { page: 2 })]).line_items.map((i) => i.page)).toEqual([1, 2]);
  });
  it('gives each row of a stitched table its own page', () => {
    const t = table([head, ['A', '1', '10.00', '10.00'], ['B', '1', '5.00', '5.00']], { pages: [1, 2] });
    // Row 2 sits at the top of page 2: above row 1 in page coordinates.
    for (const c of t.cells) if (c.row === 2) c.bbox = [c.bbox[0], 60, c.bbox[2], 80];
    expect(extractLineItems([t], [page([])]).line_items.map((i) => i.page)).toEqual([1, 2]);
  });
});

describe('extractLineItems: statements', () => {
  it('signs debits and credits, and takes the closing balance as the total', () => {
    const t = table([
      ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      ['', 'Opening balance', '', '', '1,000.00'],
      ['01/11/2026', 'Rent', '800.00', '', '200.00'],
      ['05/11/2026', 'Salary', '', '2,500.00', '2,700.00'],
      ['', 'Closing balance', '', '', '2,700.00'],
    ]);
    const r = extractLineItems([t], [page([['Currency:', 'USD']])]);
    expect(r.line_items.map((i) => [i.description, i.amount, i.currency, i.cells.Date])).toEqual([
      ['Rent', -800, 'USD', '01/11/2026'],
      ['Salary', 2500, 'USD', '05/11/2026'],
    ]);
    expect(r.totals).toEqual({ subtotal: null, tax: null, total: 2700, currency: 'USD', flags: [] });
  });
  it('flags a closing balance the transactions do not reach', () => {
    const t = table([['Date', 'Description', 'Debit', 'Credit'], ['', 'Opening balance', '', '100.00'], ['1.11.', 'Fee', '5.00', ''], ['', 'Closing balance', '', '90.00']]);
    expect(extractLineItems([t], [page([])]).totals!.flags).toEqual(['balance_mismatch']);
  });
});

describe('extractLineItems: sections, balances and bad input', () => {
  it('keeps reading items after a section subtotal, and adds the section subtotals up', () => {
    const t = table([
      ['Description', 'Qty', 'Price (EUR)', 'Amount (EUR)'],
      ['Laptop', '1', '900.00', '900.00'],
      ['', '', 'Subtotal hardware', '900.00'],
      ['Setup', '2', '50.00', '100.00'],
      ['', '', 'Subtotal services', '100.00'],
      ['', '', 'Total', '1,000.00'],
    ]);
    const r = extractLineItems([t], [page([])]);
    expect(fields(r)).toEqual([
      ['Laptop', 1, 900, 900, 'EUR', []],
      ['Setup', 2, 50, 100, 'EUR', []],
    ]);
    expect(r.totals).toEqual({ subtotal: 1000, tax: null, total: 1000, currency: 'EUR', flags: [] });
  });
  it('flags a statement row whose balance is not the previous one plus its amount', () => {
    const t = table([
      ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      ['', 'Opening balance', '', '', '100.00'],
      ['1.11.', 'Fee', '5.00', '', '95.00'],
      ['2.11.', 'Refund', '', '10.00', '115.00'],
      ['3.11.', 'Fee', '5.00', '', '110.00'],
    ]);
    expect(extractLineItems([t], [page([])]).line_items.map((i) => [i.amount, i.flags])).toEqual([
      [-5, []],
      [10, ['balance_mismatch']],
      [-5, []],
    ]);
  });
  it('survives malformed tables: cells outside the grid, zero spans, empty tables', () => {
    const t = table([['Description', 'Qty', 'Amount'], ['A', '1', '2.00']]);
    t.cells.push({ row: 9, col: 9, row_span: 0, col_span: -1, text: '5.00', bbox: [0, 0, 0, 0], confidence: null });
    t.cells.push({ row: 1, col: 2, row_span: 0, col_span: 0, text: 'junk', bbox: [0, 0, 0, 0], confidence: null });
    const empty = { ...table([['x']]), n_rows: 0, n_cols: 0, cells: [] };
    const r = extractLineItems([empty, t], [page([])]);
    expect(r.line_items.map((i) => [i.description, i.amount, i.table_index])).toEqual([['A', 2, 1]]);
  });
});

describe('extractLineItems: rows that look like summaries, and title rows', () => {
  it('keeps an item whose description starts with a summary word, drops a Total row that sums quantities', () => {
    const t = table([
      ['Items', 'Items', 'Items', 'Items'],
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Tax advice', '2', '100.00', '200.00'],
      ['Total station rental', '1', '50.00', '50.00'],
      ['Total', '3', '', '250.00'],
    ]);
    const r = extractLineItems([t], [page([])]);
    expect(r.line_items.map((i) => i.description)).toEqual(['Tax advice', 'Total station rental']);
    expect(Object.keys(r.line_items[0]!.cells)).toEqual(['Description', 'Qty', 'Unit price', 'Amount']);
    expect(r.totals).toEqual({ subtotal: null, tax: null, total: 250, currency: null, flags: [] });
  });
});

describe('extractLineItems: a split table whose later part scores higher', () => {
  it('starts from the first page even when page 2 has more rows', () => {
    const head = ['Description', 'Qty', 'Price', 'Amount'];
    const p1 = table([head, ['A', '1', '1.00', '1.00']], { page: 1, top: 700 });
    const rows = Array.from({ length: 12 }, (_, i) => [`B${i}`, '1', '2.00', '2.00']);
    const p2 = table([['Description', 'Qty', 'Unit price', 'Amount'], ...rows], { page: 2, top: 60 });
    const r = extractLineItems([p1, p2], [page([], { page: 2 })]);
    expect(r.line_items.length).toBe(13);
    expect(r.line_items[0]!.description).toBe('A');
  });
});

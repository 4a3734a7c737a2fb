/**
 * Item tables as e-invoice generators print them (Factur-X / ZUGFeRD renderings): a VAT breakdown
 * beside the items, a unit price printed as a small calculation, the item's name on a line above
 * its figures. Each case is a cause of missed or wrong items on real e-invoices.
 */
import { describe, expect, it } from 'vitest';
import { extractLineItems } from '../../../src/extract/lineitems/index.js';
import { page, table } from './build.js';

const fields = (r: ReturnType<typeof extractLineItems>) => r.line_items.map((i) => [i.description, i.quantity, i.unit_price, i.amount]);

describe('e-invoice item tables: which table holds the items', () => {
  it('never takes a VAT breakdown (rate, base, tax) for the items, even when it has more figures', () => {
    const items = table([
      ['Désignation', 'P.U. HT', 'Qté', 'Total HT', 'TVA'],
      ['Support', '(Brut: 65,00)\n(Net): 60,00', '1,00', '60,00', '20,00%'],
      ['Papier', '(Brut: 31,00)\n(Net): 30,00', '3,00', '90,00', '10,00%'],
    ]);
    const vat = table(
      [
        // A header cell spanning two columns reads in both: a reason and its text under `Détail TVA`.
        ['Détail TVA', 'Détail TVA', 'Code', 'Taux', 'Base TVA', 'Montant TVA'],
        ['', '', 'S', '20,00%', '60,00', '12,00'],
        ['', '', 'S', '10,00%', '90,00', '9,00'],
        ['VATEX-EU-79-C', 'Débours', 'E', '0,00%', '5,00', '0,00'],
        ['VATEX-EU-IC', 'Livraison intracommunautaire', 'K', '0,00%', '2,00', '0,00'],
      ],
      { top: 400 },
    );
    const r = extractLineItems([items, vat], [page([])]);
    expect(r.line_items.map((i) => i.table_index)).toEqual([0, 0]);
    expect(fields(r)).toEqual([
      ['Support', 1, 60, 60],
      ['Papier', 3, 30, 90],
    ]);
  });

  it('reads no items from a German VAT summary table (Steuersatz, Netto, Steuer, Brutto)', () => {
    const vat = table([
      ['Steuersatz', 'Nettobetrag', 'Steuerbetrag', 'Bruttobetrag'],
      ['19 %', '100,00', '19,00', '119,00'],
      ['7 %', '50,00', '3,50', '53,50'],
    ]);
    expect(extractLineItems([vat], [page([])]).line_items).toEqual([]);
  });

  it('reads no items from a row of totals (net, VAT, gross) beside the item table', () => {
    const items = table([
      ['Description', 'Qty', 'Amount'],
      ['Audit', '1', '100.00'],
    ]);
    const totals = table(
      [
        ['TOTAL HT', 'TOTAL TVA', 'TOTAL TTC'],
        ['100,00', '20,00', '120,00'],
      ],
      { top: 300 },
    );
    expect(extractLineItems([totals], [page([])]).line_items).toEqual([]);
    expect(extractLineItems([items, totals], [page([])]).line_items.map((i) => i.table_index)).toEqual([0]);
  });

  it('keeps the column named for the text as the description beside a code column', () => {
    const t = table([
      ['# ligne', 'Code article, référence', 'Nom & désignation', 'Qté', 'Total HT'],
      ['1', 'ART_1254', 'Prestation support', '1,00', '60,00'],
      ['2', 'ART_9874', 'Fournitures papier', '3,00', '28,00'],
    ]);
    expect(fields(extractLineItems([t], [page([])]))).toEqual([
      ['Prestation support', 1, null, 60],
      ['Fournitures papier', 3, null, 28],
    ]);
  });
});

describe('e-invoice item tables: cells printed as small calculations or twice', () => {
  it('takes the net figure of a price printed as its calculation, and no guess without a net label', () => {
    const t = table([
      ['Description', 'Unit price', 'Qty', 'Amount'],
      ['Support', '(Gross: 65.00)\n(Discount: 5.00)\n(Net): 60.00', '1', '60.00'],
      ['Paper', 'Gross: 31.00\nDiscount: 1.00', '3', '90.00'],
    ]);
    expect(fields(extractLineItems([t], [page([])]))).toEqual([
      ['Support', 1, 60, 60],
      ['Paper', 3, null, 90],
    ]);
  });

  it('says a line printed twice in a row once (a name and the same description)', () => {
    const t = table([
      ['Line item description', 'Quantity', 'Net'],
      ['SHR-AW30-(A2K)-7,5X152\nSHR-AW30-(A2K)-7,5X152', '400,00', '13.104,00'],
      ['Bolt M10\nzinc plated\nzinc plated', '25,00', '51,50'],
    ]);
    expect(fields(extractLineItems([t], [page([])])).map((f) => f[0])).toEqual(['SHR-AW30-(A2K)-7,5X152', 'Bolt M10 zinc plated']);
  });
});

describe('e-invoice item tables: the name on a line above the figures', () => {
  it('gives each item the title line above its row, not the row above', () => {
    const t = table([
      ['Désignation', 'Qté', 'Total HT'],
      ['PRESTATION SUPPORT', '', ''],
      ['Période de 01/01 au 31/01', '1,00', '60,00'],
      ['FOURNITURES PAPIER', '', ''],
      ['Lot 6254784', '3,00', '28,00'],
      ['APPEL', '1,00', '7,00'],
    ]);
    expect(fields(extractLineItems([t], [page([])]))).toEqual([
      ['PRESTATION SUPPORT Période de 01/01 au 31/01', 1, null, 60],
      ['FOURNITURES PAPIER Lot 6254784', 3, null, 28],
      ['APPEL', 1, null, 7],
    ]);
  });

  it('still folds a wrapped description into the item above when items do not open with a title', () => {
    const t = table([
      ['Description', 'Qty', 'Amount'],
      ['Hosting', '12', '300.00'],
      ['incl. backups', '', ''],
      ['Migration', '1', '500.00'],
      ['Training', '2', '200.00'],
    ]);
    expect(fields(extractLineItems([t], [page([])])).map((f) => f[0])).toEqual(['Hosting incl. backups', 'Migration', 'Training']);
  });
});

describe('e-invoice item tables: the totals under the items', () => {
  it('keeps net, VAT and gross lines and what follows them out of the items', () => {
    const t = table([
      ['Pos.', 'Bezeichnung', 'Menge', 'Einzelpreis', 'Gesamt'],
      ['1', 'Schrauben', '10', '1,00', '10,00'],
      ['2', 'Muttern', '5', '2,00', '10,00'],
      ['', 'Nettobetrag', '', '', '20,00'],
      ['', 'zzgl. 19 % USt.', '', '', '3,80'],
      ['', 'Versandkosten', '', '', '0,00'],
      ['', 'Rechnungssumme Brutto', '', '', '23,80'],
    ]);
    const r = extractLineItems([t], [page([])]);
    expect(fields(r)).toEqual([
      ['Schrauben', 10, 1, 10],
      ['Muttern', 5, 2, 10],
    ]);
    expect(r.totals).toEqual({ subtotal: 20, tax: 3.8, total: 23.8, currency: null, flags: [] });
  });

  it('reads items again after a section subtotal when they have counts and prices', () => {
    const t = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Laptop', '1', '900.00', '900.00'],
      ['Subtotal hardware', '', '', '900.00'],
      ['Setup', '2', '50.00', '100.00'],
      ['Subtotal services', '', '', '100.00'],
    ]);
    expect(fields(extractLineItems([t], [page([])])).map((f) => f[0])).toEqual(['Laptop', 'Setup']);
  });

  it('tells a total before tax from the total: net, HT, excl. are the subtotal', () => {
    const t = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Screws', '10', '1.00', '10.00'],
    ]);
    const below = [
      ['Total', 'amount', '(net):', '10,00', '€'],
      ['Total', 'tax', 'amount:', '1,90', '€'],
      ['Total', 'amount', '(gross):', '11,90', '€'],
    ];
    expect(extractLineItems([t], [page(below)]).totals).toEqual({ subtotal: 10, tax: 1.9, total: 11.9, currency: 'EUR', flags: [] });
    const fr = [
      ['Montant', 'Total', 'HT', '10,00'],
      ['Total', 'TVA', '1,90'],
      ['Montant', 'Total', 'TTC', '11,90'],
    ];
    expect(extractLineItems([t], [page(fr)]).totals).toMatchObject({ subtotal: 10, tax: 1.9, total: 11.9 });
  });
});

describe('e-invoice item tables: a header cut off as a table of its own', () => {
  it('reads the rows under a header-only table with that header, column by column', () => {
    const header = table([['Qty', 'Description', 'Unit price', 'Amount']]);
    const body = table(
      [
        ['10', 'Screws', '1.00', '10.00'],
        ['5', 'Books', '2.00', '10.00'],
      ],
      { top: 125, headerRows: 0 },
    );
    const r = extractLineItems([header, body], [page([])]);
    expect(fields(r)).toEqual([
      ['Screws', 10, 1, 10],
      ['Books', 5, 2, 10],
    ]);
    expect(r.line_items[0]!).toMatchObject({ table_index: 1, row: 0, cells: { Qty: '10', Description: 'Screws', 'Unit price': '1.00', Amount: '10.00' } });
  });

  it('leaves a headerless table alone when the table above is not a header or is far above', () => {
    const header = table([['Qty', 'Description', 'Unit price', 'Amount']]);
    const far = table([['10', 'Screws', '1.00', '10.00']], { top: 400, headerRows: 0 });
    expect(Object.keys(extractLineItems([header, far], [page([])]).line_items[0]!.cells)).toEqual(['column_1', 'column_2', 'column_3', 'column_4']);
  });
});

describe('e-invoice item tables: two item lines in one row', () => {
  it('splits a row whose amount cell holds one figure a line, one item per figure', () => {
    const t = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Screws\nBooks', '10\n5', '1.00\n2.00', '10.00\n10.00'],
      ['Nails', '1', '3.00', '3.00'],
    ]);
    expect(fields(extractLineItems([t], [page([])]))).toEqual([
      ['Screws', 10, 1, 10],
      ['Books', 5, 2, 10],
      ['Nails', 1, 3, 3],
    ]);
    // A table of nothing but such a row still reads its columns from the figures.
    const only = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Screws\nBooks', '10\n5', '1.00\n2.00', '10.00\n10.00'],
    ]);
    expect(fields(extractLineItems([only], [page([])]))).toHaveLength(2);
  });

  it('gives a wrapped description line to the figure it stands beside on the page', () => {
    const t = table([
      ['Description', 'Amount'],
      ['Hosting (12 months)\nincl. backups\nMigration', '300.00\n500.00'],
    ]);
    t.cells[2]!.bbox = [50, 120, 140, 150];
    t.cells[3]!.bbox = [140, 120, 230, 150];
    // Lines 10 points apart: the amounts on the first and third.
    const word = (text: string, x: number, line: number) => ({ text, x0: x, y0: 120 + line * 10, x1: x + 30, y1: 128 + line * 10, size: 8, confidence: null });
    const p = {
      ...page([]),
      words: [word('Hosting', 52, 0), word('(12', 84, 0), word('months)', 110, 0), word('incl.', 52, 1), word('backups', 84, 1), word('Migration', 52, 2), word('300.00', 180, 0), word('500.00', 180, 2)],
    };
    const r = extractLineItems([t], [p]);
    expect(fields(r)).toEqual([
      ['Hosting (12 months) incl. backups', null, null, 300],
      ['Migration', null, null, 500],
    ]);
    expect(r.line_items[1]!.bbox).toEqual([52, 140, 210, 148]);
  });

  it('does not split two figures beside one text (a net and a gross amount)', () => {
    const t = table([
      ['Description', 'Qty', 'Amount'],
      ['Audit', '1', '100.00\n119.00'],
      ['Review', '1', '50.00'],
    ]);
    expect(fields(extractLineItems([t], [page([])])).map((f) => f[0])).toEqual(['Audit', 'Review']);
  });
});

describe('e-invoice item tables: a VAT rate column without its % sign', () => {
  it('does not take the rates (19, 7) right of the amounts for the amounts of a headerless table', () => {
    const t = table(
      [
        ['Schrauben M10', '10,00', '19'],
        ['Fachbuch', '24,50', '7'],
        ['Muttern', '3,20', '19'],
      ],
      { headerRows: 0 },
    );
    expect(fields(extractLineItems([t], [page([])])).map((f) => f[3])).toEqual([10, 24.5, 3.2]);
  });
});

describe('e-invoice totals: a totals block beside a VAT table', () => {
  it('reads the label and figure at the right end of a page line that crosses the VAT table', () => {
    const t = table([
      ['Description', 'Qty', 'Amount'],
      ['Chambre', '6', '1.235,40'],
      ['Taxe de séjour', '6', '9,90'],
    ]);
    const word = (text: string, x: number, line: number) => ({ text, x0: x, y0: 400 + line * 14, x1: x + 6 * text.length, y1: 410 + line * 14, size: 10, confidence: null });
    const p = {
      ...page([]),
      words: [
        // VAT table row (rate, base, tax, gross) on the left; the totals block on the right.
        ...[['10,00', 40], ['%', 72], ['1.235,40', 110], ['123,54', 180], ['1.358,80', 240]].map(([w, x]) => word(w as string, x as number, 0)),
        ...[['Montant', 360], ['Total', 408], ['HT', 440], ['1.245,30', 500]].map(([w, x]) => word(w as string, x as number, 0)),
        ...[['0,00', 40], ['%', 72], ['9,90', 110], ['0,00', 180], ['9,90', 240]].map(([w, x]) => word(w as string, x as number, 1)),
        ...[['Total', 360], ['TVA', 392], ['123,54', 500]].map(([w, x]) => word(w as string, x as number, 1)),
        ...[['Montant', 360], ['Total', 408], ['TTC', 440], ['1.368,84', 500]].map(([w, x]) => word(w as string, x as number, 2)),
      ],
    };
    expect(extractLineItems([t], [p]).totals).toEqual({ subtotal: 1245.3, tax: 123.54, total: 1368.84, currency: null, flags: [] });
  });
});

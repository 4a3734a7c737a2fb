/** Item tables as they are printed: quantities with units, sub-rows, discount and tax columns, counts before descriptions. */
import { describe, expect, it } from 'vitest';
import { extractLineItems } from '../../../src/extract/lineitems/index.js';
import { page, table } from './build.js';

const fields = (r: ReturnType<typeof extractLineItems>) => r.line_items.map((i) => [i.description, i.quantity, i.unit_price, i.amount, i.flags]);

describe('item tables as printed', () => {
  it('reads quantities with units: 1 PCS, 2 x, 3 Stk, 4 uds', () => {
    const t = table([
      ['Description', 'Qty', 'Unit price', 'Amount'],
      ['Cable', '1 PCS', '5.00', '5.00'],
      ['Plug', '2 x', '1.50', '3.00'],
      ['Schraube', '3 Stk', '0.20', '0.60'],
      ['Tornillo', '4 uds', '0.25', '1.00'],
    ]);
    expect(fields(extractLineItems([t], [page([])]))).toEqual([
      ['Cable', 1, 5, 5, []],
      ['Plug', 2, 1.5, 3, []],
      ['Schraube', 3, 0.2, 0.6, []],
      ['Tornillo', 4, 0.25, 1, []],
    ]);
  });

  it('folds the Charges sub-rows of a cloud bill into their service, and keeps Disc.% and Taxes apart', () => {
    const t = table([
      ['Service', 'Qty', 'Unit price', 'Disc.%', 'Taxes', 'Amount'],
      ['Compute Engine', '720', '0.10', '', '7.20', '72.00'],
      ['Charges: vCPU', '', '', '', '', '50.00'],
      ['Charges: memory', '', '', '', '', '22.00'],
      ['Cloud Storage', '100', '0.02', '10', '0.18', '1.80'],
      ['Network egress', '5', '0.12', '', '0.06', '0.60'],
    ]);
    const r = extractLineItems([t], [page([['Subtotal', '74.40']])]);
    expect(fields(r)).toEqual([
      ['Compute Engine', 720, 0.1, 72, []],
      ['Cloud Storage', 100, 0.02, 1.8, []],
      ['Network egress', 5, 0.12, 0.6, []],
    ]);
    expect(r.line_items[0]!.cells['Service']).toBe('Compute Engine\nCharges: vCPU\nCharges: memory');
    expect(r.line_items[1]!.cells).toMatchObject({ 'Disc.%': '10', Taxes: '0.18' });
    expect(r.totals).toMatchObject({ subtotal: 74.4, flags: [] });
  });

  it('keeps amount-only rows that are items of their own (they do not add up to the row above)', () => {
    const t = table([
      ['Description', 'Qty', 'Price', 'Amount'],
      ['Consulting', '2', '100.00', '200.00'],
      ['Travel expenses', '', '', '85.00'],
      ['Flat fee', '', '', '40.00'],
    ]);
    expect(fields(extractLineItems([t], [page([])])).map((f) => f[0])).toEqual(['Consulting', 'Travel expenses', 'Flat fee']);
  });

  it('reads the count printed before a receipt line: 2 x Coffee 7.00', () => {
    const t = table(
      [
        ['2 x Coffee', '7.00'],
        ['Muffin', '3.25'],
        ['3× Bagel', '6.75'],
      ],
      { headerRows: 0 },
    );
    const r = extractLineItems([t], [page([['Total', '17.00']])]);
    expect(fields(r)).toEqual([
      ['Coffee', 2, null, 7, []],
      ['Muffin', null, null, 3.25, []],
      ['Bagel', 3, null, 6.75, []],
    ]);
  });
});

describe('receipt lines that are not items', () => {
  it('keeps rounding, service charge, the item count, cash and change out of the items', () => {
    const t = table([
      ['Description', 'Amount'],
      ['CEMENT (S50KG)', '36.04'],
      ['Cashew nuts', '3.00'],
      ['PLASTIC TRAP (L)', '4.77'],
      ['Qty. 6', '40.81'],
      ['Discount :', '0.00'],
      ['Rounding :', '-0.01'],
      ['10% Srv Chg', '4.08'],
      ['Cash', '50.00'],
      ['Change', '5.12'],
    ]);
    expect(extractLineItems([t], [page([])]).line_items.map((i) => i.description)).toEqual(['CEMENT (S50KG)', 'Cashew nuts', 'PLASTIC TRAP (L)']);
  });
});

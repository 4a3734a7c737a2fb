import { describe, expect, it } from 'vitest';
import { typedCell } from '../../src/api/exports/typed.js';

const comma = { convention: 'comma' as const, dateOrder: 'dmy' as const };
const dot = { convention: 'dot' as const, dateOrder: 'mdy' as const };

describe('table cell text → typed spreadsheet value', () => {
  it('reads amounts with the document convention and keeps decimals, grouping and currency in the format', () => {
    expect(typedCell('€ 399,00', comma)).toEqual({ value: 399, numFmt: '"€ "0.00' });
    expect(typedCell('5,664', comma)).toEqual({ value: 5.664, numFmt: '0.000' });
    expect(typedCell('5,664', dot)).toEqual({ value: 5664, numFmt: '#,##0' });
    expect(typedCell('1 250,00 €', comma)).toEqual({ value: 1250, numFmt: '#,##0.00" €"' });
    expect(typedCell('(1,234.50)', dot)).toEqual({ value: -1234.5, numFmt: '#,##0.00' });
    expect(typedCell('19 %', comma)).toEqual({ value: 0.19, numFmt: '0%' });
    expect(typedCell('7,5%', comma)).toEqual({ value: 0.075, numFmt: '0.0%' });
    expect(typedCell('12.5', dot)).toEqual({ value: 12.5, numFmt: '0.0' });
    expect(typedCell('7', dot)).toEqual({ value: 7, numFmt: 'General' });
  });

  it('writes whole-cell dates as dates in the printed order', () => {
    expect(typedCell('26/11/2026', comma)).toEqual({ value: new Date(Date.UTC(2026, 10, 26)), numFmt: 'dd/mm/yyyy' });
    expect(typedCell('11/26/2026', dot)).toEqual({ value: new Date(Date.UTC(2026, 10, 26)), numFmt: 'mm/dd/yyyy' });
    expect(typedCell('2026-11-30', dot)).toEqual({ value: new Date(Date.UTC(2026, 10, 30)), numFmt: 'yyyy-mm-dd' });
  });

  it('keeps text as text: codes with a leading zero, long digit strings, words, dates inside text', () => {
    for (const t of ['001342', 'GB29NWBK60161331926819', '1234567890123456', 'R-100', 'Date : 26/11/2026', 'Total TTC', '']) expect(typedCell(t, comma)).toEqual({ value: t });
  });
});

import { describe, expect, it } from 'vitest';
import { amountsIn, currencyOf, detectConvention, digitsApart, isCurrencySign, looseNumber, oneDigitApart, parseNumber, sameAmount, withinACent } from '../../../src/extract/locale/numbers.js';

const v = (text: string, conv: 'dot' | 'comma' | null = null) => parseNumber(text, conv)?.value ?? null;

describe('parseNumber: separators', () => {
  it('reads both separators whatever the convention says', () => {
    for (const conv of ['dot', 'comma', null] as const) {
      expect(v('1.234,56', conv)).toBe(1234.56);
      expect(v('1,234.56', conv)).toBe(1234.56);
      expect(v('12.345.678,90', conv)).toBe(12345678.9);
      expect(v('12,345,678.90', conv)).toBe(12345678.9);
    }
  });
  it('reads space, no-break, narrow no-break, thin space and apostrophe groups', () => {
    expect(v('1 234,56')).toBe(1234.56);
    expect(v('1\u00a0234,56')).toBe(1234.56);
    expect(v('1\u202f234,56')).toBe(1234.56);
    expect(v('1\u2009234.56')).toBe(1234.56);
    expect(v("1'234.56")).toBe(1234.56);
    expect(v('1’234.56')).toBe(1234.56);
    expect(v('12 345 678')).toBe(12345678);
  });
  it('resolves one separator with three digits after it by the convention', () => {
    expect(v('1.234', 'comma')).toBe(1234);
    expect(v('1.234', 'dot')).toBe(1.234);
    expect(v('1,234', 'dot')).toBe(1234);
    expect(v('1,234', 'comma')).toBe(1.234);
    expect(v('1.234')).toBe(1.234); // no evidence at all: dot
  });
  it('does not need the convention where the text decides', () => {
    expect(v('1.5', 'comma')).toBe(1.5);
    expect(v('12,50', 'dot')).toBe(12.5);
    expect(v('0,125', 'dot')).toBe(0.125);
    expect(v('1.234.567', 'dot')).toBe(1234567);
    expect(v('1,234,567', 'comma')).toBe(1234567);
    expect(v('.50')).toBe(0.5);
  });
  it('reads the Indian lakh grouping', () => {
    expect(v('1,23,456.00')).toBe(123456);
  });
  it('reads full-width digits', () => {
    expect(v('１２，０００')).toBe(12000);
  });
});

describe('parseNumber: signs', () => {
  it('reads leading minus, U+2212, parentheses and trailing minus', () => {
    expect(v('-12.00')).toBe(-12);
    expect(v('−12,00')).toBe(-12);
    expect(v('(12.00)')).toBe(-12);
    expect(v('12.00-')).toBe(-12);
    expect(v('1.234,56-')).toBe(-1234.56);
    expect(v('+5')).toBe(5);
  });
  it('reads signs outside the currency', () => {
    expect(parseNumber('-€ 12,00')).toEqual({ value: -12, currency: 'EUR', percent: false });
    expect(parseNumber('€ -12,00')).toEqual({ value: -12, currency: 'EUR', percent: false });
    expect(parseNumber('($1,200.00)')).toEqual({ value: -1200, currency: 'USD', percent: false });
  });
  it('reads German 12,- and 1.200,-- as whole amounts, not negatives', () => {
    expect(v('12,-', 'comma')).toBe(12);
    expect(v('1.200,--', 'comma')).toBe(1200);
    expect(parseNumber('€ 12,-')).toEqual({ value: 12, currency: 'EUR', percent: false });
    expect(v('-12,-', 'comma')).toBe(-12);
  });
  it('reads a figure OCR spaced after its decimal mark as one amount, and two groups of three as before', () => {
    expect(v('60, 00')).toBe(60);
    expect(v('1.234, 56')).toBe(1234.56);
    expect(parseNumber('€ 12. 50')).toEqual({ value: 12.5, currency: 'EUR', percent: false });
    expect(v('1, 234')).toBeNull();
    expect(v('12 345')).toBe(12345);
  });
  it('keeps zero unsigned', () => {
    expect(Object.is(v('-0.00'), 0)).toBe(true);
  });
});

describe('parseNumber: currencies and percent', () => {
  const cases: [string, number, string][] = [
    ['€1.234,56', 1234.56, 'EUR'],
    ['1.234,56 €', 1234.56, 'EUR'],
    ['$ 99.95', 99.95, 'USD'],
    ['US$99.95', 99.95, 'USD'],
    ['£12.00', 12, 'GBP'],
    ['¥12,000', 12000, 'JPY'],
    ['￥12,000', 12000, 'JPY'],
    ['12,000円', 12000, 'JPY'],
    ['EUR 1.234,56', 1234.56, 'EUR'],
    ['1,234.56 USD', 1234.56, 'USD'],
    ["CHF 1'234.50", 1234.5, 'CHF'],
    ['JPY 5,000', 5000, 'JPY'],
  ];
  it.each(cases)('%s', (text, value, currency) => {
    expect(parseNumber(text)).toEqual({ value, currency, percent: false });
  });
  it('marks percentages', () => {
    expect(parseNumber('19 %', 'comma')).toEqual({ value: 19, currency: null, percent: true });
    expect(parseNumber('7,5%')).toEqual({ value: 7.5, currency: null, percent: true });
  });
  it('refuses two different currencies', () => {
    expect(parseNumber('€ 12 USD')).toBeNull();
  });
});

describe('parseNumber: what is not a number', () => {
  it.each(['', 'Total', '15.01.2024', '2024-01-15', '12/01', '12 34,5', '1.23.4', 'ABC 12', '1,2,3', '12 pcs', '1.234.5', 'Art. 4711-A', '--'])(
    '%j',
    (text) => {
      expect(parseNumber(text, 'dot')).toBeNull();
      expect(parseNumber(text, 'comma')).toBeNull();
    },
  );
  it('refuses a space group mixed with a dot group', () => {
    expect(parseNumber('1 234.567,00')).toBeNull();
  });
});

describe('currencyOf', () => {
  it('finds symbols and codes in headers and cells', () => {
    expect(currencyOf('Amount (EUR)')).toBe('EUR');
    expect(currencyOf('Betrag €')).toBe('EUR');
    expect(currencyOf('金額（円）')).toBe('JPY');
    expect(currencyOf('Prix unitaire')).toBeNull();
    expect(currencyOf('PCS')).toBeNull();
  });
});

describe('detectConvention', () => {
  it('follows the numbers that decide it', () => {
    expect(detectConvention(['1.234', '12,50', '3'])).toBe('comma');
    expect(detectConvention(['1,234', '12.50'])).toBe('dot');
    expect(detectConvention(['1.234.567'])).toBe('comma');
    expect(detectConvention(['1 234,56'])).toBe('comma');
  });
  it('falls back when nothing decides', () => {
    expect(detectConvention(['1.234', '5', 'Total'], 'comma')).toBe('comma');
    expect(detectConvention(['1,234'])).toBeNull();
  });
  it('ignores dates and words', () => {
    expect(detectConvention(['15.01.2024', '12,50'])).toBe('comma');
  });
});

describe('amountsIn', () => {
  it('reads the amounts with cents of a line in either convention, OCR spaces beside the mark allowed', () => {
    expect(amountsIn('Rounding Adj 0.02   Rounding 182.00').map((a) => a.value)).toEqual([0.02, 182]);
    expect(amountsIn('Gesamt 1.234,56 EUR').map((a) => a.value)).toEqual([1234.56]);
    expect(amountsIn('Total 1,234.56').map((a) => a.value)).toEqual([1234.56]);
    expect(amountsIn('TOTAL 177, 20').map((a) => a.value)).toEqual([177.2]);
  });
  it('leaves counts, codes and dates alone', () => {
    expect(amountsIn('Qty 3  Ref 20250')).toEqual([]);
    expect(amountsIn('Date 15.01.2024')).toEqual([]);
  });
});

describe('isCurrencySign', () => {
  it('is a sign alone, not an amount or a word', () => {
    for (const s of ['$', '€', '£', 'US$', 'A$']) expect(isCurrencySign(s)).toBe(true);
    for (const s of ['$12', 'EUR', 'S']) expect(isCurrencySign(s)).toBe(false);
  });
});

describe('amounts compared to the cent', () => {
  it('sameAmount rounds both to cents first; withinACent compares them as they are', () => {
    expect(sameAmount(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameAmount(2.3449, 2.33)).toBe(true);
    expect(withinACent(2.3449, 2.33)).toBe(false);
    expect(withinACent(2.335, 2.33)).toBe(true);
  });
  it('counts the places two prints differ in; one apart is a one-digit misreading', () => {
    expect(digitsApart('38.75', '39.75')).toBe(1);
    expect(digitsApart('812.85', '312.05')).toBe(2);
    expect(digitsApart('38.75', '138.75')).toBeNull();
    expect(oneDigitApart('38.75', '39.75')).toBe(true);
    expect(oneDigitApart('38.75', '38.75')).toBe(false);
  });
});

describe('looseNumber: a span as OCR left it', () => {
  it('drops one bracket alone and letters glued before the digits; a percentage is no number', () => {
    expect(looseNumber('( 47.70')).toBe(47.7);
    expect(looseNumber('(47.70)')).toBe(-47.7);
    expect(looseNumber('RM12.50')).toBe(12.5);
    expect(looseNumber('S12.50')).toBe(12.5);
    expect(looseNumber('6 %')).toBeNull();
    expect(looseNumber('TOTAL')).toBeNull();
  });
});

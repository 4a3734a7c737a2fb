import { describe, expect, it } from 'vitest';
import { findIbans, isValidIban } from '../../../src/extract/document/iban.js';

describe('IBAN', () => {
  it('accepts valid IBANs of several countries and refuses a wrong check digit or length', () => {
    for (const i of ['DE89370400440532013000', 'GB29NWBK60161331926819', 'NL44RABO0123456789', 'FR1420041010050500013M02606', 'BE68539007547034']) expect(isValidIban(i), i).toBe(true);
    expect(isValidIban('DE88370400440532013000')).toBe(false);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
    expect(isValidIban('XX89370400440532013000')).toBe(false);
  });
  it('finds them in text, grouped or not, and stops where the IBAN ends', () => {
    expect(findIbans('IBAN DE89 3704 0044 0532 0130 00   USt-IdNr. DE123456789')).toEqual([{ iban: 'DE89370400440532013000', raw: 'DE89 3704 0044 0532 0130 00' }]);
    expect(findIbans('Rekening NL44 RABO 0123 4567 89 Valuta: EUR').map((x) => x.iban)).toEqual(['NL44RABO0123456789']);
    expect(findIbans('iban: gb29nwbk60161331926819').map((x) => x.iban)).toEqual(['GB29NWBK60161331926819']);
    expect(findIbans('IBAN DE12 3456 7890 1234 5678 90')).toEqual([]);
  });
});

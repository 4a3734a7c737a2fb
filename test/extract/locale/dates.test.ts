import { describe, expect, it } from 'vitest';
import { DATE_SHAPED, findDate, findPeriod, repairDate, wholeDate } from '../../../src/extract/locale/dates.js';

const iso = (t: string, order: 'dmy' | 'mdy' | 'ymd' = 'dmy') => findDate(t, order)?.iso ?? null;

describe('findDate: every common written form', () => {
  it('reads numeric dates with the document order, a part above 12 deciding it', () => {
    expect(iso('2023-03-20')).toBe('2023-03-20');
    expect(iso('2023/03/20')).toBe('2023-03-20');
    expect(iso('20.03.2023')).toBe('2023-03-20');
    expect(iso('20-03-2023')).toBe('2023-03-20');
    expect(iso('03/20/2023', 'dmy')).toBe('2023-03-20');
    expect(iso('03/04/2023', 'mdy')).toBe('2023-03-04');
    expect(iso('03/04/2023', 'dmy')).toBe('2023-04-03');
    expect(iso('20.03.23')).toBe('2023-03-20');
  });
  it('reads month names in en, de, fr, es, nl, it and pt, day first or month first', () => {
    for (const t of ['20 March 2023', 'March 20, 2023', 'Mar 20 2023', '20-Mar-2023', '20. März 2023', '20 mars 2023', '20 de marzo de 2023', '20 maart 2023', '20 marzo 2023', '20 de março de 2023', '20th March 2023', 'Date: 20 Mar. 2023']) {
      expect(iso(t), t).toBe('2023-03-20');
    }
    expect(iso('1er décembre 2026')).toBe('2026-12-01');
  });
  it('reads Japanese dates, full-width digits too', () => {
    expect(iso('2023年3月20日')).toBe('2023-03-20');
    expect(iso('請求日 ２０２３年３月２０日')).toBe('2023-03-20');
  });
  it('refuses what is not a calendar day, and numbers that are not dates', () => {
    expect(iso('31.02.2023')).toBeNull();
    expect(iso('13/13/2023')).toBeNull();
    expect(iso('INV-2026-0142')).toBeNull();
    expect(iso('1.234,56')).toBeNull();
    expect(findDate('Date: 20.03.2023', 'dmy')?.raw).toBe('20.03.2023');
  });
});

describe('findPeriod', () => {
  it('reads ranges and months as first and last day', () => {
    expect(findPeriod('Account statement 1 - 30 November 2026', 'dmy')).toMatchObject({ start: '2026-11-01', end: '2026-11-30' });
    expect(findPeriod('01.11.2026 - 30.11.2026', 'dmy')).toMatchObject({ start: '2026-11-01', end: '2026-11-30' });
    expect(findPeriod('Kontoauszug 02/2028', 'dmy')).toMatchObject({ start: '2028-02-01', end: '2028-02-29' });
    expect(findPeriod('Extracto de cuenta noviembre 2026', 'dmy')).toMatchObject({ start: '2026-11-01', end: '2026-11-30' });
    expect(findPeriod('2026年11月分', 'ymd')).toMatchObject({ start: '2026-11-01', end: '2026-11-30' });
    expect(findPeriod('Sparkasse Musterstadt', 'dmy')).toBeNull();
  });
});

describe('receipt dates as tills and OCR print them', () => {
  it('reads a month name between slashes or with no separator at all', () => {
    expect(findDate('CB#: 59681331715 14/May/2017 02:56:38', 'dmy')?.iso).toBe('2017-05-14');
    expect(findDate('10Mar2018 18:24', 'dmy')?.iso).toBe('2018-03-10');
    expect(findDate('15 JUN 18', 'dmy')?.iso).toBe('2018-06-15');
    expect(findDate('10 Marks 2018', 'dmy')).toBeNull();
  });
  it('an English document that names GST or VAT is day-first, though OCR read a dollar sign into it', async () => {
    const { dateOrder } = await import('../../../src/extract/locale/index.js');
    const { documentLines } = await import('../../../src/extract/locale/lines.js');
    const words = ['Doc No : CS$00012514 Date: 03/01/2018', 'GST SUMMARY'].flatMap((t, i) =>
      t.split(' ').map((w, j) => ({ text: w, x0: j * 60, y0: i * 20, x1: j * 60 + 50, y1: i * 20 + 10, size: 10, confidence: 0.9 })),
    );
    const lines = documentLines([{ page: 1, width: 600, height: 800, words, rulings: [] }]);
    expect(dateOrder(lines, 'en', 'USD')).toBe('dmy');
    expect(dateOrder(lines.slice(0, 1), 'en', 'USD')).toBe('mdy');
  });
});

describe('dates a till receipt prints, as OCR reads them', () => {
  const upTo2027 = (iso: string) => iso >= '1990' && iso < '2028';
  const repaired = (t: string) => repairDate(t, 'dmy', upTo2027)?.iso ?? null;
  it('reads a date whose first dash was lost, when a time follows it', () => {
    expect(iso('18 03-18 15:12 SH01 ZJ86')).toBe('2018-03-18');
    expect(iso('28. 04-18 16:59')).toBe('2018-04-28');
    expect(iso('Qty 2 10-12')).toBeNull();
  });
  it('reads a date whose separator between day and month was lost, before a four-digit year', () => {
    expect(iso('CASH 2504/2017 RECEIPT #')).toBe('2017-04-25');
    // A document number of year and serial, or a date read whole, is no such date.
    expect(iso('2012-0029 RESTAURANT')).toBeNull();
    expect(iso('3904/2017')).toBeNull();
    expect(iso('Date 25/04/2017 1204/2016')).toBe('2017-04-25');
  });
  it('reads again a digit misread for one it is often taken for, when exactly one reading is a date', () => {
    expect(repaired('WOE 30/63/2018 LLehd PM')).toBe('2018-03-30');
    expect(repaired('DATE: 36/03/2017')).toBe('2017-03-30');
    expect(repaired('Date: 17/04/2078')).toBe('2018-04-17');
    expect(repaired('TATE: 10/00/2017')).toBeNull();
    expect(repaired('RC11-23-42 - 12/144')).toBeNull();
  });
});

describe('wholeDate: a text that is a date', () => {
  it('reads the date only when it makes up half the text or more', () => {
    expect(wholeDate('30/11/2026', 'dmy')).toBe('2026-11-30');
    expect(wholeDate('Date 30/11/2026', 'dmy')).toBe('2026-11-30');
    expect(wholeDate('Invoice issued on the 30/11/2026 at the shop', 'dmy')).toBeNull();
  });
});

describe('DATE_SHAPED: digits shaped like a numeric date', () => {
  it('takes day-or-month-first shapes whatever they read as, not codes or amounts', () => {
    for (const t of ['30.11.2026', '1/2/26', '30-11-26', '45/67/2026']) expect(DATE_SHAPED.test(t)).toBe(true);
    for (const t of ['2026-11-30', 'INV-30/11/2026', '1.234,56', '30.11']) expect(DATE_SHAPED.test(t)).toBe(false);
  });
});

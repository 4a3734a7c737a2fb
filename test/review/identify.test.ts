/**
 * Recognising a vendor on a second OCR reading of its receipt, where whole words come out
 * differently (`GARDENTA`, `SDN BILD`), and reading a date whose label did not come out again.
 */
import { describe, expect, it } from 'vitest';
import { identify, learn, readWithMemory } from '../../src/extract/memory/index.js';
import type { StoredPage } from '../../src/extract/types.js';

/** A receipt page of 300 × 800 from its lines, words 8 units a letter apart. */
function page(lines: string[]): StoredPage {
  const words: StoredPage['words'] = [];
  lines.forEach((line, i) => {
    let x = 10;
    for (const w of line.split(' ')) {
      words.push([w, x, 20 + i * 20, x + w.length * 8, 32 + i * 20]);
      x += w.length * 8 + 6;
    }
  });
  return { page: 1, width: 300, height: 800, words };
}

const taught = (values: Record<string, string | number>) => ({ values: new Map(Object.entries(values)), customTypes: new Map<string, string>() });

const first = page(['GARDENIA BAKERIES (KL) SDN BHD (139386 X)', 'LOT 3, JALAN PELABUR 23/1,', '40300 SHAH ALAM, SELANGOR.', 'Tel: 03-55423228', 'Date: 03/09/2017', 'Bread 2.50', 'Total Payable: 7.97']);
const second = page(['GARDENTA BAKERIES KI SDN BILD 139386 X', 'LOT 3 JATAN PELABUR 23/1', '4030 SHALT ALAM, SETUUGOR.', 'Tel: 03-55423228', 'Dt; 08/09/2017', 'Bread 2.50', 'Cake 20.70', 'Total Payable: 23.20']);
const otherShop = page(['SANYU STATIONERY SHOP', 'NO. 31G&33G, JALAN SETIA INDAH X', 'U13/X 40170 SETIA ALAM', 'Date: 07/11/2017', 'Pen 3.50', 'Total: 9.30']);
const otherFirst = page(['SANYU STATIONERY SHOP', 'NO. 31G&33G, JALAN SETIA INDAH X', 'U13/X 40170 SETIA ALAM', 'Date: 05/11/2017', 'Pen 3.50', 'Total: 5.30']);

describe('vendor memory on a second OCR reading', () => {
  const gardenia = learn(null, 'ven_g', [first], {}, taught({ vendor_name: 'GARDENIA BAKERIES (KL) SDN BHD', issue_date: '2017-09-03', total: 7.97 }));
  const sanyu = learn(null, 'ven_s', [otherFirst], {}, taught({ vendor_name: 'SANYU STATIONERY SHOP', issue_date: '2017-11-05', total: 5.3 }));

  it('recognises the vendor when its name and head read differently, and not another shop', () => {
    expect(identify([sanyu, gardenia], [second])?.id).toBe('ven_g');
    expect(identify([gardenia], [otherShop])).toBeNull();
    expect(identify([gardenia, sanyu], [otherShop])?.id).toBe('ven_s');
  });

  it('reads labelled fields; a date whose label came out differently only as a fallback', () => {
    const { read, unlabelled } = readWithMemory(gardenia, [second]);
    expect(read.total?.value).toBe(23.2);
    expect(read.vendor_name?.value).toBe('GARDENIA BAKERIES (KL) SDN BHD');
    expect(read.issue_date).toBeUndefined();
    expect(unlabelled.issue_date).toMatchObject({ value: '2017-09-08', source: 'vendor_memory', confidence: 0.5 });
  });

  it('a learned tax id not printed on the document only fills a gap: the vendor has another one there', () => {
    const withId = learn(null, 'ven_t', [page(['SANYU STATIONERY SHOP', 'GST ID: 001531760640', 'Date: 05/11/2017', 'Total: 5.30'])], {}, taught({ vendor_name: 'SANYU STATIONERY SHOP', vendor_tax_id: '001531760640' }));
    expect(readWithMemory(withId, [page(['SANYU STATIONERY SHOP', 'GST ID: 0015 3176 0640', 'Total: 9.30'])]).read.vendor_tax_id?.value).toBe('001531760640');
    const elsewhere = readWithMemory(withId, [page(['SANYU STATIONERY SHOP', 'GST ID: 000999888777', 'Total: 9.30'])]);
    expect(elsewhere.read.vendor_tax_id).toBeUndefined();
    expect(elsewhere.unlabelled.vendor_tax_id?.value).toBe('001531760640');
  });
});

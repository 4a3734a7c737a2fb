/**
 * Recognising a vendor on a second OCR reading of its receipt, where whole words come out
 * differently (`GARDENTA`, `SDN BILD`), and reading a date whose label did not come out again.
 */
import { describe, expect, it } from 'vitest';
import { identify, learn, readWithMemory, teachVendor } from '../../src/extract/memory/index.js';
import { looseDate } from '../../src/extract/memory/read.js';
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

describe('vendor memory: registration numbers, the grand total, misread dates, a branch elsewhere', () => {
  const diy = (name: string, reg: string, gst: string, rest: string[]) => page([name, `(CO.REG :${reg})`, 'LOT 1851-A & 1851-B, JALAN KPB 6,', '43300 SERI KEMBANGAN, SELANGOR', `(GST ID No :${gst})`, '-TAX INVOICE-', ...rest]);
  const m = learn(null, 'ven_m', [diy('MR. D.I.Y. (M) SDN BHD', '860671-D', '000306020352', ['Total Incl. GST@6% RM 37.10', 'CASH RM 50.00', '14-03-18 15:12 SH01 ZJ86'])], {}, taught({ vendor_name: 'MR. D.I.Y. (M) SDN BHD', issue_date: '2018-03-14', total: 37.1 }));
  const kuchai = learn(null, 'ven_k', [diy('MR. D.I.Y. (KUCHAI) SDN BHD', '750441-H', '000473792512', ['Total Incl. GST@6% RM 119.70', 'CASH RM 120.00', '15-03-18 11:02 SH01 ZJ86'])], {}, taught({ vendor_name: 'MR. D.I.Y. (KUCHAI) SDN BHD', issue_date: '2018-03-15', total: 119.7 }));

  it('learns the registration numbers of the head, not its phones, the receipt number or a barcode', () => {
    const p = page(['SHOP SDN BHD (139386 X)', '002043319-W', 'Tel: 03-55423228', '03-7846 8155', 'GST ID: 0005 8139 9040', 'Cash Inv No.: 7903711', '9555221300282 2X 6.50 13.00', 'Total: 13.00']);
    expect(learn(null, 'v', [p], {}, taught({ vendor_name: 'SHOP SDN BHD' })).regs).toEqual(['139386', '002043319', '000581399040']);
  });

  it('tells two shops of a chain apart by a registration number read with a digit wrong', () => {
    const later = diy('MR. O.1.¥. (4) SON BHD', '8600/1-D', '000308020352', ['Total Incl. GST@6% RM 2.10', 'CASH RM 2.10', '26-04-18 16:59 SH01 ZJ86']);
    expect(identify([kuchai, m], [later])?.id).toBe('ven_m');
    expect(identify([m, kuchai], [diy('MR. D.I.Y. (KUCHA1) SDN BHD', '750441-W', '000473792512', ['Total: 2.00'])])?.id).toBe('ven_k');
  });

  it('reads a date whose separator or digits OCR misread where the date stood, and a misread year near the learned one', () => {
    const later = diy('MR. D.I.Y. (M) SDN BHD', '860671-D', '000306020352', ['Total Incl. GST@6% RM 10.60', 'CASH RM 20.00', '1B 03-18 15:12 SH01 ZJ86']);
    expect([looseDate('24 03-18', 'dmy'), looseDate('4 26.00', 'dmy'), looseDate('1B 03-18', 'dmy', 2030)]).toEqual(['2018-03-24', null, null]);
    const r = readWithMemory(m, [later]);
    expect((r.read.issue_date ?? r.unlabelled.issue_date)?.value).toBe('2018-03-18');
    const yew = learn(null, 'ven_y', [page(['KEDAI PAPAN YEW CHUAN', 'Bill No. CS00011900 Date: 02/01/2018', 'Total: 10.00'])], {}, taught({ issue_date: '2018-01-02', total: 10 }));
    expect(readWithMemory(yew, [page(['KEDAI PAPAN YEW CHUAN', 'Bill No. CS00011904 Date: 17/04/2078', 'Total: 190.80'])]).read.issue_date?.value).toBe('2018-04-17');
    expect(readWithMemory(yew, [page(['KEDAI PAPAN YEW CHUAN', 'Bill No. CS00011904 Date: 17/04/2022', 'Total: 190.80'])]).read.issue_date?.value).toBe('2022-04-17');
  });

  it('learns the last of the totals a receipt prints, and reads the total after a rounding line', () => {
    const aeon = learn(null, 'ven_a', [page(['AEON CO. (M) BHD', 'Sub total 31.00', 'Total Sales Incl GST 31.00', 'Total After Adj Incl GST 31.00', 'CASH 31.00'])], {}, taught({ total: 31 }));
    expect(aeon.fields.total!.anchors[0]!.left).toBe('after adj incl gst');
    const speed = learn(null, 'ven_s', [page(['99 SPEED MART S/B', 'Total Sales (Inclusive GST) RM 9.90', 'CASH RM 10.00', 'CHANGE RM 0.10'])], {}, taught({ total: 9.9 }));
    const rounded = page(['99 SPEED MART S/B', 'Total Sales (Inclusive GST) RM 181.98', 'Rounding Adjustment RM 0.02', 'Rounding RM 182.00', 'CREDIT RM 182.00']);
    expect(readWithMemory(speed, [rounded]).read.total?.value).toBe(182);
    const spaced = page(['99 SPEED MART S/B', 'Total Sales (Inclusive GST) RM 177.22', 'Rounding Adjustment RM (02', 'Rounding RM 177, 2b)', 'CREDIT RM 177, 20']);
    expect(readWithMemory(speed, [spaced]).read.total?.value).toBe(177.2);
    const none = page(['99 SPEED MART S/B', 'Total Sales (Inclusive GST) RM 165.00', 'Rounding Adj 0.00', 'VISA 165.00']);
    expect(readWithMemory(speed, [none]).read.total?.value).toBe(165);
  });

  it('reads a total OCR split at the printer\'s wide spacing (`1 6 . 00`) whole', () => {
    const aik = learn(null, 'ven_a', [page(['AIK HUAT HARDWARE', 'SUB-TOTAL (GST) 10.60', 'ROUNDING 0.00', 'TOTAL 10.60', 'CASH 20.00'])], {}, taught({ total: 10.6 }));
    const later = page(['AIK HUAT HARDWARE', 'SUB-TOTAL (GST) 16.00', 'ROUNDING 0.00', 'TOTAL 1 6 . 00', 'CASH 14.00', 'CHANGE 0 . 00']);
    expect(readWithMemory(aik, [later]).read.total?.value).toBe(16);
    // Pieces further apart than a line's height are two figures (`1` and `6.00`), not one.
    const apart = page(['AIK HUAT HARDWARE', 'TOTAL 1']);
    apart.words.push(['6.00', 200, 60, 232, 72]);
    expect(readWithMemory(aik, [apart]).read.total?.value).not.toBe(16);
  });

  it('reads the total after a discount when the learned sub-total less the discount is the grand total below it', () => {
    const dom = learn(null, 'ven_d', [page(["DOMINO'S PIZZA", 'Total Items 2', 'Sub-Total : 21.60', 'Grand Total : 21.60', 'Payment : 50.00'])], {}, taught({ total: 21.6 }));
    // The first receipt's figure stood at both; its first line labelled as a total (`Sub-Total`) is the one learned here.
    dom.fields.total!.anchors[0]!.left = 'sub total';
    const later = page(["DOMINO'S PIZZA", 'Total Items 3', 'Sub-Total : 45.70', 'Coupon Discount oo; 14.80', 'Grand Total : 30.90', 'Payment : 101.00', 'Change Due : 70.10']);
    expect(readWithMemory(dom, [later]).read.total?.value).toBe(30.9);
    // Without a discount that accounts for it, another total below stays unread.
    const plain = page(["DOMINO'S PIZZA", 'Total Items 3', 'Sub-Total : 45.70', 'Delivery 3.00', 'Grand Total : 48.70']);
    expect(readWithMemory(dom, [plain]).read.total?.value).toBe(45.7);
  });

  it("keeps the learned address only where half of it is printed: another branch's is the engine's", () => {
    const dom = learn(null, 'ven_d', [page(["DOMINO'S PIZZA", 'NO.12, JALAN PERMAS JAYA 10,', 'BANDAR BARU PERMAS JAYA, 81750 MASAI JOHOR', 'Total: 45.70'])], {}, taught({ vendor_name: "DOMINO'S PIZZA", vendor_address: 'NO.12, JALAN PERMAS JAYA 10, BANDAR BARU PERMAS JAYA, 81750 MASAI JOHOR' }));
    const branch = readWithMemory(dom, [page(["DOMINO'S PIZZA TAMAN UNIVERSITI", '30, JLN KEBUDAYAAN 7, TMN UNIVERSITI', '81300 SKUDAI, JOHOR', 'Total: 30.90'])]);
    expect(branch.read.vendor_address).toBeUndefined();
    expect(branch.unlabelled.vendor_address).toBeUndefined();
    expect(readWithMemory(dom, [page(["DOMINO'S PIZZA", 'NO.12, JALAN PERMAS JAYA 1O,', 'BANDAR BARU PERMAS JAYA, 8175O MASAI JOHOR', 'Total: 12.00'])]).read.vendor_address?.value).toContain('PERMAS');
  });
});

describe('teaching a correction', () => {
  const gardenia = learn(null, 'ven_g', [first], {}, taught({ vendor_name: 'GARDENIA BAKERIES (KL) SDN BHD', total: 7.97 }));
  const unreadable = page(['GARDENTA SDN BHD cl 29. Ko X)', 'tot 3, Jalan Peiabur 246,', 'Total Payable: 29.59']);

  it("a document too badly read to be recognised teaches its vendor's memory when the corrected name is that vendor's, keeping its fingerprint", () => {
    expect(identify([gardenia], [unreadable])).toBeNull();
    const m = teachVendor([gardenia], undefined, [unreadable], {}, taught({ vendor_name: 'Gardenia Bakeries (KL) Sdn Bhd', total: 29.59 }), 'ven_new');
    expect(m.id).toBe('ven_g');
    expect(m.tokens).toEqual(gardenia.tokens);
    expect(m.fields.total!.anchors).toHaveLength(2);
  });

  it("a correction naming another company than the recognised memory's taught name makes its own memory: a chain's two companies stay apart", () => {
    const diy = (name: string, reg: string, total: string) => page([name, `(CO.REG :${reg})`, 'LOT 1851-A & 1851-B, JALAN KPB 6,', '43300 SERI KEMBANGAN, SELANGOR', '-TAX INVOICE-', `Total Incl. GST@6% RM ${total}`]);
    const m = teachVendor([], undefined, [diy('MR. D.I.Y. (M) SDN BHD', '860671-D', '37.10')], {}, taught({ vendor_name: 'MR. D.I.Y. (M) SDN BHD', total: 37.1 }), 'ven_m');
    const kuchaiFirst = [diy('MR. D.I.Y. (KUCHAI) SDN BHD', '750441-H', '119.70')];
    const mLater = [page(['MR. D.I.Y. (M) SDN BHD', '(GST ID No :000306020352)', 'LOT 1851-A & 1851-B, JALAN KPB 6,', '43300 SERI KEMBANGAN, SELANGOR', '-TAX INVOICE-', 'Total Incl. GST@6% RM 5.30'])];
    // Same head, so the first KUCHAI receipt is taken for the other company's.
    expect(identify([m], kuchaiFirst)?.id).toBe('ven_m');
    const k = teachVendor([m], 'ven_m', kuchaiFirst, {}, taught({ vendor_name: 'MR. D.I.Y. (KUCHAI) SDN BHD', total: 119.7 }), 'ven_k');
    expect(k.id).toBe('ven_k');
    expect(identify([m, k], [diy('MR. D.I.Y. (M) SDN BHD', '860671-D', '2.10')])?.id).toBe('ven_m');
    expect(identify([k, m], [diy('MR. D.I.Y. (KUCHA1) SDN BHD', '750441-H', '2.00')])?.id).toBe('ven_k');
    // A head alike another company's but printing a registration number far from all of its own is not that company's.
    const kOnly = learn(null, 'ven_k', kuchaiFirst, {}, taught({ vendor_name: 'MR. D.I.Y. (KUCHAI) SDN BHD' }));
    kOnly.regs = ['750441', '000473792512'];
    expect(identify([kOnly], mLater)).toBeNull();
    expect(identify([kOnly], [page(['MR. D.I.Y. (KUCHAI) SDN BHD', '(GST ID No :000473792812)', 'LOT 1851-A & 1851-B, JALAN KPB 6,', '43300 SERI KEMBANGAN, SELANGOR', '-TAX INVOICE-'])])?.id).toBe('ven_k');
    // Another spelling of the taught name, or no name, still teaches the recognised memory; its taught name is kept.
    expect(teachVendor([m], 'ven_m', kuchaiFirst, {}, taught({ vendor_name: 'MR D.I.Y. (M) SDN. BHD.' }), 'ven_x').id).toBe('ven_m');
    const again = teachVendor([m], 'ven_m', kuchaiFirst, { vendor_name: { value: 'MR. D.I.Y. (KUCHAI) SDN BHD', text: '', confidence: 1, page: 1, bbox: [0, 0, 0, 0] } }, taught({ total: 119.7 }), 'ven_x');
    expect([again.id, again.name]).toEqual(['ven_m', 'MR. D.I.Y. (M) SDN BHD']);
  });

  it('another name, or none, makes a new memory; a recognised document teaches the one recognised', () => {
    expect(teachVendor([gardenia], undefined, [unreadable], {}, taught({ total: 29.59 }), 'ven_new').id).toBe('ven_new');
    expect(teachVendor([gardenia], undefined, [otherShop], {}, taught({ vendor_name: 'SANYU STATIONERY SHOP' }), 'ven_new').id).toBe('ven_new');
    expect(teachVendor([gardenia], undefined, [second], {}, taught({ total: 23.2 }), 'ven_new').id).toBe('ven_g');
  });
});

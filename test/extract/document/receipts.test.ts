/**
 * The vendor and its address at the head of a till receipt, from synthetic pages shaped like the
 * scanned shop receipts of Malaysia (SROIE): a registration number after the name, a name over
 * two lines, a former name and a branch between the name and the address, legal forms misread.
 */
import { describe, expect, it } from 'vitest';
import { understandDocument } from '../../../src/extract/document/index.js';
import { repairLegalForm } from '../../../src/extract/document/vendor.js';
import { isAddressLine } from '../../../src/extract/document/address-lines.js';
import type { PageLayout, Table, Word } from '../../../src/extract/types.js';

/** A centred till receipt: each line's words centred on x = 300, 10 pt type (`sizes` overrides per line), OCR confidence 0.9. */
function receipt(lines: string[], sizes: Record<number, number> = {}): PageLayout {
  const words: Word[] = [];
  let y = 40;
  lines.forEach((line, i) => {
    const size = sizes[i] ?? 10;
    const parts = line.split(' ').filter(Boolean);
    const width = parts.reduce((s, t) => s + t.length * size * 0.5 + 3, -3);
    let x = 300 - width / 2;
    for (const t of parts) {
      words.push({ text: t, x0: x, y0: y, x1: x + t.length * size * 0.5, y1: y + size, size, confidence: 0.9 });
      x += t.length * size * 0.5 + 3;
    }
    y += size * 1.4;
  });
  return { page: 1, width: 600, height: Math.max(842, y + 40), words, rulings: [] };
}

const TILL = ['TAX INVOICE', 'Date: 09/10/2017 12:31', 'Rice 1 5.00', 'TOTAL RM 5.00', 'CASH RM 10.00', 'CHANGE RM 5.00'];
const understand = (page: PageLayout, tables: Table[] = []) => understandDocument([page], tables, { line_items: [], totals: null });
const head = (page: PageLayout, tables?: Table[]) => {
  const f = understand(page, tables).fields;
  return [f.vendor_name?.value, f.vendor_address?.value];
};

describe('the vendor at the head of a till receipt', () => {
  it('leaves out the registration number after the name, and never takes an address line for it', () => {
    const page = receipt(['AEON CO. (M) BHD. (126926-H)', '3RD FLR, AEON TAMAN MALURI SC', 'JLN JEJAKA, TAMAN MALURI', 'CHERAS, 55100 KUALA LUMPUR', 'GST ID 002017394688', ...TILL], { 1: 14, 2: 14 });
    expect(head(page)).toEqual(['AEON CO. (M) BHD.', '3RD FLR, AEON TAMAN MALURI SC, JLN JEJAKA, TAMAN MALURI, CHERAS, 55100 KUALA LUMPUR']);
  });
  it('joins a name printed over two lines, and takes the whole address block under its registration number', () => {
    const page = receipt(['POPULAR BOOK', 'CO. (M) SDN BHD', '(113825-W)', 'NO 8, JALAN 7/118B,', 'DESA TUN RAZAK', '56000 KUALA LUMPUR', 'TEL: 03-7980 9999', ...TILL]);
    expect(head(page)).toEqual(['POPULAR BOOK CO. (M) SDN BHD', 'NO 8, JALAN 7/118B, DESA TUN RAZAK, 56000 KUALA LUMPUR']);
  });
  it('reads a legal form OCR misread, and passes over a former name and a licence line to the address', () => {
    const page = receipt([
      'GERBANG ALAF RESTAURANTS SON BHO',
      '(65351-M)',
      'formerly known as',
      'Golden Arches Restaurants Sdn Bhd',
      'Licensee of McDonalds',
      'Level 6, Bangunan TH, Damansara Uptown3',
      'No.3, Jalan SS21/39, 47400 Petaling Jaya',
      'Selangor',
      '(GST ID No: 000504664064)',
      ...TILL,
    ]);
    expect(head(page)).toEqual(['GERBANG ALAF RESTAURANTS SDN BHD', 'Level 6, Bangunan TH, Damansara Uptown3, No.3, Jalan SS21/39, 47400 Petaling Jaya, Selangor']);
  });
  it('ends the name at its legal form when a branch follows it on its line; a date between name and address is passed over', () => {
    const page = receipt(['EIGHT OUNCE COFFEE CO. THE GARDENS MALL', '27 Mar 2018 18:46', 'F.K06, First Floor, The Gardens Mall,', '59200 Kuala Lumpur.', 'GST No. 002063339520', ...TILL]);
    expect(head(page)).toEqual(['EIGHT OUNCE COFFEE CO.', 'F.K06, First Floor, The Gardens Mall, 59200 Kuala Lumpur.']);
  });
  it('reads the letterhead when a table was found from the first lines on', () => {
    const page = receipt(['99 SPEED MART S/B (519537-X)', 'LOT P.T. 2811, JALAN ANGSA,', 'TAMAN BERKELEY', '41150 KLANG, SELANGOR', ...TILL]);
    const table: Table = { page: 1, pages: [1], bbox: [50, 35, 550, 300], n_rows: 1, n_cols: 1, header_rows: 0, cells: [] };
    expect(head(page, [table])).toEqual(['99 SPEED MART S/B', 'LOT P.T. 2811, JALAN ANGSA, TAMAN BERKELEY, 41150 KLANG, SELANGOR']);
  });
  it('passes over a registration number in braces and a bulleted line, and keeps registration numbers out of the address', () => {
    const page = receipt(['PASIR EMAS HARDWARE SDN BHD', '{801222-M)', '(GST ID No : 000144596992)', '* NO 69,JALAN PENGKALAN 5,', 'KG PASIR PUTIH,', '81700 PASIR GUDANG, JOHOR.', 'Tel/Fax: 07-271 2406', ...TILL]);
    expect(head(page)).toEqual(['PASIR EMAS HARDWARE SDN BHD', 'NO 69,JALAN PENGKALAN 5, KG PASIR PUTIH, 81700 PASIR GUDANG, JOHOR.']);
    const reg = receipt(['SUBANG HEALTHCARE SDN BHD', '1118258-K', 'GST N0: 001536708608', 'B-8, JALAN SS15/4D,', '47500 SUBANG JAYA,SELANGOR', 'TEL: 03- 56127718', ...TILL]);
    expect(head(reg)).toEqual(['SUBANG HEALTHCARE SDN BHD', 'B-8, JALAN SS15/4D, 47500 SUBANG JAYA,SELANGOR']);
  });
  it('takes the lines over a postcode and town as the street, though OCR lost their street word', () => {
    const page = receipt(['Sanjung Realiti Sdn. Bhd. (779763-K)', '(GST Registration No.: 001751072768)', 'Car Park Office, Basanent 1,', 'Labuhraye SPRINT, PJUGA,', '47400 Petaling Jaya, Selangor', 'Tel.: +603 7726 2929', ...TILL]);
    expect(head(page)).toEqual(['Sanjung Realiti Sdn. Bhd.', 'Car Park Office, Basanent 1, Labuhraye SPRINT, PJUGA, 47400 Petaling Jaya, Selangor']);
  });
  it('takes a block of surer type over a larger logo read as noise', () => {
    const page = receipt(['Ab2? (7', 'SYARIKAT PERNIAGAAN GIN KEE', '(81109-A)', 'NO 290, JALAN AIR PANAS,', 'SETAPAK,', '53200, KUALA LUMPUR.', 'TEL : 03-40210276', ...TILL], { 0: 30 });
    page.words.filter((w) => w.y0 < 70).forEach((w) => (w.confidence = 0.1));
    expect(head(page)).toEqual(['SYARIKAT PERNIAGAAN GIN KEE', 'NO 290, JALAN AIR PANAS, SETAPAK, 53200, KUALA LUMPUR.']);
  });
});

describe('address lines and legal forms', () => {
  it('tells address lines in several languages from names', () => {
    for (const t of ['NO. 53, JALAN BESAR,', 'Lot 485 Tmn Lembah Keramat', '12 Market St, Portland, OR 97204', 'Industriestr. 12', 'Havenstraat 4', '12 rue de la République', '47400 Petaling Jaya']) expect(isAddressLine(t), t).toBe(true);
    for (const t of ['YONGFATT ENTERPRISE', 'Bean There Cafe', 'Müller Metallbau GmbH', '1118258-K', '(867388-U)']) expect(isAddressLine(t), t).toBe(false);
  });
  it('reads SDN BHD and ENTERPRISE one or two letters off as printed, and nothing else', () => {
    expect(repairLegalForm('MR. D.I.Y. (M) SON BHO')).toBe('MR. D.I.Y. (M) SDN BHD');
    expect(repairLegalForm('PETRODELI ENIEPPRISE')).toBe('PETRODELI ENTERPRISE');
    expect(repairLegalForm('Acme Sdn Bhd')).toBe('Acme Sdn Bhd');
    expect(repairLegalForm('THE SUN BAR')).toBe('THE SUN BAR');
  });
});

describe('a till receipt by what a till prints', () => {
  it('is a receipt whatever its title when four kinds of till cues are printed and no invoice-only field is', () => {
    const page = receipt(['KEDAI MAJU SDN BHD', 'NO 12, JALAN BESAR,', '81100 JOHOR BAHRU', 'TAX INVOICE', 'Invoice No: CS-1001', 'Date: 09/10/2017 12:31', 'Cashier: AMY', 'Rice 1 5.00', 'Total Qty 1', 'TOTAL RM 5.30', 'Rounding 0.00', 'VISA 5.30', 'Thank you, please come again']);
    expect(understand(page).document_type).toBe('receipt');
  });
  it('stays an invoice with a customer and a due date, though it prints a time and thanks', () => {
    const page = receipt(['ACME SDN BHD', 'NO 1, JALAN SATU, 50000 KUALA LUMPUR', 'TAX INVOICE', 'Invoice No: INV-77', 'Bill to: Globex Sdn Bhd', 'Date: 09/10/2017 12:31', 'Due date: 09/11/2017', 'Consulting 1 500.00', 'TOTAL RM 500.00', 'Paid by card: VISA', 'Thank you for your business']);
    expect(understand(page).document_type).toBe('invoice');
  });
});

describe('the total of a till receipt, checked by what was paid', () => {
  const money = (lines: string[]) => {
    const f = understand(receipt(['KEDAI MAJU SDN BHD', 'NO 12, JALAN BESAR,', 'TAX INVOICE', ...lines])).fields;
    return { subtotal: f.subtotal?.value, tax: f.tax?.value, total: f.total?.value };
  };
  it('reads a total that names the tax it excludes as the subtotal, and one that includes it as the total', () => {
    expect(money(['Total Sales (Excluding GST) 180.00', 'Total GST 10.80', 'Total Sales (Inclusive of GST) 190.80', 'CASH 190.80'])).toEqual({ subtotal: 180, tax: 10.8, total: 190.8 });
    expect(money(['Sub Total RM 28.15', 'Total Due (GST Inc): 28.15', 'Cash 50.00', 'Change 21.85'])).toMatchObject({ total: 28.15 });
    expect(money(['Total (incl GST) 28.20', 'Cash Tendered 100.00', 'Change 71.80', 'TOTAL INCLUDES 6% GST 1.60'])).toEqual({ subtotal: undefined, tax: 1.6, total: 28.2 });
  });
  it('takes the amount charged to a card, within a rounding step of the printed total, as the total paid', () => {
    expect(money(['Total Sales (Inclusive GST) RM 181.98', 'CREDIT RM 182.00', 'CHANGE RM 0.00'])).toMatchObject({ total: 182 });
  });
  it('takes the amount subtotal plus tax and cash minus change agree on over a labelled total neither agrees with', () => {
    expect(money(['Sub Total : 93.40', 'Total GST : 5.60', 'Total : 98.00', 'CASH : 100.00', 'Change : 1.00'])).toMatchObject({ total: 99 });
  });
  it('reads cash minus change from the cash tendered, and the other cash line as what was paid', () => {
    expect(money(['1 Item (Inclusive of GST) 71.00', 'TOTAL Td', 'Cash 71.00', 'Cash Received 101.00', 'Change 30.00'])).toMatchObject({ total: 71 });
  });
  it('does not take a misread cash amount over a surer total', () => {
    const page = receipt(['KEDAI MAJU SDN BHD', 'TAX INVOICE', 'Total 39.90', 'Cash 60.00', 'Change 10.10']);
    page.words.filter((w) => w.text === '60.00').forEach((w) => (w.confidence = 0.39));
    expect(understand(page).fields.total?.value).toBe(39.9);
  });
});

describe("a receipt's total among its tax summary", () => {
  it("takes no total from the GST summary's total row (amount and tax), and no tax from the total before tax", () => {
    // The tax misread (`§.37`), as OCR leaves it: no arithmetic tells the total; the total's line
    // read less surely than the summary's, whose amounts stand in columns apart.
    const page = headOf([
      ...lined(['KEDAI MAJU SDN BHD', 'TAX INVOICE', 'Date: 09/10/2017 12:31', 'Total Gales (Excluding GST) 89.50', 'Total GST : §.37', 'Rounding : 0.00']),
      { text: 'Total Sales (Inclusive of GST) : 94.87', ink: 0.6 },
      ...lined(['GST SUMMARY', 'Tax Code % Amt(RM) Tax(RM)']),
      { text: 'Total : 89.50 §.37', gapAfter: 2 },
    ]);
    const f = understand(page).fields;
    expect([f.subtotal?.value, f.total?.value]).toEqual([89.5, 94.87]);
  });
});

describe('the date of a till receipt', () => {
  it('passes over a misread year (2078) to the next date printed', () => {
    const page = receipt(['KEDAI MAJU SDN BHD', 'TAX INVOICE', 'Doc No: CS00011904 Date: 17/04/2078', 'Total 5.00', 'Printed 17/04/2018 10:50']);
    expect(understand(page).fields.issue_date?.value).toBe('2018-04-17');
  });
});

describe("a receipt's copy heading", () => {
  it("CUSTOMER'S COPY is no customer, and the till receipt stays a receipt", () => {
    const page = receipt(['KEDAI MAJU SDN BHD', 'TAX INVOICE', "CUSTOMER'S COPY", 'Date: 09/10/2017 12:31', 'Total 5.00', 'Rounding 0.00', 'Cash 5.00']);
    const r = understand(page);
    expect(r.fields.customer_name).toBeNull();
    expect(r.document_type).toBe('receipt');
  });
});

/** A till receipt's head from lines of words, each `[text, size, confidence]` (default 10 pt, 0.9), left-aligned at x = 100; a word's own size where OCR gave it another. */
function headOf(lines: { text: string; size?: number; ink?: number; sizes?: number[]; gapAfter?: number }[]): PageLayout {
  const words: Word[] = [];
  let y = 40;
  for (const l of lines) {
    const size = l.size ?? 10;
    let x = 100;
    l.text.split(' ').forEach((t, i) => {
      const s = l.sizes?.[i] ?? size;
      words.push({ text: t, x0: x, y0: y, x1: x + t.length * size * 0.5, y1: y + size, size: s, confidence: l.ink ?? 0.9 });
      x += t.length * size * 0.5 + (i === l.gapAfter ? 120 : 3);
    });
    y += size * 1.4;
  }
  return { page: 1, width: 600, height: Math.max(842, y + 40), words, rulings: [] };
}
const lined = (texts: string[]) => texts.map((text) => ({ text }));

describe('the vendor among a brand, a legal entity and a customer', () => {
  it('takes the registered legal entity under a larger brand name', () => {
    const page = headOf([{ text: 'FamilyMart', size: 30 }, ...lined(['Haxincone Resources Sdn Bhd (383322-D)', '16A, Jalan Astaka U8/83, Bukit Jelutong', '40150 Shah Alam, Selangor D.E.', 'GST ID: 000468594688', ...TILL])]);
    expect(head(page)).toEqual(['Haxincone Resources Sdn Bhd', '16A, Jalan Astaka U8/83, Bukit Jelutong, 40150 Shah Alam, Selangor D.E.']);
  });
  it("takes no customer block printed under the document's number and date, however large and clear", () => {
    const page = headOf([
      { text: 'GARDENIA BAKERIES (KL) SDN BHD (139386 X)', ink: 0.45 },
      ...lined(['Lot 3, Jalan Pelabur 23/1,', '40300 Shah Alam, Selangor.', 'TAX INVOICE / ADJUSTMENT NOTE', 'Cash Inv No.: 7047F722', 'Date: 17/08/2017']),
      { text: 'MAKASSAR FRESH MARKET SDN BHD', size: 15 },
      ...lined(['GROUND FLOOR, NO. 4 & 6,', 'Total 5.00']),
    ]);
    expect(understand(page).fields.vendor_name?.value).toBe('GARDENIA BAKERIES (KL) SDN BHD');
  });
  it("reads a block's type by its median word, not by a word OCR gave a taller line's height", () => {
    const page = headOf([{ text: 'PETRODELI ENTERPRISE', size: 12, ink: 0.5 }, { text: 'Site pany 2395', sizes: [10, 30, 10] }, ...lined(['LOT 485 TMN LEMBAH KERAMAT', '54200 KUALA LUMPUR', ...TILL])]);
    expect(head(page)).toEqual(['PETRODELI ENTERPRISE', 'LOT 485 TMN LEMBAH KERAMAT, 54200 KUALA LUMPUR']);
  });
  it('joins the name OCR split into two blocks of one line at its legal form', () => {
    const page = headOf([{ text: 'GARDENIA SDN BHD (139386 X)', gapAfter: 0 }, ...lined(['Lot 3, Jalan Pelabur 23/1,', '40300 Shah Alam, Selangor.', ...TILL])]);
    expect(head(page)[0]).toBe('GARDENIA SDN BHD');
  });
  it('reads the legal forms S/B and BHD with a digit or a dot misread, and a registration number with a stray mark', () => {
    expect(repairLegalForm('99 SPEED MART 5/B')).toBe('99 SPEED MART S/B');
    expect(repairLegalForm('KING S CONFECTIONERY S/8')).toBe('KING S CONFECTIONERY S/B');
    expect(head(headOf(lined(['99 SPEED MART 5/B (519S37-X)', 'LOT P.T. 2811, JALAN ANGSA,', '41150 KLANG, SELANGOR', ...TILL])))[0]).toBe('99 SPEED MART S/B');
    expect(head(headOf(lined(['AEON CO. (M) B.HD. (126926~H)', '3 FLOOR, AEON TAMAN MALURI SC', 'CHERAS, 55100 KUALA LUMPUR', ...TILL])))[0]).toBe('AEON CO. (M) BHD.');
  });
});

describe('the address under the name, past what is printed between', () => {
  it('passes over a tax id line and a branch name', () => {
    const page = headOf(lined(["DOMINO'S PIZZA", 'GST REF NO : 001694261248', "DOMINO'S PIZZA PERMAS JAYA", 'No.12, Jalan Permas Jaya 10,', 'Bandar Baru Permas Jaya, 81750 Masai', 'Johor', ...TILL]));
    expect(head(page)[1]).toBe('No.12, Jalan Permas Jaya 10, Bandar Baru Permas Jaya, 81750 Masai, Johor');
  });
  it('passes over what OCR left of a registration number, and keeps a line with a slash read as a colon', () => {
    expect(head(headOf(lined(['YONGFATT ENTERPRISE', '726)', 'NO 122124 JALAN DEDAP 13', '81100 JOHOR BAHRU', 'TEL 07-3523888', ...TILL])))[1]).toBe('NO 122124 JALAN DEDAP 13, 81100 JOHOR BAHRU');
    expect(head(headOf(lined(['GARDENIA BAKERIES (KL) SDN BHD (139386 X)', 'Lot 3, Jalan Pelabur 23:1,', '40300 Shah Alam, Selangor.', 'Tel: 03-55423228', ...TILL])))[1]).toBe('Lot 3, Jalan Pelabur 23:1, 40300 Shah Alam, Selangor.');
  });
  it('reads Jln with its l read as i as a street, neither a name nor the end of the address', () => {
    const page = headOf(lined(["BERRY'S CAKE HOUSE", '(Co No. 315481-T)', 'No.1,', 'Jin Puteri 1/6,', 'Bandar Puteri,', '47100 Puchong,', 'Selangor', 'Outlet: 03-80626265', ...TILL]));
    expect(head(page)).toEqual(["BERRY'S CAKE HOUSE", 'No.1, Jin Puteri 1/6, Bandar Puteri, 47100 Puchong, Selangor']);
  });
});

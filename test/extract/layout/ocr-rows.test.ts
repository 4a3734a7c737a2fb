/** Rows of page images: cells of several lines where OCR draws some word boxes too tall, and a header's stacked lines over figures. */
import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout, Ruling, Word } from '../../../src/extract/types.js';
import { grid } from './helpers.js';

/**
 * A line of OCR words at baseline `base` (9 px high, 7 px a character, size 13 as a line box
 * gives it); a word written `text^` has its box drawn too tall, 10 px up and 6 down, as OCR does for
 * some words.
 */
function line(base: number, cells: [number, string][]): Word[] {
  return cells.flatMap(([x, phrase]) => {
    let at = x;
    return phrase.split(' ').map((raw) => {
      const tall = raw.endsWith('^');
      const text = tall ? raw.slice(0, -1) : raw;
      const w: Word = { text, x0: at, y0: base - 9 - (tall ? 10 : 0), x1: at + 7 * text.length, y1: base + (tall ? 6 : 0), size: 13, confidence: 0.9 };
      at = w.x1 + 4;
      return w;
    });
  });
}

const page = (words: Word[], rulings: Ruling[] = []): PageLayout => ({ page: 1, width: 800, height: 1000, words, rulings });

describe('rows of page images', () => {
  it('lines of one cell set 12 px apart stay one cell where rows stand 24 px apart, whatever boxes OCR draws too tall', () => {
    const words = [
      ...line(100, [[200, 'Brand']]),
      ...line(112, [[100, 'Generic'], [200, 'Name/Drug^'], [380, 'Filing'], [480, 'Proposed']]),
      ...line(124, [[100, 'Name'], [200, 'Code'], [290, 'Company'], [380, 'Status'], [480, 'Indications^'], [600, 'Date']]),
      ...line(150, [[200, 'CS1001'], [290, 'CStone'], [380, 'Phase III'], [480, 'NSCLC, NKTL,'], [600, '2017/7/2']]),
      ...line(162, [[490, 'HCC, cHL,']]),
      ...line(174, [[490, 'Gastric Cancer']]),
      ...line(198, [[100, 'Avelumab'], [200, 'Bavencio'], [290, 'Merck KGaA'], [380, 'Phase III'], [480, 'HNSCC'], [600, '2016/7/11']]),
      ...line(210, [[300, '& Pfizer']]),
      ...line(234, [[200, 'KN035^'], [290, 'Alphamab'], [380, 'Phase III'], [480, 'BTCA, Gastric'], [600, '2016/7/11']]),
      ...line(246, [[490, 'Cancer, CRC']]),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Generic Name', 'Brand Name/Drug Code', 'Company', 'Filing Status', 'Proposed Indications', 'Date'],
      ['', 'CS1001', 'CStone', 'Phase III', 'NSCLC, NKTL, HCC, cHL, Gastric Cancer', '2017/7/2'],
      ['Avelumab', 'Bavencio', 'Merck KGaA & Pfizer', 'Phase III', 'HNSCC', '2016/7/11'],
      ['', 'KN035', 'Alphamab', 'Phase III', 'BTCA, Gastric Cancer, CRC', '2016/7/11'],
    ]);
  });

  it('a header stacked over figure columns at the rows\' own spacing is one row of cells of several lines; a line of units is a row of its own', () => {
    // Set to the bottom: shorter headings start lower, the stub's caption stands on the last line.
    const words = [
      ...line(100, [[420, 'Other'], [540, 'Gross']]),
      ...line(112, [[420, 'insurance'], [540, 'insurance']]),
      ...line(124, [[300, 'Net actuarial'], [420, 'contract'], [540, 'contract']]),
      ...line(136, [[40, 'For the year ended December 31'], [300, 'liabilities'], [420, 'liabilities'], [540, 'liabilities']]),
      ...line(148, [[300, '$m'], [420, '$m'], [540, '$m']]),
      ...line(166, [[40, 'Balance, January 1'], [300, '263,091'], [420, '11,155'], [540, '274,246']]),
      ...line(178, [[40, 'New policies'], [300, '3,269'], [420, '-'], [540, '3,269']]),
      ...line(190, [[40, 'Normal in-force movement'], [300, '2,044'], [420, '985'], [540, '3,029']]),
      ...line(202, [[40, 'Changes in methods'], [300, '(173)'], [420, '(1)'], [540, '(174)']]),
      ...line(220, [[40, 'Balance, December 31'], [300, '272,761'], [420, '12,968'], [540, '285,729']]),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0]).slice(0, 3)).toEqual([
      ['For the year ended December 31', 'Net actuarial liabilities', 'Other insurance contract liabilities', 'Gross insurance contract liabilities'],
      ['', '$m', '$m', '$m'],
      ['Balance, January 1', '263,091', '11,155', '274,246'],
    ]);
    expect(tables[0].n_rows).toBe(7);
  });

  it('rows of coordinates in a frame with column rules are rows even where OCR\'s boxes of neighbouring lines overlap', () => {
    const places: [string, string, string, string][] = [
      ['CA', 'Vandenberg AFB', '34° 49\' 23"', '120° 30\' 07"'], ['CO', 'Buckley', '39° 42\' 55"', '104° 46\' 29"'],
      ['CO', 'Schriever AFB', '38° 48\' 22"', '104° 31\' 41"'], ['FL', 'Cape Canaveral AFS', '28° 29\' 09"', '080° 34\' 33"'],
      ['HI', 'Kaena Point', '21° 33\' 43"', '158° 14\' 31"'], ['MD', 'Annapolis', '38° 59\' 27"', '076° 29\' 25"'],
      ['MD', 'Blossom Point', '38° 25\' 53"', '077° 05\' 06"'], ['NM', 'Kirtland AFB', '34° 59\' 06"', '106° 30\' 28"'],
    ];
    // Every other line's boxes drawn too tall: they overlap the lines around them.
    const tall = (p: string) => p.split(' ').map((w) => `${w}^`).join(' ');
    const words = [
      ...line(104, [[95, 'St'], [155, 'Station'], [335, 'Latitude'], [415, 'Longitude']]),
      ...places.flatMap((row, k) => line(128 + 17 * k, row.map((text, c) => [[95, 155, 335, 415][c], k % 2 ? tall(text) : text] as [number, string]))),
    ];
    const h = (y: number): Ruling => ({ x0: 90, y0: y, x1: 490, y1: y });
    const v = (x: number): Ruling => ({ x0: x, y0: 90, x1: x, y1: 260 });
    const tables = detectTables(page(words, [h(90), h(110), h(260), ...[90, 150, 330, 410, 490].map(v)]));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([['St', 'Station', 'Latitude', 'Longitude'], ...places]);
  });

  it('a ruled row of centred cells of one, two and three lines stays one row where marks OCR boxes over a word make lines of their own', () => {
    // Three-line cells at 142, 164, 186; a two-line cell at 153, 175; a one-line cell at 164.
    // The marks overlap the figures before them, so each is a text line of its own at a figure's height.
    const words = [
      ...line(95, [[25, 'Site'], [125, 'Plan'], [245, 'Land'], [365, 'Works']]),
      ...line(164, [[25, 'Lab 1']]),
      ...line(153, [[125, 'Plan 2009']]), ...line(175, [[125, 'No. 6']]),
      ...line(142, [[245, 'Land 3201'], [365, 'Works 3202']]),
      ...line(164, [[245, 'No. 11016'], [365, 'No. 10651']]),
      ...line(186, [[245, 'Ref 2010'], [365, 'Ref 2011']]),
      ...line(165, [[421, '&']]), ...line(187, [[414, '&']]),
    ];
    const h = (y: number): Ruling => ({ x0: 20, y0: y, x1: 480, y1: y });
    const v = (x: number): Ruling => ({ x0: x, y0: 80, x1: x, y1: 220 });
    const tables = detectTables(page(words, [h(80), h(100), h(220), ...[20, 120, 240, 360, 480].map(v)]));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Site', 'Plan', 'Land', 'Works'],
      ['Lab 1', 'Plan 2009 No. 6', 'Land 3201 No. 11016 Ref 2010', 'Works 3202 No. 10651 & Ref 2011 &'],
    ]);
  });

  it('rows ruled under their labels only are rows across the figures too', () => {
    const rows = [['Personal', '394,337', '375,069'], ['Corporate and commercial', '534,577', '520,137'], ['Non-bank institutions', '61,407', '63,874'], ['Total', '990,321', '959,080']];
    const words = [
      ...line(115, [[55, 'Sector'], [260, '2018'], [360, '2017']]),
      ...rows.flatMap((r, k) => line(135 + 20 * k, [[55, r[0]], [260, r[1]], [360, r[2]]])),
    ];
    const h = (y: number, x1 = 450): Ruling => ({ x0: 50, y0: y, x1, y1: y });
    const v = (x: number): Ruling => ({ x0: x, y0: 100, x1: x, y1: 200 });
    const rulings = [h(100), h(120), h(140, 250), h(160, 250), h(180, 250), h(200), ...[50, 250, 350, 450].map(v)];
    const tables = detectTables(page(words, rulings));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([['Sector', '2018', '2017'], ...rows]);
    // A dash standing for nothing, read as a mark ("~"), is a figure's line too.
    const dashed = rows.map((r, k) => (k === 1 ? [r[0], '~', r[2]] : r));
    const withDash = [...line(115, [[55, 'Sector'], [260, '2018'], [360, '2017']]), ...dashed.flatMap((r, k) => line(135 + 20 * k, [[55, r[0]], [260, r[1]], [360, r[2]]]))];
    expect(grid(detectTables(page(withDash, rulings))[0])).toEqual([['Sector', '2018', '2017'], ...dashed]);
    // A label set between the two rows it spans stands level with neither, and a label of two
    // lines level with the two rows is no figure: each stays one cell.
    const spanning = [...words.filter((w) => w.x0 > 250 || w.y1 <= 120), ...line(145, [[55, 'Retail']]), ...line(175, [[55, 'Concern over']]), ...line(195, [[55, 'or family']])];
    const figuresOnly = (y: number): Ruling => ({ x0: 250, y0: y, x1: 450, y1: y });
    const [t] = detectTables(page(spanning, [h(100), h(120), h(160), h(200), figuresOnly(140), figuresOnly(180), ...[50, 250, 350, 450].map(v)]));
    expect(t.cells.find((c) => c.text === 'Retail')?.row_span).toBe(2);
    expect(t.cells.find((c) => c.text.startsWith('Concern'))?.row_span).toBe(2);
  });

  it('a range broken after its dash goes on in the line under it; a row of figures under figures stays a row', () => {
    const words = [
      ...line(100, [[300, '2016'], [400, '2017'], [500, '2018']]),
      ...line(124, [[40, 'Share price'], [300, 'USD0.87 -'], [400, 'USD2.02 -'], [500, 'USD2.73 -']]),
      ...line(136, [[300, 'USD1.52'], [400, 'USD3.90'], [500, 'USD4.98']]),
      ...line(160, [[40, 'Volatility'], [300, '58.27% -'], [400, '57.35%'], [500, '55.82% -']]),
      ...line(172, [[300, '59.03%'], [400, '59.90%'], [500, '58.89%']]),
      ...line(196, [[40, 'Expected life'], [300, '5'], [400, '5'], [500, '4']]),
      ...line(220, [[40, 'Dividend yield'], [300, '0%'], [400, '0%'], [500, '0%']]),
      ...line(232, [[300, '1%'], [400, '1%'], [500, '1%']]),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', '2016', '2017', '2018'],
      ['Share price', 'USD0.87 - USD1.52', 'USD2.02 - USD3.90', 'USD2.73 - USD4.98'],
      ['Volatility', '58.27% - 59.03%', '57.35% 59.90%', '55.82% - 58.89%'],
      ['Expected life', '5', '5', '4'],
      ['Dividend yield', '0%', '0%', '0%'],
      ['', '1%', '1%', '1%'],
    ]);
  });

  it('a wrapped cell\'s next line, going on in lower case or after an open bracket or a joining word, is part of its row in a table of words', () => {
    const words = [
      ...line(100, [[40, 'Indication'], [200, 'Therapy'], [400, 'Sites'], [520, 'Trial']]),
      ...line(114, [[40, 'Solid tumors and'], [200, 'Combo (with a PARP'], [400, 'China'], [520, 'NCT0331']]),
      ...line(128, [[40, 'lymphoma'], [200, 'inhibitor)']]),
      ...line(142, [[40, 'Gastric cancer'], [200, 'Mono'], [400, 'Australia and'], [520, 'NCT0359']]),
      ...line(156, [[400, 'China']]),
      ...line(170, [[40, 'Stage III NSCLC'], [200, 'Mono'], [400, 'China'], [520, 'NCT0372']]),
      ...line(184, [[40, 'Hepatocellular'], [200, 'Combo'], [400, 'China'], [520, 'NCT0378']]),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['Indication', 'Therapy', 'Sites', 'Trial'],
      ['Solid tumors and lymphoma', 'Combo (with a PARP inhibitor)', 'China', 'NCT0331'],
      ['Gastric cancer', 'Mono', 'Australia and China', 'NCT0359'],
      ['Stage III NSCLC', 'Mono', 'China', 'NCT0372'],
      ['Hepatocellular', 'Combo', 'China', 'NCT0378'],
    ]);
  });

  it('a label ending in a colon under a row of figures introduces the rows under it, where rows stand apart', () => {
    const words = [
      ...line(100, [[300, '2014'], [400, '2013'], [500, '2012']]),
      ...line(124, [[40, 'Net sales'], [300, '182,795'], [400, '170,910'], [500, '156,508']]),
      ...line(137, [[40, 'Net income'], [300, '39,510'], [400, '37,037'], [500, '41,733']]),
      ...line(150, [[40, 'Earnings per share:']]),
      ...line(163, [[60, 'Basic'], [300, '6.49'], [400, '5.72'], [500, '6.38']]),
      ...line(176, [[60, 'Diluted'], [300, '6.45'], [400, '5.68'], [500, '6.31']]),
      ...line(202, [[40, 'Total assets'], [300, '231,839'], [400, '207,000'], [500, '176,064']]),
      ...line(215, [[40, 'Long-term debt'], [300, '28,987'], [400, '16,960'], [500, '0']]),
      ...line(241, [[40, 'Total equity'], [300, '111,547'], [400, '123,549'], [500, '118,210']]),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(1);
    const g = grid(tables[0]);
    expect(g.map((r) => r[0])).toEqual(['', 'Net sales', 'Net income', 'Earnings per share:', 'Basic', 'Diluted', 'Total assets', 'Long-term debt', 'Total equity']);
  });

  it('a header block set apart from its body keeps its cells of two lines whole, and its years and units one to a column', () => {
    const words = [
      ...line(100, [[300, 'Year ended'], [420, 'Nine months ended']]),
      ...line(113, [[300, 'December 31,'], [420, 'September 30,']]),
      ...line(140, [[300, '2016'], [360, '2017'], [420, '2017'], [500, '2018']]),
      ...line(162, [[300, 'USD'], [360, 'USD'], [420, 'USD'], [500, 'USD']]),
      ...line(195, [[40, 'Granted'], [300, '0.17'], [360, '-'], [420, '0.16'], [500, '0.54']]),
      ...line(209, [[40, 'Forfeited'], [300, '-'], [360, '0.12'], [420, '0.17'], [500, '0.17']]),
      ...line(223, [[40, 'Exercised'], [300, '0.15'], [360, '-'], [420, '-'], [500, '0.10']]),
    ];
    const tables = detectTables(page(words));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', 'Year ended December 31,', 'Year ended December 31,', 'Nine months ended September 30,', 'Nine months ended September 30,'],
      ['', '2016', '2017', '2017', '2018'],
      ['', 'USD', 'USD', 'USD', 'USD'],
      ['Granted', '0.17', '-', '0.16', '0.54'],
      ['Forfeited', '-', '0.12', '0.17', '0.17'],
      ['Exercised', '0.15', '-', '-', '0.10'],
    ]);
  });
});

describe('ruled rows of page images', () => {
  it("an item's cell of three lines stays one row when a speck OCR read as a word makes a third line beside it", () => {
    const v = [40, 100, 300, 400, 480, 560].map((x): Ruling => ({ x0: x, y0: 80, x1: x, y1: 200 }));
    const h = [80, 120, 200].map((y): Ruling => ({ x0: 40, y0: y, x1: 560, y1: y }));
    const speck: Word = { text: 'a.', x0: 230, y0: 148, x1: 240, y1: 152, size: 13, confidence: 0.74 };
    const words = [
      ...line(106, [[50, 'No'], [110, 'Description'], [310, 'Unit price'], [410, 'Qty'], [490, 'Amount']]),
      ...line(140, [[110, 'Paper A4'], [310, '(Gross: 10,00)']]),
      ...line(152, [[50, '2'], [310, '(Less: 0,00)'], [410, '3,00'], [490, '30,00']]),
      ...line(164, [[110, 'From 01/01/2026'], [310, '(Net): 10,00']]),
      speck,
    ];
    const tables = detectTables(page(words, [...v, ...h]));
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['No', 'Description', 'Unit price', 'Qty', 'Amount'],
      ['2', 'Paper A4 a. From 01/01/2026', '(Gross: 10,00) (Less: 0,00) (Net): 10,00', '3,00', '30,00'],
    ]);
  });
});

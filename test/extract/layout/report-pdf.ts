/**
 * Report PDFs drawn here with pdf-lib for the page-furniture tests: pages of A4 under a running
 * header of two lines (a title and a part on the left, a chapter and an edition on the right) and
 * over a running footer of two (the publisher on the left, "Page N of M" and an ISSN on the right), each page holding a paragraph of prose
 * and a whitespace table of figures. Helvetica, 10 pt body, 8 pt furniture.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

const W = 595.28;
const H = 841.89;
const LEFT = 72;
const RIGHT = W - 72;

export interface ReportPage {
  prose: string[];
  /** The table's rows, the first its header; the first column left-aligned, the others right-aligned. */
  table: string[][];
}

export interface Report {
  /** Two lines of the running header, each a text on the left and one on the right. */
  header: [string, string][];
  /** The running footer's left texts (two lines) and the right text of its second line. */
  footer: [string, string, string];
  /** Page numbers alone at the foot's centre instead of "Page N of M" on the right. */
  bareNumbers?: boolean;
  /** Even pages set their header's lines mirrored, each text on the other side (a book's verso). */
  mirrored?: boolean;
  pages: ReportPage[];
}

function put(page: PDFPage, font: PDFFont, text: string, x: number, top: number, size: number, align: 'left' | 'right' | 'centre' = 'left'): void {
  const w = font.widthOfTextAtSize(text, size);
  const at = align === 'right' ? x - w : align === 'centre' ? x - w / 2 : x;
  page.drawText(text, { x: at, y: H - top - size * 0.8, size, font, color: rgb(0, 0, 0) });
}

/** The report's PDF. */
export async function reportPdf(report: Report): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const n = report.pages.length;
  report.pages.forEach((content, i) => {
    const page = doc.addPage([W, H]);
    const verso = report.mirrored && i % 2 === 1;
    report.header.map(([l, r]) => (verso ? [r, l] : [l, r])).forEach(([left, right], k) => {
      put(page, font, left, LEFT, 30 + 10 * k, 8);
      put(page, font, right, RIGHT, 30 + 10 * k, 8, 'right');
    });
    let y = 90;
    for (const line of content.prose) {
      put(page, font, line, LEFT, y, 10);
      y += 13;
    }
    y += 20;
    const cols = content.table[0].length;
    // The figure columns' right edges, evenly from 260 pt to the right margin.
    const step = (RIGHT - 260) / Math.max(1, cols - 1);
    content.table.forEach((row, r) => {
      row.forEach((text, c) => {
        const f = r === 0 ? bold : font;
        if (c === 0) put(page, f, text, LEFT, y, 10);
        else put(page, f, text, 260 + step * c, y, 10, 'right');
      });
      y += 15;
    });
    put(page, font, report.footer[0], LEFT, H - 44, 8);
    if (report.bareNumbers) put(page, font, String(i + 1), W / 2, H - 44, 8, 'centre');
    else put(page, font, `Page ${i + 1} of ${n}`, RIGHT, H - 44, 8, 'right');
    put(page, font, report.footer[1], LEFT, H - 34, 8);
    put(page, font, report.footer[2], RIGHT, H - 34, 8, 'right');
  });
  return doc.save();
}

/** A statistical report of three pages (or more). */
export function sampleReport(bareNumbers = false, pageCount = 3, mirrored = false): Report {
  const regions = ['North', 'East', 'South', 'West', 'Centre'];
  return {
    header: [
      ['Regional Accounts Yearbook 2025', 'Chapter 4: Household income'],
      ['Part II: Income and wealth', 'Edition 3'],
    ],
    footer: ['Office for Regional Statistics', 'www.regional-statistics.example', 'ISSN 2750-1234'],
    bareNumbers,
    mirrored,
    pages: Array.from({ length: pageCount }, (_, p) => ({
      prose: [
        `Household income grew in every region in ${2021 + p}, by between two and five per cent.`,
        'The table below gives disposable income per head, in euros, and its change on the year.',
      ],
      table: [
        ['Region', String(2020 + p), String(2021 + p), 'Change %'],
        ...regions.map((r, i) => [r, `${18_200 + 450 * i + 120 * p}`, `${18_900 + 430 * i + 160 * p}`, `${(2.1 + 0.4 * i + 0.2 * p).toFixed(1)}`]),
      ],
    })),
  };
}

/**
 * Writes a seeded set of synthetic table documents with ICDAR 2013 ground truth, a check on
 * over-fitting independent of ICDAR and of the layout fixtures: DIR/syn-NNN.pdf and
 * DIR/syn-NNN-str.xml, scored by ../shared/eval/icdar2013.py like the ICDAR folder. Fonts,
 * sizes, column gaps, rulings, header groups, two-line headers, blank rows, dot leaders, fake
 * bold and landscape tables vary from table to table. `--furniture` adds a running header and a
 * footer with the page number to every page (no table of the ground truth; the tables drawn are
 * the same as without it).
 * Run: `node bin/run-ts.js scripts/make-synthetic.ts [DIR] [--docs=N] [--pages=N] [--seed=N] [--furniture]`
 * (default .tmp/synthetic, 60 documents of 5 pages, seed 1).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { drawTable, measureTable, type HeaderCell, type TableSpec } from './layout-draw.js';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const DIR = resolve(args.find((a) => !a.startsWith('--')) ?? '.tmp/synthetic');
const DOCS = opt('docs', 60), PAGES = opt('pages', 5), SEED = opt('seed', 1);
const FURNITURE = args.includes('--furniture');

const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 45;

/** mulberry32: small, fast, and the same sequence everywhere. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const int = (a: number, b: number) => a + Math.floor(rand() * (b - a + 1));
const chance = (p: number) => rand() < p;

const WORDS = ['North', 'South', 'East', 'West', 'Central', 'Upper', 'Lower', 'New', 'Old', 'Port', 'Lake', 'River', 'Valley', 'Hill',
  'Bay', 'Green', 'Stone', 'Bridge', 'Field', 'Market', 'Forest', 'Harbour', 'Castle', 'Mill', 'Spring', 'Marsh', 'Cross', 'Moor'];
const ITEMS = ['Steel bolts', 'Copper wire', 'Paper', 'Office chairs', 'Transport', 'Energy', 'Wages', 'Rent', 'Insurance', 'Software',
  'Training', 'Maintenance', 'Fuel', 'Postage', 'Cleaning', 'Security', 'Printing', 'Travel', 'Catering', 'Consulting'];
const NUMERIC_HEADS = ['Total', 'Male', 'Female', 'Count', 'Share (%)', 'Amount', 'Change', 'Units', 'Price', 'Value', 'Rate',
  'Mean', 'Median', 'Budget', 'Actual', 'Net', 'Gross', 'Tax', 'Q1', 'Q2', 'Q3', 'Q4'];
const GROUPS = ['Population', 'Households', 'Revenue', 'Employment', 'Exports', 'Imports', 'Students', 'Visitors'];
const FONTS = [StandardFonts.Helvetica, StandardFonts.TimesRoman, StandardFonts.Courier, StandardFonts.HelveticaBold, StandardFonts.TimesRomanBold];

type Kind = 'label' | 'code' | 'int' | 'dec' | 'pct' | 'date';

function value(kind: Kind): string {
  switch (kind) {
    case 'label': return chance(0.5) ? pick(ITEMS) : `${pick(WORDS)}${chance(0.5) ? ' ' + pick(WORDS) : ''}`;
    case 'code': return chance(0.5) ? String(int(100, 999999)).padStart(6, '0') : `${pick(['A', 'B', 'C', 'K', 'X'])}-${int(10, 999)}`;
    case 'int': return int(0, 1e6).toLocaleString('en-US');
    case 'dec': { const v = (rand() * 2000 - 200).toFixed(int(1, 2)); return chance(0.1) ? '-' : Number(v).toLocaleString('en-US', { minimumFractionDigits: v.split('.')[1].length }); }
    case 'pct': return `${(rand() * 100).toFixed(1)}%`;
    case 'date': return `20${int(10, 29)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`;
  }
}

const HEAD_OF: Record<Kind, string[]> = {
  label: ['Name', 'Item', 'Region', 'Description', 'Category'], code: ['Code', 'Ref.', 'ID', 'Account'],
  int: NUMERIC_HEADS, dec: NUMERIC_HEADS, pct: ['Share', 'Growth', 'Rate', 'Margin'], date: ['Date', 'Posted', 'Due'],
};

/** A random table spec; `turn` sets it landscape. */
function randomTable(turn: 0 | 90 | -90): TableSpec {
  const nCols = int(3, turn ? 8 : 6);
  const kinds: Kind[] = [pick(['label', 'label', 'code', 'date'] as Kind[])];
  if (kinds[0] === 'code' && chance(0.6)) kinds.push('label');
  while (kinds.length < nCols) kinds.push(pick(['int', 'dec', 'dec', 'pct', 'int'] as Kind[]));
  const rules = pick(['grid', 'grid', 'frame', 'hrules', 'rows', 'none', 'none'] as TableSpec['rules'][]);
  const heads = kinds.map((k) => pick(HEAD_OF[k]));
  // Distinct header texts: the scorer compares cells by text.
  const seen = new Map<string, number>();
  const unique = heads.map((h) => { const n = (seen.get(h) ?? 0) + 1; seen.set(h, n); return n > 1 ? `${h} ${n}` : h; });
  const twoLine = chance(0.2);
  const headRow: HeaderCell[] = unique.map((h, i) => ({ text: twoLine && i > 0 ? `${h}\n${pick(['2024', '2025', '(EUR)', '(%)', 'est.'])}` : h }));
  const header: HeaderCell[][] = [headRow];
  const firstNum = kinds.findIndex((k) => k !== 'label' && k !== 'code' && k !== 'date');
  if (rules !== 'grid' && firstNum > 0 && nCols - firstNum >= 2 && chance(0.3)) {
    const span = Math.min(nCols - firstNum, int(2, 3));
    const top: HeaderCell[] = [];
    for (let c = 0; c < firstNum; c++) top.push({ text: '' });
    top.push({ text: `${pick(GROUPS)} ${int(2000, 2025)}`, span });
    for (let c = firstNum + span; c < nCols; c++) top.push({ text: '' });
    header.unshift(top);
  }
  const nRows = int(4, turn ? 14 : 18);
  const body = Array.from({ length: nRows }, () => kinds.map(value));
  const size = pick([7, 8, 8.5, 9, 9, 10, 11, 12]);
  const textFirst = kinds[0] === 'label';
  return {
    header, body, size, rules,
    align: kinds.map((k) => (k === 'label' || k === 'code' || k === 'date' ? 'l' : 'r')),
    // Ruled cells keep half the gap as padding on each side of the rule.
    gap: Math.round(size * pick(rules === 'grid' || rules === 'rows' ? [0.8, 1, 1.5, 2] : [0.5, 0.8, 1, 1.5, 2, 3]) * 10) / 10,
    pitch: pick([1.3, 1.5, 1.8]),
    blankEvery: rules !== 'grid' && rules !== 'rows' && chance(0.15) ? int(3, 5) : undefined,
    leaders: textFirst && rules !== 'grid' && chance(0.1),
    doubleDraw: chance(0.07) ? 0.3 : undefined,
    turn,
  };
}

const PROSE = [
  'The table below summarises the figures reported for the period; amounts are rounded.',
  'Figures for the previous year have been restated where the method of collection changed.',
  'Source: internal records, compiled for this report and checked against the ledgers.',
];

interface Placed { spec: TableSpec; page: number }

/** A report's running header and footer, two lines each, set apart at both ends of the line, in the margins. */
function drawFurniture(page: PDFPage, font: PDFFont, n: number, d: number): void {
  const [W, H] = PAGE;
  const size = 8;
  const right = (text: string, y: number) => page.drawText(text, { x: W - MARGIN - font.widthOfTextAtSize(text, size), y, size, font });
  page.drawText(`Statistical report ${2000 + d}`, { x: MARGIN, y: H - 20, size, font });
  right(`Regional accounts, edition ${(d % 4) + 1}`, H - 20);
  page.drawText(`Chapter ${d % 5 + 1}: Prices and volumes`, { x: MARGIN, y: H - 30, size, font });
  right(`ISSN 1234-${5600 + d}`, H - 30);
  page.drawText('Office of Statistics', { x: MARGIN, y: 26, size, font });
  right(`Page ${n} of ${PAGES}`, 26);
  page.drawText('www.statistics.example', { x: MARGIN, y: 16, size, font });
  right(`Published ${10 + d} March 2026`, 16);
}

/** Fills one page; returns the tables it holds. */
function fillPage(page: PDFPage, font: PDFFont, n: number): Placed[] {
  const [W, H] = PAGE;
  const out: Placed[] = [];
  if (chance(0.15)) {
    const turn = pick([90, -90] as const);
    for (let tries = 0; tries < 20; tries++) {
      const spec = randomTable(turn);
      const { width, height } = measureTable(font, spec);
      if (width > H - 2 * MARGIN || height > W - 2 * MARGIN) continue;
      // Reading upwards the frame starts at the bottom left; downwards, at the top right.
      if (turn === 90) drawTable(page, font, spec, MARGIN, H - MARGIN);
      else drawTable(page, font, spec, W - MARGIN, MARGIN);
      out.push({ spec, page: n });
      return out;
    }
  }
  let top = MARGIN + 20;
  for (let k = 0; k < 2; k++) {
    if (chance(0.6)) {
      page.drawText(pick(PROSE), { x: MARGIN, y: H - top - 8, size: 9, font });
      top += 30;
    }
    for (let tries = 0; tries < 20; tries++) {
      const spec = randomTable(0);
      const { width, height } = measureTable(font, spec);
      if (width > W - 2 * MARGIN || top + height > H - MARGIN) continue;
      drawTable(page, font, spec, MARGIN + rand() * (W - 2 * MARGIN - width), top + spec.size);
      out.push({ spec, page: n });
      top += height + 60;
      break;
    }
  }
  return out;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/** The ICDAR -str.xml of a document's tables: header cells with their spans, then the body. */
function groundTruth(name: string, tables: Placed[]): string {
  const cell = (r: number, c0: number, c1: number, text: string) =>
    `         <cell id='1' start-row='${r}' start-col='${c0}' end-row='${r}' end-col='${c1}'>\n            <content>${esc(text.replace(/\n/g, ' '))}</content>\n         </cell>`;
  const parts = tables.map((t, i) => {
    const cells: string[] = [];
    t.spec.header.forEach((row, r) => {
      let c = 0;
      for (const h of row) {
        const span = h.span ?? 1;
        if (h.text) cells.push(cell(r, c, c + span - 1, h.text));
        c += span;
      }
    });
    t.spec.body.forEach((row, r) => row.forEach((text, c) => { if (text) cells.push(cell(t.spec.header.length + r, c, c, text)); }));
    return `   <table id='${i + 1}'>\n      <region page='${t.page}' id='1' col-increment='0' row-increment='0'>\n${cells.join('\n')}\n      </region>\n   </table>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<document filename='${name}-str.xml'>\n${parts.join('\n')}\n</document>\n`;
}

await mkdir(DIR, { recursive: true });
let pages = 0, tables = 0;
for (let d = 1; d <= DOCS; d++) {
  const name = `syn-${String(d).padStart(3, '0')}`;
  const doc = await PDFDocument.create();
  const fixed = new Date('2026-12-01T00:00:00Z');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  doc.setProducer('tablemill make-synthetic');
  const font = await doc.embedFont(pick(FONTS));
  const placed: Placed[] = [];
  for (let p = 1; p <= PAGES; p++) {
    const page = doc.addPage(PAGE);
    placed.push(...fillPage(page, font, p));
    if (FURNITURE) drawFurniture(page, font, p, d);
  }
  await writeFile(join(DIR, `${name}.pdf`), await doc.save({ useObjectStreams: false }));
  await writeFile(join(DIR, `${name}-str.xml`), groundTruth(name, placed));
  pages += PAGES;
  tables += placed.length;
}
console.log(`${DIR}: ${DOCS} documents, ${pages} pages, ${tables} tables (seed ${SEED})`);

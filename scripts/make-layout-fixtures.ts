/**
 * Writes the layout fixtures: test/fixtures/layouts/*.pdf and manifest.json (every table of
 * each file as its grid of cell texts), one or more per class of layout the engine must read:
 * turned text and /Rotate pages, frames and partial rules, narrow column gaps, grouped headers,
 * blank rows, fake bold, dot leaders and multi-line header cells.
 * Run: `node bin/run-ts.js scripts/make-layout-fixtures.ts`. The PDFs are committed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import { drawTable, expectedGrid, type TableSpec } from './layout-draw.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test/fixtures/layouts');

const PRODUCTS: string[][] = [
  ['648765', 'AAA', 'Aguascalientes', '1,184,996', '12.5'],
  ['001342', 'AB', 'Baja California', '3,155,070', '7.1'],
  ['220871', 'B', 'Campeche', '822,441', '0.9'],
  ['330014', 'BBB', 'Coahuila de Zaragoza', '2,748,391', '14.0'],
  ['417760', 'AA', 'Colima', '650,555', '3.3'],
  ['509981', 'C', 'Chiapas', '4,796,580', '21.7'],
  ['612209', 'AAA', 'Distrito Federal', '8,851,080', '9.8'],
  ['713450', 'BB', 'Durango', '1,632,934', '5.6'],
];
const PRODUCT_HEAD = [[{ text: 'Code' }, { text: 'Class' }, { text: 'State' }, { text: 'Population' }, { text: 'Share' }]];
const PRODUCT_ALIGN: TableSpec['align'] = ['l', 'l', 'l', 'r', 'r'];

const base = (over: Partial<TableSpec>): TableSpec => ({
  header: PRODUCT_HEAD, body: PRODUCTS, align: PRODUCT_ALIGN, size: 9, gap: 14, rules: 'none', ...over,
});

interface Fixture {
  file: string;
  /** What the fixture is about. */
  about: string;
  page: [number, number];
  rotate?: number;
  font?: StandardFonts;
  /** Tables and where their frame starts (top-left page coordinates of the turned frame). */
  tables: { spec: TableSpec; x: number; top: number }[];
  /** Prose lines drawn upright above the first table, for context. */
  prose?: boolean;
}

const GROUPED: TableSpec = {
  header: [
    [{ text: '' }, { text: 'Population 2020', span: 3 }, { text: 'Households', span: 2 }],
    [{ text: 'Region' }, { text: 'Total' }, { text: 'Male' }, { text: 'Female' }, { text: 'Number' }, { text: 'Size' }],
  ],
  body: [
    ['North', '10.0', '0.9', '9.1', '4,210', '2.4'],
    ['North-East', '112.4', '55.0', '57.4', '40,118', '2.8'],
    ['Centre', '87.3', '42.1', '45.2', '31,007', '2.8'],
    ['South', '64.8', '31.9', '32.9', '25,550', '2.5'],
    ['Islands', '9.7', '4.8', '4.9', '3,871', '2.5'],
  ],
  align: ['l', 'r', 'r', 'r', 'r', 'r'], size: 9, gap: 5, rules: 'hrules',
};

const LEADERS: TableSpec = {
  header: [[{ text: '' }, { text: 'Amount\n2025' }, { text: 'Amount\n2024' }, { text: 'Change\n(%)' }]],
  body: [
    ['Revenue', '12,400', '11,062.6', '12.1'],
    ['Cost of sales', '7,310', '6,954.2', '5.1'],
    ['Gross profit', '5,090', '4,108.4', '23.9'],
    ['Operating expenses', '2,875', '2,731.0', '5.3'],
    ['Total', '2,215', '1,377.4', '60.8'],
  ],
  align: ['l', 'r', 'r', 'r'], size: 10, gap: 18, rules: 'none', leaders: true,
};

const FIXTURES: Fixture[] = [
  {
    file: 'turned-ruled.pdf', about: 'a ruled table set landscape on a portrait page (text reading upwards)',
    page: [420, 620], tables: [{ spec: base({ rules: 'grid', turn: 90 }), x: 80, top: 560 }],
  },
  {
    file: 'turned-stream.pdf', about: 'a whitespace table set landscape, text reading downwards',
    page: [420, 620], tables: [{ spec: base({ turn: -90, gap: 16 }), x: 340, top: 60 }],
  },
  {
    file: 'rotate-page.pdf', about: 'a /Rotate 90 page whose content is drawn turned, so it reads upright',
    page: [420, 620], rotate: 90, tables: [{ spec: base({ turn: 90, rules: 'hrules' }), x: 60, top: 560 }],
  },
  {
    file: 'rotate-page-upright-content.pdf', about: 'a /Rotate 270 page with upright content, so the text reads downwards on screen',
    page: [620, 420], rotate: 270, tables: [{ spec: base({ rules: 'grid' }), x: 60, top: 60 }],
  },
  {
    file: 'frame.pdf', about: 'an outer frame around a whitespace table', prose: true,
    page: [520, 420], tables: [{ spec: base({ rules: 'frame' }), x: 60, top: 120 }],
  },
  {
    file: 'partial-rules.pdf', about: 'rules above, under the header and below a whitespace table', prose: true,
    page: [520, 420], font: StandardFonts.TimesRoman, tables: [{ spec: base({ rules: 'hrules' }), x: 60, top: 120 }],
  },
  {
    file: 'row-rules.pdf', about: 'a rule under every row and one column rule, no frame',
    page: [520, 420], tables: [{ spec: base({ rules: 'rows', gap: 12 }), x: 60, top: 80 }],
  },
  {
    file: 'narrow-gaps.pdf', about: 'columns 4 pt apart (under half an em), code and name columns side by side',
    page: [520, 420], tables: [{ spec: base({ gap: 4 }), x: 60, top: 80 }],
  },
  {
    file: 'grouped-header.pdf', about: 'header groups over numeric sub-columns 5 pt apart',
    page: [520, 420], tables: [{ spec: GROUPED, x: 60, top: 80 }],
  },
  {
    file: 'blank-rows.pdf', about: 'one table whose rows come in groups of three with a blank row between', prose: true,
    page: [520, 460], font: StandardFonts.Courier, tables: [{ spec: base({ blankEvery: 3, size: 8, gap: 12 }), x: 40, top: 110 }],
  },
  {
    file: 'fake-bold.pdf', about: 'every glyph drawn twice, 0.4 pt apart',
    page: [520, 420], tables: [{ spec: { ...LEADERS, leaders: false, doubleDraw: 0.4 }, x: 60, top: 80 }],
  },
  {
    file: 'dot-leaders.pdf', about: 'dot leaders after the labels, two-line header cells',
    page: [520, 420], font: StandardFonts.TimesRoman, tables: [{ spec: LEADERS, x: 60, top: 80 }],
  },
];

const PROSE = [
  'The figures below are taken from the annual survey and are rounded to the nearest unit;',
  'totals may therefore differ slightly from the sum of their parts shown in the table.',
];

async function render(f: Fixture): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fixed = new Date('2026-12-01T00:00:00Z');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  doc.setProducer('tablemill make-layout-fixtures');
  doc.setTitle(f.about);
  const font = await doc.embedFont(f.font ?? StandardFonts.Helvetica);
  const page = doc.addPage(f.page);
  if (f.rotate) page.setRotation(degrees(f.rotate));
  if (f.prose) PROSE.forEach((l, i) => page.drawText(l, { x: 40, y: f.page[1] - 50 - i * 13, size: 10, font }));
  for (const t of f.tables) drawTable(page, font, t.spec, t.x, t.top);
  return doc.save({ useObjectStreams: false });
}

await mkdir(OUT, { recursive: true });
const manifest = [];
for (const f of FIXTURES) {
  const bytes = await render(f);
  await writeFile(join(OUT, f.file), bytes);
  manifest.push({ file: f.file, about: f.about, tables: f.tables.map((t) => expectedGrid(t.spec)) });
  console.log(`${f.file}\t${bytes.length} bytes`);
}
await writeFile(join(OUT, 'manifest.json'), JSON.stringify({ fixtures: manifest }, null, 2) + '\n');
console.log(`manifest.json\t${manifest.length} fixtures`);

import { describe, expect, it } from 'vitest';
import { detectTables } from '../../../src/extract/layout/index.js';
import type { PageLayout } from '../../../src/extract/types.js';
import { grid, line } from './helpers.js';

// Two columns of running text whose last lines end right above a table: the left column's last
// line is one word, the right column's paragraph goes on for a line and a half.
const PAGE: PageLayout = {
  page: 1, width: 800, height: 600, rulings: [],
  words: [
    ...line(100, [['productivity programmes mainly in Technology and', 50], ['programmes across retail and commercial banking', 400]]),
    ...line(114, [['Operations.', 50], ['contractors at the year end was 10,854', 400]]),
    ...line(128, [['2,040 from the year before.', 400]]),
    ...line(150, [['2018', 500], ['2017', 600]]),
    ...line(166, [['Share of profit', 50], ['2,519', 500], ['2,349', 600]]),
    ...line(182, [['Share of loss', 50], ['(12)', 500], ['(31)', 600]]),
  ],
};

describe('prose in columns', () => {
  it('the lines going on from two columns of prose are not rows of the table under them', () => {
    const tables = detectTables(PAGE);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual([
      ['', '2018', '2017'],
      ['Share of profit', '2,519', '2,349'],
      ['Share of loss', '(12)', '(31)'],
    ]);
  });

  it('a table set a blank line under the prose keeps its first line, though it starts at the paragraph\'s edge', () => {
    const words = [
      ...PAGE.words.filter((w) => w.y0 === 100),
      ...line(126, [['Share of gain', 50], ['7', 500], ['9', 600]]),
      ...line(142, [['Share of profit', 50], ['2,519', 500], ['2,349', 600]]),
      ...line(158, [['Share of loss', 50], ['(12)', 500], ['(31)', 600]]),
    ];
    const [t] = detectTables({ ...PAGE, words });
    expect(grid(t)[0]).toEqual(['Share of gain', '7', '9']);
  });
});

describe('long row labels', () => {
  it('a row label wrapped over two lines, its first line as wide as prose, stays in its table', () => {
    const words = [
      ...line(100, [['2018', 500], ['2017', 600]]),
      ...line(116, [['Interest income', 50], ['11,081', 500], ['10,577', 600]]),
      ...line(132, [['Dividend and other income', 50], ['2,829', 500], ['2,810', 600]]),
      // Twelve words over the figure columns: more than a heading between rows holds.
      ...line(148, [['Investment income before realized and unrealized gains on assets supporting insurance and', 50]]),
      ...line(162, [['investment contract liabilities', 60], ['13,560', 500], ['13,649', 600]]),
      ...line(178, [['Debt securities', 50], ['(5,994)', 500], ['3,686', 600]]),
      ...line(194, [['Public equities', 50], ['(1,055)', 500], ['2,235', 600]]),
    ];
    const tables = detectTables({ ...PAGE, words });
    expect(tables).toHaveLength(1);
    const g = grid(tables[0]);
    expect(g[0]).toEqual(['', '2018', '2017']);
    expect(g[g.length - 1]).toEqual(['Public equities', '(1,055)', '2,235']);
    expect(g.some((r) => r[0].startsWith('Investment income before realized'))).toBe(true);
  });
});

// A contents list (titles and page numbers) set beside a column of running text.
const PARAGRAPH = [
  'The Committee reviewed and agreed the variable pay',
  'pool, taking into account performance against the',
  'financial and non-financial metrics set out in the',
  'risk appetite statement and targets set out in our',
  'annual operating plan for the year under review.',
];
const CONTENTS: [string, string][] = [
  ['Annual statement from the Chair', '172'],
  ['Remuneration policy', '175'],
  ['Annual report on remuneration', '184'],
  ['Additional disclosures', '198'],
  ['Pillar 3 disclosures', '199'],
];

describe('running prose beside a table', () => {
  it('a column of running text at a table\'s side is not one of its columns', () => {
    const words = CONTENTS.flatMap(([title, page], i) => line(100 + 16 * i, [[title, 50], [page, 290], [PARAGRAPH[i], 400]]));
    const tables = detectTables({ ...PAGE, words });
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual(CONTENTS);
  });

  it('two languages side by side, paragraph beside paragraph, are no table', () => {
    // The other language's lines as OCR reads them with the English model: short runs of capitals.
    const other = ['KSRAGR RAX', 'FR ADRES BRSS', 'PST RCRY TE', 'RaMRS SS', 'ERG IMAL TRA'];
    const words = other.flatMap((o, i) => line(100 + 16 * i, [[o, 50], [PARAGRAPH[i], 400]]));
    expect(detectTables({ ...PAGE, words })).toEqual([]);
  });
});

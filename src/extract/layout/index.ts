/**
 * The layout both paths share: `PageLayout` in, `Table`s out, in page units. It runs as ordered
 * lists of named passes (run.ts) of three kinds: prepare passes ready the page's words and
 * rulings (prepare/), find passes make tables (find/), repair passes mend, join or drop them
 * (repair/). A page's upright text goes through UPRIGHT_PASSES: ruled grids first, then stream
 * tables in the text the grids did not claim, then the header rows left above them;
 * PAGE_PASSES adds the page's turned text and the last repairs; DOCUMENT_PASSES sets the
 * running header and footer apart before the pages, and stitches tables across page breaks
 * after them.
 */
import type { BBox, PageLayout, Rotation, Table, Word } from '../types.js';
import { inside } from '../geometry.js';
import { pass } from '../passes.js';
import { runPasses, type LayoutPass } from './run.js';
import { withoutFurniture } from './prepare/furniture.js';
import { withoutLeaders } from './prepare/leaders.js';
import { withSignsJoined } from './prepare/currency.js';
import { textLines, type TextLine } from './prepare/lines.js';
import { MIN_TURNED_ROWS, MIN_TURNED_WORDS, rotated, turnBack, turnedReadings, turnUpright } from './prepare/turn.js';
import { latticeInPoints } from './find/lattice.js';
import { withRuledSections } from './find/sections.js';
import { tableBlocks } from './find/blocks.js';
import { streamTable } from './find/stream.js';
import { chartFrame, chartLabels } from './repair/charts.js';
import { withHeaderAbove, withHeaderTables } from './repair/header.js';
import { withMisreadsRight } from './repair/misreads.js';
import { stitchTables } from './repair/stitch.js';

export { stitchTables };
export type { LayoutPass };

/** A ruled grid: its table (none when its cells hold no table), and the box whose words it claims. */
type Grid = { table: Table | null; box: BBox };

/** A page as its passes see it: the page as read, and what earlier passes made of it. */
export interface Page {
  /** The page as read: every word, of every rotation. */
  readonly read: PageLayout;
  /** The page the passes work on: its upright words (rotation 0), less what prepare passes took out. */
  layout: PageLayout;
  /** The upright words that may make rows ('signs'): turned OCR words left out, lone currency signs joined to their amounts. */
  upright: Word[];
  /** The ruled grids ('lattice'), those that are sections of one table replaced by it ('ruled sections'); each claims the words in its box. */
  grids: Grid[];
  /** The upright words no grid claims ('claimed words'). */
  rest: Word[];
  /** Text lines of the words no grid or table claims ('unclaimed lines'), where header rows left out of a table are looked for. */
  unclaimed: TextLine[];
}

/** A page ready for its passes: the upright words of `layout` to work on. */
export function pageOf(layout: PageLayout): Page {
  const words = layout.words.filter((w) => (w.rotation ?? 0) === 0);
  return { read: layout, layout: { ...layout, words }, upright: [], grids: [], rest: [], unclaimed: [] };
}

const tablesOf = (grids: Grid[]) => grids.flatMap((g) => (g.table ? [g.table] : []));
/** Whether `t` is a grid's table (a lattice table, or the table ruled sections make). */
const ruled = (p: Page, t: Table) => p.grids.some((g) => g.table === t);

/** The passes of a page's upright text, in order. */
export const UPRIGHT_PASSES: readonly LayoutPass<Page>[] = [
  { name: 'leaders', run: (p, tables) => { p.layout = { ...p.layout, words: withoutLeaders(p.layout.words) }; return tables; } },
  // Rotated words (axis titles of charts, vertical column labels) are not rows of a stream table.
  { name: 'signs', run: (p, tables) => { p.upright = withSignsJoined(p.layout.words.filter((w) => !rotated(w))); return tables; } },
  { name: 'lattice', run: (p, tables) => { p.grids = latticeInPoints(p.layout); return [...tables, ...tablesOf(p.grids)]; } },
  {
    name: 'ruled sections',
    run: (p, tables) => {
      const before = new Set(tablesOf(p.grids));
      p.grids = withRuledSections(p.layout, p.grids, p.upright);
      return [...tables.filter((t) => !before.has(t)), ...tablesOf(p.grids)];
    },
  },
  { name: 'claimed words', run: (p, tables) => { p.rest = p.upright.filter((w) => !p.grids.some((g) => inside(w, g.box))); return tables; } },
  // A chart's frame and grid lines make a lattice of its labels; its curves, inside the frame,
  // cover less of it than labels around a figure do.
  { name: 'chart frames', run: (p, tables) => tables.filter((t) => !ruled(p, t) || !chartFrame(t, p.layout)) },
  {
    name: 'stream',
    run: (p, tables) => {
      const out = [...tables];
      for (const block of pass('table blocks', () => tableBlocks(textLines(p.rest)))) {
        const t = pass('stream table', () => streamTable(p.layout.page, block));
        if (t) out.push(t);
      }
      return out;
    },
  },
  { name: 'chart labels', run: (p, tables) => tables.filter((t) => ruled(p, t) || !chartLabels(t, p.layout)) },
  {
    name: 'unclaimed lines',
    run: (p, tables) => {
      const claimed = [...p.grids.map((g) => g.box), ...tables.map((t) => t.bbox)];
      p.unclaimed = textLines(p.rest.filter((w) => !claimed.some((b) => inside(w, b))));
      return tables;
    },
  },
  // Header lines left above a table (a filled header band outside its rules, a wide gap).
  { name: 'header tables', run: (p, tables) => withHeaderTables(tables, p.unclaimed) },
  {
    name: 'header above',
    run: (p, tables) => {
      const used = new Set<TextLine>();
      return tables.map((t) => withHeaderAbove(t, p.unclaimed, used));
    },
  },
];

/** The passes of one page, in order: its upright text's, then its turned text's, then the last repairs. */
export const PAGE_PASSES: readonly LayoutPass<Page>[] = [
  ...UPRIGHT_PASSES,
  {
    name: 'turned text',
    run: (p, tables) => {
      const byRotation = new Map<Rotation, Word[]>();
      for (const w of p.read.words) {
        const r = w.rotation ?? 0;
        byRotation.set(r, [...(byRotation.get(r) ?? []), w]);
      }
      const read = turnedReadings(byRotation.get(0) ?? [], tables);
      const out = [...tables];
      for (const [rot, words] of byRotation) {
        if (rot !== 0 && words.length >= MIN_TURNED_WORDS) out.push(...turnedTables(p.read, words, rot));
      }
      if (read) out.push(...turnedTables(p.read, read.words, read.rot).filter((t) => t.n_rows >= MIN_TURNED_ROWS));
      return out;
    },
  },
  { name: 'reading order', run: (_p, tables) => [...tables].sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]) },
  { name: 'misreads', run: (_p, tables) => tables.map(withMisreadsRight) },
];

/** Tables of the words turned by `rot`, found upright and turned back onto the page. */
function turnedTables(read: PageLayout, words: Word[], rot: Rotation): Table[] {
  const turned = turnUpright(read, words, rot);
  const upright = runPasses(UPRIGHT_PASSES, pageOf({ ...turned, figures: undefined, unitsPerPoint: read.unitsPerPoint }), [], `turned text ${rot}°`);
  return upright.map((t) => turnBack(t, read, rot));
}

/** Tables of one page, top to bottom. Works on any `PageLayout` (text layer or OCR). */
export function detectTables(layout: PageLayout): Table[] {
  return runPasses(PAGE_PASSES, pageOf(layout));
}

/** A document as its passes see it: its pages, and each page's tables once found ('pages'). */
export interface DocumentPages {
  layouts: PageLayout[];
  perPage: Table[][];
}

/** The passes of a whole document, in order. */
export const DOCUMENT_PASSES: readonly LayoutPass<DocumentPages>[] = [
  { name: 'furniture', run: (d, tables) => { d.layouts = withoutFurniture(d.layouts); return tables; } },
  { name: 'pages', run: (d, tables) => { d.perPage = d.layouts.map(detectTables); return [...tables, ...d.perPage.flat()]; } },
  // Stitching reads the tables page by page, as 'pages' left them.
  { name: 'stitch', run: (d) => stitchTables(d.perPage, d.layouts) },
];

/** A document's tables: each page's, without its running header and footer, stitched across page breaks. */
export function documentTables(layouts: PageLayout[]): Table[] {
  return runPasses(DOCUMENT_PASSES, { layouts, perPage: [] });
}

/**
 * A table whose groups of rows are ruled as grids of their own, the rows between them unruled
 * (a total over its parts, a heading row): the grids are sections of one table. A stream block
 * over the page's upright text that holds two such grids or more, or one grid with rows of
 * figures over or under it, is that table, one table in place of its pieces; its words are
 * claimed as a grid's are. So is a block that holds one grid ruling a small part of it with
 * fewer columns than the block's (see `pieceOf`).
 */
import type { BBox, PageLayout, Ruling, Table, Word } from '../../types.js';
import { textLines, type TextLine } from '../prepare/lines.js';
import { tableBlocks } from './blocks.js';
import { streamTable } from './stream.js';
import { mergeRulings } from '../prepare/rulings.js';
import { isNumberCell } from '../grid.js';
import { pass } from '../../passes.js';

type Grid = { table: Table | null; box: BBox };

/** Ruled grids that are sections of one longer table: this many or more in one block of rows. */
const MIN_SECTIONS = 2;
/** Rules of two grids at the same x within this (points) are one column rule. */
const SAME_RULE_PT = 3;
/** A row between two sections holds this many figures or more right of their first column rule. */
const ROW_FIGURES = 2;

/** The page's grids, with those that are sections of one table (see the file comment) replaced by it; `words`: the upright words. */
export function withRuledSections(layout: PageLayout, grids: Grid[], words: Word[]): Grid[] {
  if (!grids.some((g) => g.table)) return grids;
  let out = grids;
  // The page's vertical rules, merged once for every block that holds a grid.
  let merged: Ruling[] | null = null;
  const verticals = () => (merged ??= mergeRulings(layout.rulings).v);
  for (const block of pass('table blocks', () => tableBlocks(textLines(words)))) {
    const y0 = block[0].y0, y1 = block[block.length - 1].y1;
    const x0 = Math.min(...block.map((l) => l.x0)), x1 = Math.max(...block.map((l) => l.x1));
    const held = out.filter((g) => g.table && (g.box[1] + g.box[3]) / 2 > y0 && (g.box[1] + g.box[3]) / 2 < y1 && g.box[0] < x1 && g.box[2] > x0);
    if (held.length === 0) continue;
    if (held.length === 1 && !rowsBeside(held[0], block, layout, verticals())) {
      const t = pass('stream table', () => streamTable(layout.page, block));
      if (t && pieceOf(held[0], t) && !out.some((g) => g !== held[0] && g.table && crosses(t.bbox, g.box))) out = [...out.filter((g) => g !== held[0]), { table: t, box: t.bbox }];
      continue;
    }
    if (!sections(held, layout, words, verticals())) continue;
    const t = pass('stream table', () => streamTable(layout.page, block));
    if (t) out = [...out.filter((g) => !held.includes(g)), { table: t, box: t.bbox }];
  }
  return out;
}

/**
 * Whether a table's box runs into a grid's: over a tenth of the grid's area. A table of which a
 * grid is a piece stops at the rules of the page's other grids (a box of totals beside the notes
 * of an invoice, a payment box under them, are each their own).
 */
function crosses(t: BBox, g: BBox): boolean {
  const w = Math.min(t[2], g[2]) - Math.max(t[0], g[0]);
  const h = Math.min(t[3], g[3]) - Math.max(t[1], g[1]);
  return w > 0 && h > 0 && w * h > 0.1 * (g[2] - g[0]) * (g[3] - g[1]);
}

/** A grid over at most this share of a stream table's height may be a piece of it. */
const PIECE_SHARE = 0.5;

/**
 * One grid inside a longer table, the rest of it unruled (a shaded column with its rules, a
 * ruled block of a few rows): the stream table over the whole block runs above or below it
 * over twice its height or more, and finds more columns than its rules part.
 */
function pieceOf(g: Grid, t: Table): boolean {
  const h = g.box[3] - g.box[1], mid = (g.box[1] + g.box[3]) / 2;
  return t.n_cols > g.table!.n_cols && mid > t.bbox[1] && mid < t.bbox[3] && h <= PIECE_SHARE * (t.bbox[3] - t.bbox[1]);
}

/**
 * A grid ruling one group of a block's rows, with rows of figures above or below it (two or more;
 * a statistic under a grid, "χ2 = 5.281, ν = 3, p = 0.152", is one line) that keep to its column
 * rules: a section of the block's table, as two grids are.
 */
function rowsBeside(grid: Grid, block: TextLine[], layout: PageLayout, verticals: Ruling[]): boolean {
  const tol = SAME_RULE_PT * (layout.unitsPerPoint ?? 1);
  const b = grid.box;
  const rules = verticals.filter((v) => v.x0 > b[0] + tol && v.x0 < b[2] - tol && v.y1 > b[1] && v.y0 < b[3]).map((v) => v.x0);
  if (rules.length === 0) return false;
  const first = Math.min(...rules);
  const outside = block.filter((l) => l.y1 < b[1] + tol || l.y0 > b[3] - tol);
  const rows = outside.filter((l) => l.words.filter((w) => isNumberCell(w.text) && w.x0 > first).length >= ROW_FIGURES && !l.words.some((w) => rules.some((x) => w.x0 < x - tol && w.x1 > x + tol)));
  return rows.length >= MIN_SECTIONS;
}

/**
 * Grids that are sections of one table: each after the first has no header of its own (its
 * first row holds figures), and between two of them stand rows of the table that keep to the
 * columns both grids rule (no word across a shared rule), one of them with figures right of
 * the first such rule. Separate tables have headers of their own, and the captions and prose
 * between them run across the columns.
 */
function sections(grids: Grid[], layout: PageLayout, words: Word[], verticals: Ruling[]): boolean {
  const sorted = [...grids].sort((a, b) => a.box[1] - b.box[1]);
  if (sorted.slice(1).some((g) => g.table!.header_rows > 0)) return false;
  const tol = SAME_RULE_PT * (layout.unitsPerPoint ?? 1);
  const inner = (b: BBox) => verticals.filter((v) => v.x0 > b[0] + tol && v.x0 < b[2] - tol && v.y1 > b[1] && v.y0 < b[3]).map((v) => v.x0);
  return sorted.slice(1).every((b, i) => {
    const a = sorted[i];
    const below = inner(b.box);
    const shared = inner(a.box).filter((x) => below.some((y) => Math.abs(x - y) <= tol));
    if (b.box[1] < a.box[3] - tol || shared.length === 0) return false;
    const between = words.filter((w) => (w.y0 + w.y1) / 2 > a.box[3] && (w.y0 + w.y1) / 2 < b.box[1]);
    if (between.some((w) => shared.some((x) => w.x0 < x - tol && w.x1 > x + tol))) return false;
    const first = Math.min(...shared);
    return textLines(between).some((l) => l.words.filter((w) => isNumberCell(w.text) && w.x0 > first).length >= ROW_FIGURES);
  });
}

/**
 * The layout algorithm both paths share: `PageLayout` in, `Table`s out, in page units. Lattice
 * tables first (ruled grids), then stream tables in the text the grids did not claim.
 */
import type { BBox, PageLayout, Rotation, Table, Word } from '../types.js';
import { turnBack, turnUpright } from './prepare/turn.js';
import { withoutLeaders } from './prepare/leaders.js';
import { withSignsJoined } from './prepare/currency.js';
import { mergeRulings } from './prepare/rulings.js';
import { latticeTables } from './find/lattice.js';
import { textLines, type TextLine } from './prepare/lines.js';
import { hundredths, inside, median } from '../geometry.js';
import { tableBlocks } from './find/blocks.js';
import { streamTable } from './find/stream.js';
import { isNumberCell } from './grid.js';
import { withHeaderAbove, withHeaderTables } from './repair/header.js';
import { withMisreadsRight } from './repair/misreads.js';
import { withRuledSections } from './find/sections.js';

import { stitchTables } from './repair/stitch.js';
import { withoutFurniture } from './prepare/furniture.js';
import { pass } from '../passes.js';

export { stitchTables };

/** A document's tables: each page's, without its running header and footer, stitched across page breaks. */
export function documentTables(layouts: PageLayout[]): Table[] {
  const body = pass('furniture', () => withoutFurniture(layouts));
  const tables = body.map(detectTables);
  return pass('stitch', () => stitchTables(tables, body));
}

/** An OCR word taller than wide is turned text; a text layer says its words' rotation (and narrow boxes are only estimates). */
const rotated = (w: Word) => w.confidence !== null && w.text.length >= 2 && w.y1 - w.y0 > 1.5 * (w.x1 - w.x0);

/** Fewer words than this turned one way are labels (an axis title), not a table. */
const MIN_TURNED_WORDS = 6;

/** Tables of one page, top to bottom. Works on any `PageLayout` (text layer or OCR). */
export function detectTables(layout: PageLayout): Table[] {
  const byRotation = new Map<Rotation, Word[]>();
  for (const w of layout.words) {
    const r = w.rotation ?? 0;
    byRotation.set(r, [...(byRotation.get(r) ?? []), w]);
  }
  const tables = uprightTables({ ...layout, words: byRotation.get(0) ?? [] });
  const read = pass('turned text', () => turnedReadings(byRotation.get(0) ?? [], tables));
  for (const [rot, words] of byRotation) {
    if (rot !== 0 && words.length >= MIN_TURNED_WORDS) tables.push(...turnedTables(layout, words, rot));
  }
  if (read) tables.push(...turnedTables(layout, read.words, read.rot).filter((t) => t.n_rows >= MIN_TURNED_ROWS));
  return pass('misreads', () => tables.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]).map(withMisreadsRight));
}

/** Tables of the words turned by `rot`, found upright and turned back onto the page. */
function turnedTables(layout: PageLayout, words: Word[], rot: Rotation): Table[] {
  const turned = pass('turned text', () => turnUpright(layout, words, rot));
  return uprightTables({ ...turned, figures: undefined, unitsPerPoint: layout.unitsPerPoint }).map((t) => pass('turned text', () => turnBack(t, layout, rot)));
}

/**
 * An OCR line's box height over the em a text layer gives (the raster path's own estimate of
 * font size, `size`, is that box times 1.15); a turned word's line runs across the page, so its
 * em is read from its width.
 */
const EM_PER_LINE_BOX = 1.15;
/** Turned OCR words count read at this confidence or more, with two letters or digits together (hatching read as "++", "BE" is not). */
const SURE = 0.6;
/**
 * A table of OCR'd turned words has this many rows or more: a chart's bar labels, printed
 * turned with their values, read as two.
 */
const MIN_TURNED_ROWS = 3;
/** A short word of a turned line is no wider than this many times the line's tall words. */
const LINE_WIDTH = 1.25;

/**
 * OCR'd text set turned on an upright page (a landscape table printed sideways): OCR reads
 * such a block's words along their lines and gives them boxes taller than wide, with no
 * rotation. The tall words read surely outside the upright tables, and the short ones on their
 * lines (a "B", a "de": no wider than such a line), are that text; which way it reads is told
 * by the order OCR gives the words of one line in (down the page: turned 90°, up it: 270°),
 * and each word's em by its width.
 */
function turnedReadings(words: Word[], upright: Table[]): { rot: Rotation; words: Word[] } | null {
  const free = words.filter((w) => w.confidence !== null && !upright.some((t) => inside(w, t.bbox)));
  const tall = free.filter((w) => rotated(w) && w.confidence! >= SURE && /[\p{L}\p{N}]{2}/u.test(w.text));
  if (tall.length < MIN_TURNED_WORDS) return null;
  const across = (a: Word, b: Word) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 * Math.min(a.x1 - a.x0, b.x1 - b.x0);
  let down = 0, up = 0;
  tall.slice(1).forEach((b, i) => {
    if (!across(tall[i], b)) return;
    if (b.y0 > tall[i].y0) down++;
    else up++;
  });
  const y0 = Math.min(...tall.map((w) => w.y0)), y1 = Math.max(...tall.map((w) => w.y1));
  const onLine = (w: Word) => tall.some((t) => across(t, w) && w.x1 - w.x0 <= LINE_WIDTH * (t.x1 - t.x0));
  const short = free.filter((w) => !rotated(w) && w.y0 >= y0 && w.y1 <= y1 && onLine(w));
  const ems = [...tall, ...short].map((w) => ({ ...w, size: (w.x1 - w.x0) * EM_PER_LINE_BOX }));
  return { rot: up > down ? 270 : 90, words: ems };
}

/** Tables of upright text: lattice grids first, then stream tables in the text they leave. */
function uprightTables(layout: PageLayout): Table[] {
  layout = { ...layout, words: pass('leaders', () => withoutLeaders(layout.words)) };
  // Rotated words (axis titles of charts, vertical column labels) are not rows of a stream table.
  const upright = pass('signs', () => withSignsJoined(layout.words.filter((w) => !rotated(w))));
  const grids = pass('lattice', () => latticeInPoints(layout));
  const lattice = pass('ruled sections', () => withRuledSections(layout, grids, upright));
  const rest = pass('claimed words', () => upright.filter((w) => !lattice.some((t) => inside(w, t.box))));
  // A chart's frame and grid lines make a lattice of its labels; its curves, inside the frame,
  // cover less of it than labels around a figure do.
  const tables = pass('figure checks', () => lattice.flatMap((t) => (t.table && (!inFigure(t.table.bbox, layout.figures, LATTICE_FIGURE_SHARE) || figuresGrid(t.table, layout.words)) && !chartMarks(t.table, layout.words) ? [t.table] : [])));
  for (const block of pass('table blocks', () => tableBlocks(textLines(rest)))) {
    const t = pass('stream table', () => streamTable(layout.page, block));
    if (t && pass('figure checks', () => !inFigure(t.bbox, layout.figures) && !chartMarks(t, layout.words) && !besideFrames(t, layout))) tables.push(t);
  }
  // Header lines left above a table (a filled header band outside its rules, a wide gap).
  return pass('header', () => {
    const claimed = [...lattice.map((t) => t.box), ...tables.map((t) => t.bbox)];
    const left = textLines(rest.filter((w) => !claimed.some((b) => inside(w, b))));
    const used = new Set<TextLine>();
    return withHeaderTables(tables, left).map((t) => withHeaderAbove(t, left, used));
  });
}

/**
 * Lattice tables with the grid's tolerances in points, as they were set on text layers (pens
 * overshoot by 1-2 pt; a double rule's lines lie 2-3 pt apart and are one grid line): an image's
 * words and rulings are seen in points, and its tables come back in its pixels. Below
 * MIN_POINT_SCALE pixels a point the tolerances stay in pixels: there 3 pt is within a pixel of
 * the gap between tables set side by side (3-4 px at 92 dpi).
 */
const MIN_POINT_SCALE = 2;

function latticeInPoints(layout: PageLayout): ReturnType<typeof latticeTables> {
  const u = layout.unitsPerPoint ?? 1;
  if (u < MIN_POINT_SCALE) return latticeTables(layout.page, mergeRulings(layout.rulings), layout.words);
  const down = <T extends { x0: number; y0: number; x1: number; y1: number }>(b: T): T => ({ ...b, x0: b.x0 / u, y0: b.y0 / u, x1: b.x1 / u, y1: b.y1 / u });
  const up = (b: BBox): BBox => b.map((v) => hundredths(v * u)) as BBox;
  const words = layout.words.map((w) => ({ ...down(w), size: w.size / u }));
  return latticeTables(layout.page, mergeRulings(layout.rulings.map(down)), words).map(({ table, box }) => ({
    box: up(box),
    table: table && { ...table, bbox: up(table.bbox), cells: table.cells.map((c) => ({ ...c, bbox: up(c.bbox) })) },
  }));
}

/** Figures' labels: at least this share of the table's box lies in figures (side by side charts count together). */
const FIGURE_SHARE = 0.5;
/** A ruled grid holding figures over this share of its box is a chart's frame and grid. */
const LATTICE_FIGURE_SHARE = 0.15;

/** A grid of figures is dense with text: words cover this share of its box or more (a chart's labels 0.03-0.09)… */
const GRID_INK = 0.1;
/** …in mostly full cells (this share), most of them numbers, and this many words at least. */
const GRID_FILL = 0.6;
const GRID_NUMERIC = 0.5;
const GRID_WORDS = 30;
/** Words covering this share of the box make it a table whatever they say (a form of words and figures covers about 0.17). */
const GRID_TEXT_INK = 0.15;

/**
 * A ruled table of figures the page image's figure finder took for a drawing (the double rules
 * of its frame left as strokes once the rules are erased): unlike a chart's
 * frame and grid, its cells are mostly filled, mostly with numbers, and its words cover a tenth
 * of its box or more; or its words alone cover well over what any chart's labels do.
 */
function figuresGrid(t: Table, words: Word[]): boolean {
  const { ws, ink, full, numbers } = textOf(t, words);
  if (ws.length < GRID_WORDS) return false;
  if (ink >= GRID_TEXT_INK) return true;
  return ink >= GRID_INK && full >= GRID_FILL * t.cells.length && numbers >= GRID_NUMERIC * full;
}

/** The words inside a table's box, the share of the box they cover, its filled cells and how many are numbers. */
function textOf(t: Table, words: Word[]): { ws: Word[]; ink: number; full: number; numbers: number } {
  const b = t.bbox;
  const area = (b[2] - b[0]) * (b[3] - b[1]);
  const ws = words.filter((w) => inside(w, b));
  const ink = area > 0 ? ws.reduce((s, w) => s + (w.x1 - w.x0) * (w.y1 - w.y0), 0) / area : 0;
  const full = t.cells.filter((c) => c.text.trim() !== '');
  return { ws, ink, full: full.length, numbers: full.filter((c) => isNumberCell(c.text)).length };
}

/** Marks read as text: words cover under this share of the box (a chart's labels 0.01-0.09)… */
const MARKS_INK = 0.1;
/** …this share of them or more read unsure (tick marks and curves read as `I`, `Wl`, `toon`)… */
const MARKS_UNSURE = 0.2;
/** …and at most this share of the filled cells are numbers. */
const MARKS_NUMERIC = 0.2;
/** An OCR'd word read below this confidence is unsure. */
const UNSURE = 0.6;

/**
 * A chart whose frames and grid the figure finder did not see (flat curves erased as rules,
 * hatched bars): its panel titles and the marks OCR read as words (`I`, `Wl`, `si i ls`) stand
 * sparse in a large box, many read unsure, with hardly a number among them. A table's words are
 * read surely (a page of Chinese read by the English model is unsure but dense), or are figures.
 */
function chartMarks(t: Table, words: Word[]): boolean {
  const { ws, ink, full, numbers } = textOf(t, words);
  const read = ws.filter((w) => w.confidence !== null);
  if (read.length === 0) return false;
  const unsure = read.filter((w) => w.confidence! < UNSURE).length;
  return ink < MARKS_INK && unsure >= MARKS_UNSURE * read.length && numbers <= MARKS_NUMERIC * full;
}

/** Two frames side by side: their facing sides stand this close (× font size) or closer. */
const FRAMES_GAP_EM = 2;
/** The lines of a double rule lie this close (points) or closer. */
const DOUBLE_RULE_PT = 4;
/** Vertical rules this close (points) are one side of a column of frames… */
const SIDE_PT = 1.5;
/** …which runs down this share of the table's height or more (boxes stacked a few points apart). */
const SIDE_SHARE = 0.85;

/**
 * A whitespace "table" running across two framed boxes side by side (two charts with their
 * titles and legends; an invoice's seller and buyer boxes, stacked in two columns): the facing
 * sides of the frames, two vertical rules close together, run down its height, whole or in the
 * pieces of boxes stacked a few points apart. A table's own rule after its labels is one rule;
 * a double rule between a table's columns is a rule's width apart, not a gutter.
 */
function besideFrames(t: Table, layout: PageLayout): boolean {
  const b = t.bbox, h = b[3] - b[1];
  const u = layout.unitsPerPoint ?? 1;
  const size = median(layout.words.filter((w) => inside(w, b)).map((w) => w.size));
  const inner = layout.rulings.filter((r) => r.x0 === r.x1 && r.x0 > b[0] + size && r.x0 < b[2] - size && r.y1 > b[1] && r.y0 < b[3]).sort((p, q) => p.x0 - q.x0);
  // The vertical rules grouped by where they stand across, each group with the share of the
  // table's height its pieces cover.
  const sides: { x: number; cover: number }[] = [];
  for (let i = 0; i < inner.length; ) {
    let j = i;
    while (j + 1 < inner.length && inner[j + 1].x0 - inner[j].x0 <= SIDE_PT * u) j++;
    const spans = inner.slice(i, j + 1).map((r) => [Math.max(r.y0, b[1]), Math.min(r.y1, b[3])]).sort((p, q) => p[0] - q[0]);
    let covered = 0, end = b[1];
    for (const [y0, y1] of spans) {
      if (y1 > end) covered += y1 - Math.max(y0, end);
      end = Math.max(end, y1);
    }
    sides.push({ x: (inner[i].x0 + inner[j].x0) / 2, cover: h > 0 ? covered / h : 0 });
    i = j + 1;
  }
  const through = sides.filter((s) => s.cover >= SIDE_SHARE);
  const apart = (p: { x: number }, q: { x: number }) => q.x - p.x > DOUBLE_RULE_PT * u && q.x - p.x <= FRAMES_GAP_EM * size;
  return through.some((p) => through.some((q) => apart(p, q)));
}

function inFigure(b: BBox, figures: BBox[] | undefined, share = FIGURE_SHARE): boolean {
  const area = (b[2] - b[0]) * (b[3] - b[1]);
  let covered = 0;
  for (const f of figures ?? []) {
    const w = Math.min(b[2], f[2]) - Math.max(b[0], f[0]);
    const h = Math.min(b[3], f[3]) - Math.max(b[1], f[1]);
    if (w > 0 && h > 0) covered += w * h;
  }
  return area > 0 && covered >= share * area;
}

/**
 * Tables that are a chart's text, not a table: the labels inside a chart's ruled frame and grid,
 * the marks OCR reads in a chart's curves and bars, and a whitespace "table" running across two
 * framed boxes side by side. A ruled grid and a stream table are told from them differently.
 */
import { UNSURE_WORD, type BBox, type PageLayout, type Table, type Word } from '../../types.js';
import { inside, median } from '../../geometry.js';
import { isNumberCell } from '../grid.js';

/**
 * A ruled grid that is a chart's frame: it lies in figures (over LATTICE_FIGURE_SHARE of its box)
 * and is no grid of figures, or it holds a chart's marks read as text.
 */
export function chartFrame(t: Table, layout: PageLayout): boolean {
  return (inFigure(t.bbox, layout.figures, LATTICE_FIGURE_SHARE) && !figuresGrid(t, layout.words)) || chartMarks(t, layout.words);
}

/** A stream table that is a chart's labels: it lies in figures, holds a chart's marks, or runs across two frames side by side. */
export function chartLabels(t: Table, layout: PageLayout): boolean {
  return inFigure(t.bbox, layout.figures) || chartMarks(t, layout.words) || besideFrames(t, layout);
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
  const unsure = read.filter((w) => w.confidence! < UNSURE_WORD).length;
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

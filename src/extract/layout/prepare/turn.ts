/**
 * Turned text (a landscape table on a portrait page, a page whose /Rotate leaves its text
 * reading downwards): the words of one rotation and the page's rulings are turned upright,
 * the ordinary layout runs on them, and the tables' boxes are turned back onto the page. Rows
 * and columns come out as the table reads, not transposed. OCR'd text set sideways on an
 * upright page, which OCR gives no rotation, is told by its tall boxes (`turnedReadings`).
 */
import { UNSURE_WORD, type BBox, type PageLayout, type Rotation, type Ruling, type Table, type Word } from '../../types.js';
import { hundredths, inside } from '../../geometry.js';

type Point = [number, number];

/** Maps a page point into the frame where text turned by `rot` reads upright, and back. */
function maps(rot: Rotation, width: number, height: number): { up: (p: Point) => Point; back: (p: Point) => Point } {
  switch (rot) {
    case 90: return { up: ([x, y]) => [y, width - x], back: ([u, v]) => [width - v, u] };
    case 270: return { up: ([x, y]) => [height - y, x], back: ([u, v]) => [v, height - u] };
    case 180: return { up: ([x, y]) => [width - x, height - y], back: ([u, v]) => [width - u, height - v] };
    default: return { up: (p) => p, back: (p) => p };
  }
}

function box(f: (p: Point) => Point, b: BBox): BBox {
  const [a, c] = [f([b[0], b[1]]), f([b[2], b[3]])];
  return [Math.min(a[0], c[0]), Math.min(a[1], c[1]), Math.max(a[0], c[0]), Math.max(a[1], c[1])];
}

/** The page as text turned by `rot` sees it upright: its `words` and every ruling, turned. */
export function turnUpright(layout: PageLayout, words: Word[], rot: Rotation): PageLayout {
  const { up } = maps(rot, layout.width, layout.height);
  const quarter = rot === 90 || rot === 270;
  return {
    page: layout.page,
    width: quarter ? layout.height : layout.width,
    height: quarter ? layout.width : layout.height,
    words: words.map((w) => {
      const [x0, y0, x1, y1] = box(up, [w.x0, w.y0, w.x1, w.y1]);
      return { ...w, x0, y0, x1, y1, rotation: 0 };
    }),
    rulings: layout.rulings.map((r): Ruling => {
      const [a, b] = [up([r.x0, r.y0]), up([r.x1, r.y1])];
      return { x0: a[0], y0: a[1], x1: b[0], y1: b[1] };
    }),
  };
}

/** A table found in the upright frame of `rot`, with its boxes back in page coordinates. */
export function turnBack(t: Table, layout: PageLayout, rot: Rotation): Table {
  const { back } = maps(rot, layout.width, layout.height);
  const onPage = (b: BBox) => box(back, b).map(hundredths) as BBox;
  return { ...t, bbox: onPage(t.bbox), cells: t.cells.map((c) => ({ ...c, bbox: onPage(c.bbox) })) };
}

/** An OCR word taller than wide is turned text; a text layer says its words' rotation (and narrow boxes are only estimates). */
export const rotated = (w: Word) => w.confidence !== null && w.text.length >= 2 && w.y1 - w.y0 > 1.5 * (w.x1 - w.x0);

/** Fewer words than this turned one way are labels (an axis title), not a table. */
export const MIN_TURNED_WORDS = 6;

/**
 * An OCR line's box height over the em a text layer gives (the raster path's own estimate of
 * font size, `size`, is that box times 1.15); a turned word's line runs across the page, so its
 * em is read from its width.
 */
const EM_PER_LINE_BOX = 1.15;
/**
 * A table of OCR'd turned words has this many rows or more: a chart's bar labels, printed
 * turned with their values, read as two.
 */
export const MIN_TURNED_ROWS = 3;
/** A short word of a turned line is no wider than this many times the line's tall words. */
const LINE_WIDTH = 1.25;

/**
 * OCR'd text set turned on an upright page (a landscape table printed sideways): OCR reads
 * such a block's words along their lines and gives them boxes taller than wide, with no
 * rotation. The tall words read surely (not below `UNSURE_WORD`) with two letters or digits
 * together (hatching read as "++" is no word) outside the upright tables, and the short ones on their
 * lines (a "B", a "de": no wider than such a line), are that text; which way it reads is told
 * by the order OCR gives the words of one line in (down the page: turned 90°, up it: 270°),
 * and each word's em by its width.
 */
export function turnedReadings(words: Word[], upright: Table[]): { rot: Rotation; words: Word[] } | null {
  const free = words.filter((w) => w.confidence !== null && !upright.some((t) => inside(w, t.bbox)));
  const tall = free.filter((w) => rotated(w) && w.confidence! >= UNSURE_WORD && /[\p{L}\p{N}]{2}/u.test(w.text));
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

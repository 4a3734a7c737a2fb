/**
 * Turned text (a landscape table on a portrait page, a page whose /Rotate leaves its text
 * reading downwards): the words of one rotation and the page's rulings are turned upright,
 * the ordinary layout runs on them, and the tables' boxes are turned back onto the page. Rows
 * and columns come out as the table reads, not transposed.
 */
import type { BBox, PageLayout, Rotation, Ruling, Table, Word } from '../../types.js';
import { hundredths } from '../../geometry.js';

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

/**
 * Draws a table from a spec onto a pdf-lib page, and says which grid of cell texts it holds:
 * shared by the layout fixtures (scripts/make-layout-fixtures.ts) and the synthetic table set
 * (scripts/make-synthetic.ts). The table is laid out in its own frame (x along the text, y down
 * the rows, origin top-left) and mapped onto the page turned by `turn`, so one spec gives the
 * upright table and the same table set landscape on a portrait page.
 */
import { degrees, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/** A header cell: text (lines split on \n) over `span` columns. */
export interface HeaderCell { text: string; span?: number }

export interface TableSpec {
  /** Header rows, top to bottom; each row's spans add up to the column count. */
  header: HeaderCell[][];
  body: string[][];
  align: ('l' | 'r')[];
  size: number;
  /** White space between columns (page units). */
  gap: number;
  /** Row pitch (× size). */
  pitch?: number;
  /** `grid`: every cell ruled; `frame`: the outer box only; `hrules`: top, under the header and bottom; `rows`: a rule under every row and one column rule, no frame. */
  rules: 'grid' | 'frame' | 'hrules' | 'rows' | 'none';
  /** A blank row's space after every N body rows. */
  blankEvery?: number;
  /** Dot leaders from the first column's text up to the next column. */
  leaders?: boolean;
  /** Every glyph drawn twice, this far apart (fake bold). */
  doubleDraw?: number;
  /** Text direction on the page: 0 upright, 90 reading upwards, -90 reading downwards. */
  turn?: 0 | 90 | -90;
}

/** The grid the table holds: spanned positions repeat the text, header lines join with spaces. */
export function expectedGrid(t: TableSpec): string[][] {
  const head = t.header.map((row) => row.flatMap((c) => Array<string>(c.span ?? 1).fill(c.text.replace(/\n/g, ' '))));
  return [...head, ...t.body];
}

function textWidth(font: PDFFont, s: string, size: number): number {
  return Math.max(0, ...s.split('\n').map((l) => font.widthOfTextAtSize(l, size)));
}

/** Column widths: the widest body text, widened where a header cell needs more. */
function columnWidths(t: TableSpec, font: PDFFont): number[] {
  const n = t.align.length;
  const w = Array.from({ length: n }, (_, c) => Math.max(0, ...t.body.map((r) => textWidth(font, r[c] ?? '', t.size))));
  if (t.leaders) w[0] += 6 * t.size;
  for (const row of t.header) {
    let c = 0;
    for (const cell of row) {
      const span = cell.span ?? 1;
      const need = textWidth(font, cell.text, t.size) - (span - 1) * t.gap;
      const have = w.slice(c, c + span).reduce((a, b) => a + b, 0);
      if (need > have) for (let k = c; k < c + span; k++) w[k] += (need - have) / span;
      c += span;
    }
  }
  return w;
}

interface Plan {
  /** Text to draw: its left end on the baseline, in frame coordinates. */
  texts: { s: string; x: number; y: number }[];
  lines: [number, number, number, number][];
  width: number;
  height: number;
}

/** Where every string and rule of `t` goes, in its own frame (x along the text, y down the rows). */
function plan(font: PDFFont, t: TableSpec): Plan {
  const texts: Plan['texts'] = [];
  const lines: Plan['lines'] = [];
  const widths = columnWidths(t, font);
  const edges = [0];
  for (const w of widths) edges.push(edges[edges.length - 1] + w + t.gap);
  const pad = t.rules === 'grid' || t.rules === 'rows' ? t.gap / 2 : 0;
  // Inner rules run down the middle of the gaps.
  const colX = edges.map((e) => e - t.gap / 2 + pad);
  const pitch = (t.pitch ?? 1.5) * t.size;
  const put = (s: string, x: number, yTop: number) => {
    if (s) texts.push({ s, x, y: yTop + 0.8 * t.size });
  };
  const cellText = (s: string, c0: number, c1: number, y: number, align: 'l' | 'r' | 'c') => {
    s.split('\n').forEach((l, i) => {
      const w = font.widthOfTextAtSize(l, t.size);
      const left = edges[c0] + pad, right = edges[c1 + 1] - t.gap + pad;
      const x = align === 'l' ? left : align === 'r' ? right - w : (left + right - w) / 2;
      put(l, x, y + i * t.size * 1.15);
    });
  };
  const right = edges[edges.length - 1] - t.gap + 2 * pad;
  let y = pad;
  const rowTops: number[] = [];
  for (const row of t.header) {
    rowTops.push(y - pad);
    let c = 0, n = 1;
    for (const cell of row) {
      const span = cell.span ?? 1;
      cellText(cell.text, c, c + span - 1, y, span > 1 ? 'c' : t.align[c]);
      n = Math.max(n, cell.text.split('\n').length);
      c += span;
    }
    y += pitch + (n - 1) * t.size * 1.15 + 2 * pad;
  }
  const headerBottom = y - pad - 0.3 * t.size;
  t.body.forEach((row, r) => {
    if (t.blankEvery && r > 0 && r % t.blankEvery === 0) y += pitch;
    rowTops.push(y - pad);
    row.forEach((s, c) => {
      if (c === 0 && t.leaders && s) {
        put(s, edges[0] + pad, y);
        const from = font.widthOfTextAtSize(s, t.size) + 0.3 * t.size;
        const dot = font.widthOfTextAtSize('.', t.size);
        const n = Math.floor((edges[1] - t.gap / 3 - from) / dot);
        if (n > 2) put('.'.repeat(n), edges[0] + pad + from, y);
      } else cellText(s, c, c, y, t.align[c]);
    });
    y += pitch + 2 * pad;
  });
  const bottom = y - pad - (pitch - 1.1 * t.size) / 2;
  rowTops.push(bottom);
  const topY = -0.3 * t.size;
  const line = (xa: number, ya: number, xb: number, yb: number) => lines.push([xa, ya, xb, yb]);
  if (t.rules === 'grid') {
    for (const ry of [topY, ...rowTops.slice(1)]) line(0, ry, right, ry);
    for (const cx of [0, ...colX.slice(1, -1), right]) line(cx, topY, cx, bottom);
  } else if (t.rules === 'frame') {
    const m = t.size;
    line(-m, topY - m, right + m, topY - m); line(-m, bottom + m, right + m, bottom + m);
    line(-m, topY - m, -m, bottom + m); line(right + m, topY - m, right + m, bottom + m);
  } else if (t.rules === 'hrules') {
    for (const ry of [topY, headerBottom, bottom]) line(0, ry, right, ry);
  } else if (t.rules === 'rows') {
    for (const ry of [topY, ...rowTops.slice(1)]) line(0, ry, right, ry);
    line(colX[1], topY, colX[1], bottom);
  }
  return { texts, lines, width: right, height: bottom };
}

/** The table's extent in its frame: along the text and down the rows. */
export function measureTable(font: PDFFont, t: TableSpec): { width: number; height: number } {
  const { width, height } = plan(font, t);
  return { width, height };
}

/**
 * Draws `t` with its frame's top-left corner at (x0, top) in top-left page coordinates; the
 * frame is turned by `t.turn`. Returns the frame's extent.
 */
export function drawTable(page: PDFPage, font: PDFFont, t: TableSpec, x0: number, top: number): { width: number; height: number } {
  const H = page.getHeight();
  const turn = t.turn ?? 0;
  // Frame point (x, y) to PDF user space (y up).
  const map = (x: number, y: number): [number, number] =>
    turn === 0 ? [x0 + x, H - top - y] : turn === 90 ? [x0 + y, H - top + x] : [x0 - y, H - top - x];
  const p = plan(font, t);
  const draw = (s: string, x: number, y: number) => {
    const [px, py] = map(x, y);
    page.drawText(s, { x: px, y: py, size: t.size, font, rotate: degrees(turn), color: rgb(0, 0, 0) });
  };
  for (const { s, x, y } of p.texts) {
    if (!t.doubleDraw) { draw(s, x, y); continue; }
    // Glyph by glyph, each twice: what producers that fake bold emit.
    let cx = x;
    for (const ch of s) {
      draw(ch, cx, y);
      draw(ch, cx + t.doubleDraw, y);
      cx += font.widthOfTextAtSize(ch, t.size);
    }
  }
  for (const [xa, ya, xb, yb] of p.lines) {
    const [ax, ay] = map(xa, ya), [bx, by] = map(xb, yb);
    page.drawLine({ start: { x: ax, y: ay }, end: { x: bx, y: by }, thickness: 0.5 });
  }
  return { width: p.width, height: p.height };
}

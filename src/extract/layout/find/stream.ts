/**
 * Stream tables: tables drawn with whitespace. A block of lines (blocks.ts) gets columns from
 * its gutters (columns.ts); each line is a row, its chunks go to the columns they overlap (a
 * chunk over several columns spans them unless a word gap falls in the gutter); a heading line
 * across the columns is a row of one cell; continuation lines are folded into the row above;
 * blocks that read as prose or lists are refused.
 */
import type { Table, Word } from '../../types.js';
import { buildTable, hasContent, isFigure, isMark, isNumberCell, isUnit, type PlacedCell } from '../grid.js';
import { goesOnFrom, type TextLine } from '../prepare/lines.js';
import { median } from '../../geometry.js';
import { findColumns, type Columns } from './columns.js';
import { parseNumber } from '../../locale/numbers.js';

/** Cells averaging more words than this are prose in columns (a two-column page), not a table. */
const MAX_WORDS_PER_CELL = 7;

/** A gap this wide (× font size) is more than a word space. */
const PHRASE_SPACE_EM = 0.4;

interface RowCell { col: number; span: number; words: Word[] }
/**
 * `base`: the baseline of its last line; `heading`: one phrase across the columns (a section
 * heading or a header group), a row of its own.
 */
interface Row { cells: RowCell[]; y0: number; y1: number; base: number; size: number; heading?: boolean }

/**
 * A line's baseline: the lower quartile of its words' bottoms. Descenders, and the boxes OCR
 * draws too tall around some words ("Name/Drug" 15 px high among words of 9 px), reach below it;
 * dashes and marks, which end above it, do not count.
 */
function baseline(words: Word[]): number {
  const own = words.filter((w) => hasContent(w.text));
  const ys = (own.length ? own : words).map((w) => w.y1).sort((a, b) => a - b);
  return ys[Math.floor((ys.length - 1) / 4)];
}

function overlapCols(cols: Columns, x0: number, x1: number): number[] {
  const out: number[] = [];
  cols.forEach(([a, b], i) => { if (Math.min(b, x1) - Math.max(a, x0) > 0) out.push(i); });
  if (out.length === 0) {
    // Entirely inside a gutter: the nearest column takes it.
    const mid = (x0 + x1) / 2;
    let best = 0, d = Infinity;
    cols.forEach(([a, b], i) => { const e = Math.min(Math.abs(mid - a), Math.abs(mid - b)); if (e < d) { d = e; best = i; } });
    out.push(best);
  }
  return out;
}

/** Cells of one line: chunks split where a word gap falls in a gutter, then placed by overlap. */
function rowOf(line: TextLine, cols: Columns): Row {
  const cells: RowCell[] = [];
  for (const chunk of line.chunks) {
    // Split the chunk at word gaps whose middle lies between two columns; in a chunk no word of
    // which crosses a gutter (numbers set closer than a column gap), at every gap that meets one.
    const gutters = cols.slice(1).map(([a], c) => [cols[c][1], a] as const);
    const crosses = chunk.words.some((w) => gutters.some(([g0, g1]) => w.x0 < g0 && w.x1 > g1));
    const parts: Word[][] = [[]];
    chunk.words.forEach((w, i) => {
      const prev = chunk.words[i - 1];
      if (prev) {
        const mid = (prev.x1 + w.x0) / 2;
        // A phrase spanning columns ("Population 2020" over three) keeps its word spaces (~0.28 em).
        const between = crosses
          ? w.x0 - prev.x1 > PHRASE_SPACE_EM * Math.max(w.size, prev.size) && gutters.some(([g0, g1]) => mid >= g0 - 0.5 && mid <= g1 + 0.5)
          : gutters.some(([g0, g1]) => prev.x1 <= g1 + 0.5 && w.x0 >= g0 - 0.5);
        if (between) parts.push([]);
      }
      parts[parts.length - 1].push(w);
    });
    for (const ws of parts) {
      const x0 = Math.min(...ws.map((w) => w.x0)), x1 = Math.max(...ws.map((w) => w.x1));
      const over = overlapCols(cols, x0, x1);
      const col = over[0], span = over[over.length - 1] - col + 1;
      const same = cells.find((c) => c.col === col && c.span === span);
      if (same) same.words.push(...ws);
      else cells.push({ col, span, words: ws });
    }
  }
  return { cells, y0: line.y0, y1: line.y1, base: baseline(line.words), size: line.size };
}

/** A heading line: one cell over the columns it covers. */
function headingRow(line: TextLine, cols: Columns): Row {
  const over = overlapCols(cols, line.x0, line.x1);
  return { cells: [{ col: over[0], span: over[over.length - 1] - over[0] + 1, words: line.words }], y0: line.y0, y1: line.y1, base: baseline(line.words), size: line.size, heading: true };
}

const textOf = (c: RowCell) => c.words.map((w) => w.text).join(' ');

/** Columns where most filled single-column cells read as numbers. */
function numericColumns(rows: Row[], nCols: number): Set<number> {
  const out = new Set<number>();
  for (let c = 0; c < nCols; c++) {
    const texts = rows.flatMap((r) => r.cells.filter((x) => x.col === c && x.span === 1).map(textOf));
    if (texts.length >= 2 && texts.filter(isNumberCell).length >= 0.6 * texts.length) out.add(c);
  }
  return out;
}

/** Rows set apart by gaps this much wider (× font size) than the tightest line spacing are rows of several lines. */
const ROW_GAP_EM = 0.6;
/** Lines this close (× font size over the tightest spacing) are lines of one row when rows stand apart. */
const LINE_GAP_EM = 0.25;

/** Adds a line's cell to a row: into the cell it continues, or merged with every cell it overlaps. */
function addCell(row: Row, c: RowCell): void {
  const same = row.cells.find((p) => p.col === c.col && p.span === c.span);
  if (same) { same.words.push(...c.words); return; }
  let a = c.col, b = c.col + c.span - 1;
  const words = [...c.words];
  for (let again = true; again; ) {
    again = false;
    for (const p of row.cells) {
      if (p.col > b || p.col + p.span - 1 < a) continue;
      a = Math.min(a, p.col); b = Math.max(b, p.col + p.span - 1);
      words.push(...p.words);
      row.cells.splice(row.cells.indexOf(p), 1);
      again = true;
      break;
    }
  }
  row.cells.push({ col: a, span: b - a + 1, words });
  row.cells.sort((x, y) => x.col - y.col);
}

/** A row takes the line folded into it: its box grows, its baseline is the line's. */
function extend(row: Row, line: Row): void {
  row.y1 = Math.max(row.y1, line.y1);
  row.base = line.base;
}

/** A line of units or marks under the header ("$m  $m  $m", "N=29  N=29") is a row of its own. */
const units = (row: Row) => row.cells.every((c) => isUnit(textOf(c)) || isMark(textOf(c)));

/** A wrapped label's next line goes on from it: in lower case ("properties sold") or a bracketed unit ("(million sqm)", not "(a)"). */
const GOES_ON = /^(\p{Ll}|\((?![\p{L}\d]{1,3}\))\p{L})/u;

/**
 * A label of two lines set with its figures on its last line: a line of one label cell, outside
 * the figure columns, whose next line (at line spacing) goes on in the same cell and holds
 * figures. Such a line is that row's first, not a continuation of the row above. A label ending
 * in a colon introduces the rows under it.
 */
function labelOver(row: Row, next: Row | undefined, numeric: Set<number>, typical: number): boolean {
  if (!next || row.heading || next.heading || row.cells.length !== 1 || numeric.size === 0) return false;
  const label = row.cells[0], text = textOf(label).trim();
  if (numeric.has(label.col) || isNumberCell(text) || /\d/.test(text.slice(-1)) || /:$/.test(text)) return false;
  const gap = next.y0 - row.y1;
  if (gap > typical + 0.2 * row.size || gap < -0.1 * row.size) return false;
  const own = next.cells.find((c) => c.col === label.col && c.span === label.span);
  return own !== undefined && GOES_ON.test(textOf(own).trim()) && next.cells.some((c) => c !== own && numeric.has(c.col) && isNumberCell(textOf(c)));
}

/** A figure with a dash after it ("USD0.87 -", "2.1% –"): a range broken after its dash. */
const OPEN_RANGE = /\d%?\s?[-–—]$/u;

/**
 * A line of ranges' second ends ("USD0.87 -" over "USD1.52"): every cell of the line goes on
 * from a cell of the row above, and half of those (OCR drops some dashes) end in a figure and a
 * dash. A range does not end at its dash, so the line is part of that row.
 */
function rangeGoesOn(prev: Row, row: Row, typical: number): boolean {
  if (row.cells.length === 0 || row.y0 - prev.y1 > typical + 0.5 * row.size) return false;
  const above = row.cells.map((c) => prev.cells.find((p) => p.col === c.col && p.span === c.span));
  if (above.some((p) => p === undefined)) return false;
  return above.filter((p) => OPEN_RANGE.test(textOf(p!).trim())).length >= Math.max(1, row.cells.length / 2);
}

/**
 * A line of wrapped cells' second lines ("lymphoma" under "Solid tumors and", "inhibitor)" under
 * "Combo (with a PARP"): each of its cells goes on in the column and span of a cell of the row
 * above, reads no figure, and goes on a phrase (starts in lower case, or the cell above breaks
 * off mid-phrase); set at the block's usual spacing or closer. A label ending in a colon
 * introduces the rows under it.
 */
function wrapsOn(prev: Row, row: Row, typical: number): boolean {
  if (row.heading || prev.heading || row.cells.length === 0 || row.y0 - prev.y1 > typical + 0.2 * row.size) return false;
  return row.cells.every((c) => {
    const above = prev.cells.find((p) => p.col === c.col && p.span === c.span);
    if (!above) return false;
    const text = textOf(c).trim(), over = textOf(above).trim();
    if (isFigure(text) || isFigure(over) || /:$/.test(text)) return false;
    return goesOnFrom(over, text);
  });
}

/**
 * Folds continuation lines into the row above: a line with nothing in the numeric columns whose
 * cells continue cells of the row above (same column and span), set no further apart than the
 * block's usual line spacing. In a table whose rows stand apart (two gaps or more wider than
 * the tightest line spacing by ROW_GAP_EM, not beside a heading row), every line set at that
 * tight spacing belongs to the row above, cells of several lines and all (a four-line header is
 * one row), unless it holds only figures or stacks a figure under a figure. Beside figure
 * columns, a line must also continue a cell of the row above (a chart's labels do not), and a
 * line with figures does not join a row without any (the first row under its header). Above
 * figure columns, a header's lines set at that tight spacing are one row too (see `stacked`).
 * A line ending ranges broken after their dash joins their row (`rangeGoesOn`). A line of units
 * ("$m") joins no row, and a heading row takes no line and joins no row. Line
 * spacing is read between baselines (OCR's word boxes are uneven), the usual gap between boxes
 * only for the figure columns' own rules.
 */
function foldContinuations(rows: Row[], numeric: Set<number>, wraps = true): Row[] {
  // The space around a heading row is a section's, not a row's.
  const between = (gap: (a: Row, b: Row) => number) => rows.slice(1).flatMap((r, i) => (r.heading || rows[i].heading ? [] : [gap(rows[i], r)]));
  const boxGap = (a: Row, b: Row) => b.y0 - a.y1;
  const typical = median(between(boxGap));
  // Whether rows stand apart, and which lines are set tight, is read from the baselines' distance
  // less the block's usual line height: OCR draws some words' boxes a few pixels too tall, which
  // shrinks the space between boxes by as much as the space between lines of one cell.
  const height = median(rows.map((r) => r.y1 - r.y0));
  const lineGap = (a: Row, b: Row) => b.base - a.base - height;
  const gaps = between(lineGap);
  const size = median(rows.map((r) => r.size));
  const tight = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 4)] ?? 0;
  const apart = gaps.filter((g) => g > tight + ROW_GAP_EM * size).length >= 2;
  const copyRow = (r: Row): Row => ({ ...r, cells: r.cells.map((c) => ({ ...c, words: [...c.words] })) });
  const out: Row[] = [];
  let below: Row | null = null;
  rows.forEach((row, i) => {
    const prev = out[out.length - 1];
    if (row === below) {
      for (const c of row.cells) addCell(prev, c);
      extend(prev, row);
      return;
    }
    if (labelOver(row, rows[i + 1], numeric, typical)) {
      below = rows[i + 1];
      out.push(copyRow(row));
      return;
    }
    if (row.heading || prev?.heading) {
      out.push(copyRow(row));
      return;
    }
    if (prev && (rangeGoesOn(prev, row, typical) || (wraps && wrapsOn(prev, row, typical)))) {
      for (const c of row.cells) addCell(prev, c);
      extend(prev, row);
      return;
    }
    // A label ending in a colon ("Earnings per share:") introduces the rows under it.
    const introduces = row.cells.some((c) => /:$/.test(textOf(c).trim()));
    // Lines that overlap (a chart's labels between its ticks) are not lines of one cell.
    if (prev && !introduces && apart && lineGap(prev, row) <= tight + LINE_GAP_EM * size && lineGap(prev, row) > -0.1 * size) {
      // A line of figures only is a row (the first under the header), as is a figure under a
      // figure of the row above.
      const figure = (c: RowCell) => isFigure(textOf(c));
      const under = !row.cells.some((c) => figure(c) && prev.cells.some((p) => p.col === c.col && figure(p)));
      const header = numeric.size > 0 && row.cells.some(figure) && !prev.cells.some(figure);
      const continues = numeric.size === 0 || row.cells.some((c) => prev.cells.some((p) => p.col === c.col));
      if (!row.cells.every(figure) && !units(row) && under && !header && continues) {
        for (const c of row.cells) addCell(prev, c);
        extend(prev, row);
        return;
      }
    }
    if (prev && numeric.size > 0) {
      const gap = boxGap(prev, row);
      const noNumbers = row.cells.every((c) => !numeric.has(c.col) || c.span > 1) && row.cells.every((c) => !isNumberCell(textOf(c)));
      const continues = row.cells.every((c) => prev.cells.some((p) => p.col === c.col && p.span === c.span));
      // A header cell of two lines ("Amount / 2025") is set tighter than the rows below it: its
      // second line continues it even when it reads as a number.
      const headerLine = out.length === 1 && !prev.cells.some((c) => isNumberCell(textOf(c))) && gap < typical - 0.25 * row.size;
      if (continues && !introduces && (headerLine || (noNumbers && gap <= typical + 0.2 * row.size))) {
        for (const c of row.cells) prev.cells.find((p) => p.col === c.col && p.span === c.span)!.words.push(...c.words);
        extend(prev, row);
        return;
      }
      // The header's lines over the figure columns, set at line spacing, are one row of cells
      // of several lines ("Other / insurance / contract / liabilities" beside "Gross / …"), its
      // shorter cells starting lower down (bottom-aligned) and the stub's caption on its last
      // line: each cell of the line goes on from the cell above it or stands where the lines
      // above left the column empty. A line of headings under a header group, units ("$m" under
      // "Trading"), and a line set further apart are rows of their own.
      const goesOn = (c: RowCell) => {
        const over = prev.cells.filter((p) => p.col <= c.col + c.span - 1 && c.col <= p.col + p.span - 1);
        return over.length === 0 || (over.length === 1 && over[0].col === c.col && over[0].span === c.span);
      };
      const stacked = !prev.cells.some((c) => isNumberCell(textOf(c))) && !units(row) && row.cells.every((c) => !isNumberCell(textOf(c)) && goesOn(c));
      if (stacked && row.cells.some((c) => numeric.has(c.col)) && lineGap(prev, row) <= tight + LINE_GAP_EM * size && lineGap(prev, row) > -0.1 * size) {
        for (const c of row.cells) addCell(prev, c);
        extend(prev, row);
        return;
      }
    }
    out.push(copyRow(row));
  });
  return out;
}

/**
 * A chart's text (tick labels, legend, axis dates) aligns like a sparse table. Its signature: a
 * column of four or more evenly stepped numbers (axis ticks) in a grid less than 35% filled.
 */
function isChart(rows: Row[], nCols: number): boolean {
  const filled = rows.reduce((s, r) => s + r.cells.length, 0);
  if (filled >= 0.35 * rows.length * nCols) return false;
  for (let c = 0; c < nCols; c++) {
    const values = rows.flatMap((r) => r.cells.filter((x) => x.col === c && x.span === 1).map(textOf))
      .filter((t) => /^-?\d+([.,]\d+)?%?$/.test(t.trim())).map((t) => Number(t.replace('%', '').replace(',', '.')));
    if (values.length < 4) continue;
    // Four evenly stepped values in a row (side-by-side charts repeat their scales).
    const steps = values.slice(1).map((v, i) => v - values[i]);
    for (let i = 0; i + 2 < steps.length; i++) {
      if (steps[i] !== 0 && steps[i + 1] === steps[i] && steps[i + 2] === steps[i]) return true;
    }
  }
  return false;
}

/** An axis's tick labels: this many numbers or more, evenly stepped, on one line. */
const AXIS_TICKS = 4;

/** A line of numbers only, evenly stepped in value ("1 2 3 … 10", "0 10000 20000 30000"), not years: a chart's axis. */
function axisLine(row: Row): boolean {
  const words = row.cells.flatMap((c) => c.words).sort((a, b) => a.x0 - b.x0);
  if (words.length < AXIS_TICKS || !words.every((w) => /^-?\d+([.,]\d+)?%?$/.test(w.text))) return false;
  // `1,5` is one and a half on an axis of tenths; a tick is never grouped in thousands.
  const values = words.map((w) => parseNumber(w.text, /,\d{3}$/.test(w.text) ? 'dot' : 'comma')?.value ?? NaN);
  // Years ("2007 2006 2005 2004") head a table's columns more often than a chart's axis.
  if (values.every((v) => v >= 1900 && v <= 2100)) return false;
  const step = values[1] - values[0];
  return step !== 0 && values.every((v, i) => i === 0 || Math.abs(v - values[i - 1] - step) < 1e-9);
}

/**
 * A chart's axis with its title and legend under or over it: the one line of figures in the
 * block is a line of evenly stepped ticks, and nothing else reads as a figure. A table's header
 * of numbered columns ("1 2 3 … 10") has rows of figures under it.
 */
function axisOnly(rows: Row[]): boolean {
  const axes = rows.filter(axisLine);
  return axes.length === 1 && rows.every((r) => axes.includes(r) || !r.cells.some((c) => isNumberCell(textOf(c))));
}

/** A section number: "4", "8.6", "3.2.1." */
const SECTION_NUMBER = /^\d{1,2}(\.\d{1,2})*\.?$/;
/** Headings come a few at a time between paragraphs; a numbered table has more rows. */
const MAX_HEADING_ROWS = 3;

/**
 * Numbered headings ("8.6  Products" over "8.6.1  Washing powders") with the number set apart
 * from the title read as two columns; a numbered table has more rows, or figures beside.
 */
function numberedHeadings(rows: Row[], nCols: number): boolean {
  if (nCols !== 2 || rows.length > MAX_HEADING_ROWS) return false;
  return rows.every((r) => {
    const first = r.cells.find((c) => c.col === 0 && c.span === 1);
    const rest = r.cells.filter((c) => c !== first);
    return first !== undefined && SECTION_NUMBER.test(textOf(first)) && rest.length > 0 && rest.every((c) => !isNumberCell(textOf(c)));
  });
}

/** An equation's number at the right margin: "(5.1)", "(12)", "(A.3)", "(4b)". */
const EQUATION_NUMBER = /^\((\d{1,3}|[A-Z]?\d{1,2}(\.\d{1,2}){1,2})[a-z]?\)$/;
/** A relation between the sides of an equation. */
const RELATION = /[=<>≤≥≈≠]/;

/**
 * Displayed equations, one a line: each line of cells ends in its number at the right ("(5.1)",
 * "(5.2)") and relates its sides (=, <, ≤), which their symbols' gaps cut into cells (a line of
 * one cell is the text around them). A table's column of
 * numbers in brackets stands beside labels and figures, not relations.
 */
function displayEquations(rows: Row[]): boolean {
  const lines = rows.filter((r) => r.cells.length >= 2);
  return lines.length >= 2 && lines.every((r) => {
    const last = r.cells.reduce((a, c) => (c.col > a.col ? c : a));
    return EQUATION_NUMBER.test(textOf(last).trim()) && r.cells.some((c) => c !== last && RELATION.test(textOf(c)));
  });
}

/** This share of a block's cells reading as numbers makes it figures, not prose. */
const MOSTLY_FIGURES = 0.5;

/** Lists (a column of bullets, dashes or enumerators) and prose in columns are not tables. */
function looksLikeTable(rows: Row[], nCols: number): boolean {
  if (nCols < 2 || rows.length < 2) return false;
  const cells = rows.flatMap((r) => r.cells);
  const words = cells.reduce((s, c) => s + c.words.length, 0);
  if (words / cells.length > MAX_WORDS_PER_CELL) return false;
  const multi = rows.filter((r) => r.cells.length >= 2).length;
  if (multi < 2) return false;
  // Justified prose cut at its widest spaces: most pieces start in lower case, mid-sentence;
  // table cells start with a capital, a digit or a sign (0.4 sits between the two on real pages).
  // A block whose cells are mostly figures is a table whatever case its labels take ("age",
  // "weekly wage" beside columns of estimates): prose cut at its spaces leaves few figures.
  const texts = cells.map(textOf).filter((t) => /^\p{L}/u.test(t));
  const figures = cells.filter((c) => isNumberCell(textOf(c))).length;
  if (figures < MOSTLY_FIGURES * cells.length && texts.length >= 4 && texts.filter((t) => /^\p{Ll}/u.test(t)).length > 0.4 * texts.length) return false;
  if (isChart(rows, nCols) || displayEquations(rows)) return false;
  if (numberedHeadings(rows, nCols)) return false;
  return !isList(rows, nCols);
}

/** A column's lines average this many words or more… */
const PROSE_COLUMN_WORDS = 5;
/** …and this share of them (two at least) go on from the line above in lower case: a paragraph. */
const PROSE_COLUMN_GOES_ON = 0.4;

/**
 * A column of running prose: its lines are long and many start in lower case, going on from the
 * line above. A table's wrapped cells are folded into their rows; what is left of them seldom
 * starts mid-sentence.
 */
function runningProse(rows: Row[], c: number): boolean {
  const texts = rows.flatMap((r) => r.cells.filter((x) => x.col === c && x.span === 1).map((x) => textOf(x).trim()));
  if (texts.length < 4) return false;
  const words = texts.reduce((n, t) => n + t.split(/\s+/).length, 0);
  const lower = texts.filter((t) => /^\p{Ll}/u.test(t)).length;
  return words >= PROSE_COLUMN_WORDS * texts.length && lower >= 2 && lower >= PROSE_COLUMN_GOES_ON * texts.length;
}

/**
 * The rows without a column of running prose at either side: a paragraph set beside a table (a
 * contents list beside the text), or the English half of a page set in two languages side by
 * side, beside the other's paragraphs. The same rows when there is none.
 */
function withoutProseSides(rows: Row[], used: number[]): Row[] {
  const sides = [used[0], used[used.length - 1]].filter((c) => runningProse(rows, c));
  if (sides.length === 0) return rows;
  const kept = (c: RowCell) => !sides.some((s) => c.col <= s && s < c.col + c.span);
  return rows.map((r) => ({ ...r, cells: r.cells.filter(kept) })).filter((r) => r.cells.length > 0);
}

/** A list's marks: bullets and dashes… */
const BULLET = /^[•·▪◦‣●○■□\-–—*>]$/u;
/** …what OCR reads a bullet as, in a list of marks and text… */
const READ_BULLET = /^([+»«®©°¢◆◇►▶➢✓✔❖~]|o|e|eo)$/u;
/** …and enumerators ("1.", "(b)", "iii)") counting up from the first. */
const ENUMERATOR = /^\(?(\d{1,2}|[a-z]|[ivx]{1,4})[.)]$/;

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10 };
const romanValue = (k: string) => [...k].reduce((v, ch, i) => v + (ROMAN[ch] < (ROMAN[k[i + 1]] ?? 0) ? -ROMAN[ch] : ROMAN[ch]), 0);

/** Enumerators that count up by one from the first: 1, 2, 3; a, b, c; i, ii, iii (a list starting at "i" is roman). */
function countsUp(marks: string[]): boolean {
  const keys = marks.map((m) => ENUMERATOR.exec(m)?.[1] ?? '');
  if (keys.some((k) => k === '')) return false;
  const style = /^\d/.test(keys[0]) ? 'number' : keys[0] === 'i' ? 'roman' : 'letter';
  const value = (k: string) => (style === 'number' ? Number(k) : style === 'roman' ? (/^[ivx]+$/.test(k) ? romanValue(k) : NaN) : k.length === 1 ? k.charCodeAt(0) : NaN);
  return keys.every((k, i) => i === 0 || value(k) === value(keys[i - 1]) + 1);
}

/**
 * A bulleted or numbered list: a column of marks beside its items. Bullets and dashes make a list
 * however many columns follow; what OCR reads a bullet as (`+`, `»`, `®`, `o`) and enumerators
 * counting up do where the marks stand beside one column of text, no figures.
 */
function isList(rows: Row[], nCols: number): boolean {
  const first = rows.flatMap((r) => r.cells.filter((c) => c.col === 0 && c.span === 1).map((c) => textOf(c).trim()));
  if (first.length === 0) return false;
  if (first.every((t) => BULLET.test(t))) return true;
  const items = rows.flatMap((r) => r.cells.filter((c) => c.col !== 0).map(textOf));
  if (nCols !== 2 || first.length < 2 || items.some(isNumberCell)) return false;
  return first.every((t) => READ_BULLET.test(t)) || countsUp(first);
}

/**
 * Lines of one phrase across a gutter (a word over it) of the columns the block's rows of two
 * cells or more leave: section headings and header groups, each a row of one cell. `wide`: only
 * those across two gutters or half the block's width, which hide no gutter of the block. Only
 * when rows of cells make half the block or more.
 */
function headingLines(block: TextLine[], size: number, wide: boolean): TextLine[] {
  const rows = block.filter((l) => l.chunks.length >= 2);
  if (rows.length < 2 || rows.length < block.length / 2) return [];
  const cols = findColumns(rows, size, false);
  const gutters = cols.slice(1).map(([a], i) => [cols[i][1], a] as const);
  const x0 = Math.min(...block.map((l) => l.x0)), x1 = Math.max(...block.map((l) => l.x1));
  return block.filter((l) => {
    if (l.chunks.length !== 1) return false;
    // A phrase across a gutter has a word over it; a row of figures set closer than a word space
    // (one chunk) keeps its words to the columns.
    const crossed = gutters.filter(([g0, g1]) => l.x0 < g0 && l.x1 > g1 && l.words.some((w) => w.x0 < g1 && w.x1 > g0)).length;
    return crossed >= 1 && (!wide || crossed >= 2 || l.x1 - l.x0 >= 0.5 * (x1 - x0));
  });
}

/** A stream table from one block of lines, or null when the block is not a table. */
export function streamTable(page: number, block: TextLine[]): Table | null {
  const size = median(block.map((l) => l.size));
  // Headings across the columns (a section's title between its rows) hide no gutter.
  const wide = new Set(headingLines(block, size, true));
  const cols = findColumns(block.filter((l) => !wide.has(l)), size);
  const headings = new Set(headingLines(block, size, false));
  if (cols.length < 2) return null;
  const raw = block.map((l) => (headings.has(l) ? headingRow(l, cols) : rowOf(l, cols)));
  const numeric = numericColumns(raw, cols.length);
  // A chart's ticks are told from its line spacing before lines are folded into rows.
  if (isChart(raw, cols.length) || axisOnly(raw)) return null;
  const usedBy = (rs: Row[]) => [...new Set(rs.flatMap((r) => r.cells.flatMap((c) => Array.from({ length: c.span }, (_, k) => c.col + k))))].sort((a, b) => a - b);
  // Whether the block is a table is read before wrapped cells' lines are folded: prose, cut
  // at its spaces, starts its pieces in lower case, which are what that fold takes in.
  const folded = foldContinuations(raw, numeric, false);
  const plain = withoutProseSides(folded, usedBy(raw));
  // Beside running prose, text without figures is the page's other column of text (the other
  // language's paragraphs on a page set in two), not a table.
  if (plain !== folded && !usedBy(plain).some((c) => numeric.has(c))) return null;
  if (!looksLikeTable(plain, usedBy(plain).length)) return null;
  const rows = withoutProseSides(foldContinuations(raw, numeric), usedBy(raw));
  // Columns nobody uses (a gutter artefact) are dropped.
  const used = usedBy(rows);
  const remap = new Map(used.map((c, i) => [c, i]));
  const colEdges = [...used.map((c) => cols[c][0]), cols[used[used.length - 1]][1]];
  const rowEdges = [...rows.map((r) => r.y0), rows[rows.length - 1].y1];
  let header = rows.findIndex((r) => r.cells.some((c) => numeric.has(c.col) && c.span === 1 && isNumberCell(textOf(c))));
  if (header < 0) header = rows.length > 2 ? 1 : 0;
  header = Math.min(header, Math.floor(rows.length / 2));
  const placed: PlacedCell[] = [];
  rows.forEach((r, ri) => {
    for (const c of r.cells) {
      const col = remap.get(c.col)!;
      const last = remap.get(c.col + c.span - 1) ?? col;
      placed.push({ row: ri, col, row_span: 1, col_span: last - col + 1, words: c.words, area: [colEdges[col], r.y0, colEdges[last + 1], r.y1] });
    }
  });
  return buildTable(page, placed, colEdges, rowEdges, header);
}

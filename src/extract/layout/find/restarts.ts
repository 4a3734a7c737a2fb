/**
 * Where a table restarts: two tables set one under the other with only the second one's header
 * between them read as one block of lines. A header after rows of figures (a line of units, or
 * the block's own header read again) starts another table.
 */
import type { TextLine } from '../prepare/lines.js';
import { median } from '../../geometry.js';
import { isMark, isNumberCell, isUnit } from '../grid.js';
import { editDistance } from '../../edit-distance.js';

/** A repeated header line stands where the first one stood, give or take this (× font size). */
const EDGE_EM = 1;

/** A year heading a column ("2018"): header text, not a body figure. */
const YEAR = /^(19|20)\d\d$/;
/** A body figure: a number, amount or dash that no header holds. */
const bodyFigure = (text: string) => isNumberCell(text) && !YEAR.test(text.trim());
/**
 * A header line: no body figure, or more words than figures over the columns ("… | 1 | 2 | Year 3 |
 * Total"); a row's label cut in two or a misread figure ("Cl") is one word among its figures.
 */
function headerLine(l: TextLine): boolean {
  const figures = l.chunks.filter((c) => bodyFigure(c.text)).length;
  return figures === 0 || l.chunks.slice(1).filter((c) => /\p{L}{2}/u.test(c.text)).length > figures;
}
/** A line of a body row: two pieces or more, one of them a body figure. */
const bodyRow = (l: TextLine) => l.chunks.length >= 2 && l.chunks.some((c) => bodyFigure(c.text));
/** A line of units over the columns ("$m  $m  $m"; OCR reads "$m" as "sm" or "tm"), one a unit as written. */
const unitsLine = (l: TextLine) =>
  l.chunks.length >= 2 && l.chunks.every((c) => !/\d/.test(c.text) && (isUnit(c.text) || isMark(c.text))) && l.chunks.some((c) => isUnit(c.text));

/** Letters of a line, as OCR may read them a little differently each time. */
const letters = (l: TextLine) => l.words.map((w) => w.text).join('').toLowerCase().replace(/[^\p{L}]/gu, '');

/** Misread letters a header read again may differ by: this share of its letters. */
const REREAD_SHARE = 0.25;

/**
 * A line of the header read again: same place, nearly the same letters (the years may differ),
 * over the columns (a section's label in the stub, "Change in Jan 2018 to Dec 2018" under "… 2019
 * to … 2019", is a row of the table).
 */
function readAgain(l: TextLine, header: TextLine, size: number, figures: number): boolean {
  if (l.chunks.length < 2 && l.x0 < figures - EDGE_EM * size) return false;
  const a = letters(l), b = letters(header);
  return a.length >= 3 && Math.abs(l.x0 - header.x0) <= EDGE_EM * size && editDistance(a, b) <= REREAD_SHARE * Math.max(a.length, b.length);
}

/**
 * A block cut before each header that follows rows of figures: a line of units, or a line of the
 * block's own header read again, after two body rows or more starts another table, together with
 * the header lines right above it.
 */
export function atNewHeaders(block: TextLine[]): TextLine[][] {
  const out: TextLine[][] = [];
  const size = median(block.map((l) => l.size));
  let start = 0;
  for (let i = 1; i < block.length; i++) {
    const first = block.findIndex((l, k) => k >= start && bodyRow(l));
    if (first < 0 || first >= i || block.slice(start, i).filter(bodyRow).length < 2) continue;
    const header = block.slice(start, first);
    const l = block[i];
    if (!unitsLine(l) && (!headerLine(l) || !header.some((h) => readAgain(l, h, size, block[first].chunks[1].x0)))) continue;
    let top = i;
    while (top - 1 > start && headerLine(block[top - 1])) top--;
    out.push(block.slice(start, top));
    start = top;
  }
  out.push(block.slice(start));
  return out;
}

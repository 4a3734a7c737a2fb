/**
 * Cell text the recogniser got wrong that the table itself puts right: characters no table
 * prints in that place, read for the ones it does. Only OCR'd cells (with a confidence) change;
 * a text layer's cells keep their text.
 */
import type { Cell, Table } from '../../types.js';
import { isNumberCell } from '../grid.js';

/** The table with its OCR'd cells' misreads put right. */
export function withMisreadsRight(t: Table): Table {
  const cells = t.cells.map((c) => (c.confidence === null ? c : { ...c, text: bracesAsParentheses(c.text) }));
  zerosReadAsLetters(cells);
  return { ...t, cells };
}

/**
 * OCR reads a parenthesis as a brace (`Total {n)`, `{$ billions}`, `(2.9}`); braces are next to
 * never printed in tables, so each is the parenthesis, and a closing one doubling the one before
 * it with nothing left to close (`Unknown (%)}`) was one parenthesis read twice.
 */
function bracesAsParentheses(text: string): string {
  if (!/[{}]/.test(text)) return text;
  let open = 0, out = '';
  for (const ch of text.replace(/\{/g, '(').replace(/\}/g, ')')) {
    if (ch === '(') open++;
    if (ch === ')') {
      if (open === 0 && out.endsWith(')')) continue;
      open = Math.max(0, open - 1);
    }
    out += ch;
  }
  return out;
}

/** A lone zero the recogniser read as letters (`oO`, `O`): o's only, nothing else in the cell. */
const LETTER_ZERO = /^[oO]{1,3}$/;
/** A column of figures: this share of its other filled cells reads as numbers, and at least this many. */
const FIGURE_COLUMN = 0.8;
const FIGURE_COLUMN_MIN = 3;

/**
 * An OCR'd cell reading only o's (`oO`) in a column of figures is the zero its neighbours lead
 * one to expect: no label of a column of numbers is spelt with o's alone. Text-layer cells keep
 * their text.
 */
function zerosReadAsLetters(cells: Cell[]): void {
  const byCol = new Map<number, Cell[]>();
  for (const c of cells) if (c.col_span === 1 && c.text.trim() !== '') byCol.set(c.col, [...(byCol.get(c.col) ?? []), c]);
  for (const col of byCol.values()) {
    const zeros = col.filter((c) => c.confidence !== null && LETTER_ZERO.test(c.text.trim()));
    if (zeros.length === 0) continue;
    const others = col.filter((c) => !zeros.includes(c));
    const numbers = others.filter((c) => isNumberCell(c.text)).length;
    if (numbers < FIGURE_COLUMN_MIN || numbers < FIGURE_COLUMN * others.length) continue;
    for (const c of zeros) c.text = '0';
  }
}

/** Builds `Table`s and `PageLayout`s from rows of text, laid out on a 20-point grid, for the line-item tests. */
import type { PageLayout, Table, Word } from '../../../src/extract/types.js';

const ROW_H = 20;
const COL_W = 90;

/** A table whose row r, column c holds `rows[r][c]` (empty strings are left out, as a detector would). */
export function table(rows: string[][], opts: { page?: number; top?: number; headerRows?: number; pages?: number[] } = {}): Table {
  const page = opts.page ?? 1;
  const top = opts.top ?? 100;
  const nCols = Math.max(...rows.map((r) => r.length));
  const cells = rows.flatMap((r, ri) =>
    r.flatMap((text, ci) =>
      text
        ? [
            {
              row: ri,
              col: ci,
              row_span: 1,
              col_span: 1,
              text,
              bbox: [50 + ci * COL_W, top + ri * ROW_H, 50 + (ci + 1) * COL_W, top + (ri + 1) * ROW_H] as [number, number, number, number],
              confidence: null,
            },
          ]
        : [],
    ),
  );
  return {
    page,
    pages: opts.pages ?? [page],
    bbox: [50, top, 50 + nCols * COL_W, top + rows.length * ROW_H],
    n_rows: rows.length,
    n_cols: nCols,
    header_rows: opts.headerRows ?? 1,
    cells,
  };
}

/** A page whose lines (top to bottom from `top`) are given as words. */
export function page(lines: string[][], opts: { page?: number; top?: number } = {}): PageLayout {
  const top = opts.top ?? 400;
  const words: Word[] = lines.flatMap((line, li) =>
    line.map((text, wi) => ({ text, x0: 300 + wi * 60, y0: top + li * ROW_H, x1: 350 + wi * 60, y1: top + li * ROW_H + 10, size: 10, confidence: null })),
  );
  return { page: opts.page ?? 1, width: 595, height: 842, words, rulings: [] };
}

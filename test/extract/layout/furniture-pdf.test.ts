/**
 * Page furniture on a real document: a three-page report drawn with pdf-lib (report-pdf.ts), read
 * from its text layer and from its pages rendered at 150 dpi (poppler's pdftoppm) and OCR'd. Its
 * running header and footer, two lines each with a text at both ends, are 2×2 tables of their own
 * on every page unless they are seen to repeat.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLayouts } from '../../../src/extract/index.js';
import { detectTables, documentTables } from '../../../src/extract/layout/index.js';
import { DEFAULT_EXTRACT_OPTIONS, type PageLayout, type Table } from '../../../src/extract/types.js';
import { grid, layouts } from './helpers.js';
import { reportPdf, sampleReport } from './report-pdf.js';

/** The pages of `pdf` rendered at `dpi` and read as the pages of one image document. */
async function rendered(pdf: Uint8Array, dpi: number): Promise<PageLayout[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tablemill-furniture-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), pdf);
    expect(spawnSync('pdftoppm', ['-r', String(dpi), '-png', join(dir, 'report.pdf'), join(dir, 'page')]).status).toBe(0);
    const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).sort();
    const out: PageLayout[] = [];
    for (const [i, f] of pages.entries()) {
      for (const l of await readLayouts(new Uint8Array(readFileSync(join(dir, f))), DEFAULT_EXTRACT_OPTIONS)) out.push({ ...l, page: i + 1 });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const FURNITURE = /Yearbook|Chapter|Part I|Edition|Office|Page \d|statistics\.example|ISSN/;

/** The report's tables: one a page, its body's, no furniture in any cell. */
function onlyBodyTables(tables: Table[], pageCount = 3): void {
  expect(tables.map((t) => t.pages)).toEqual(Array.from({ length: pageCount }, (_, i) => [i + 1]));
  tables.forEach((t, i) => {
    const rows = grid(t);
    expect(rows[0]).toEqual(['Region', String(2020 + i), String(2021 + i), 'Change %']);
    expect(rows.map((r) => r[0])).toEqual(['Region', 'North', 'East', 'South', 'West', 'Centre']);
    expect(t.cells.filter((c) => FURNITURE.test(c.text))).toEqual([]);
  });
}

describe('page furniture of a report PDF and of its renders', () => {
  it('from the text layer: the running header and footer are no tables', async () => {
    const pages = await layouts(await reportPdf(sampleReport()));
    // Without the rule, each page's header and footer are tables of their own.
    expect(pages.flatMap(detectTables).length).toBe(9);
    onlyBodyTables(documentTables(pages));
  });

  it('page numbers alone at the foot, with the rest of the furniture: no tables', async () => {
    onlyBodyTables(documentTables(await layouts(await reportPdf(sampleReport(true)))));
  });

  it('running heads mirrored on the even pages (a book\'s verso) repeat on every other page: no tables', async () => {
    for (const pageCount of [4, 5]) {
      const pages = await layouts(await reportPdf(sampleReport(false, pageCount, true)));
      expect(pages.flatMap(detectTables).length).toBe(3 * pageCount);
      onlyBodyTables(documentTables(pages), pageCount);
    }
  });

  it('from the pages rendered at 150 dpi and OCR\'d, mirrored heads, misreads and all: the same tables', { timeout: 240_000 }, async () => {
    const pages = await rendered(await reportPdf(sampleReport(false, 4, true)), 150);
    expect(pages.flatMap(detectTables).length).toBe(12);
    const tables = documentTables(pages);
    expect(tables.map((t) => t.pages)).toEqual([[1], [2], [3], [4]]);
    for (const t of tables) {
      expect(grid(t).map((r) => r[0])).toEqual(['Region', 'North', 'East', 'South', 'West', 'Centre']);
      expect(t.cells.filter((c) => FURNITURE.test(c.text))).toEqual([]);
    }
  });
});

/**
 * Layout fixtures (test/fixtures/layouts, written by scripts/make-layout-fixtures.ts): every table
 * of every fixture, cell by cell, through the text layer and the layout, stitched as the engine does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTables, stitchTables } from '../../../src/extract/layout/index.js';
import { REPO_ROOT } from '../../paths.js';
import { grid, layouts } from './helpers.js';

const DIR = join(REPO_ROOT, 'test/fixtures/layouts');
const { fixtures } = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { fixtures: { file: string; about: string; tables: string[][][] }[] };

describe('layout fixtures', () => {
  for (const f of fixtures) {
    it(`${f.file}: ${f.about}`, async () => {
      const pages = await layouts(new Uint8Array(readFileSync(join(DIR, f.file))));
      const tables = stitchTables(pages.map(detectTables), pages);
      expect(tables.map(grid)).toEqual(f.tables);
      // Boxes are on the page as it is shown, whichever way the text runs: each cell's box holds
      // the centre of a word of its text.
      for (const t of tables) {
        const page = pages.find((p) => p.page === t.page)!;
        for (const c of t.cells.filter((x) => x.text)) {
          const [x0, y0, x1, y1] = c.bbox;
          const holds = page.words.some((w) => c.text.split(/\s/).includes(w.text) && (w.x0 + w.x1) / 2 > x0 && (w.x0 + w.x1) / 2 < x1 && (w.y0 + w.y1) / 2 > y0 && (w.y0 + w.y1) / 2 < y1);
          expect(holds, `${c.text} at ${c.bbox.join(',')}`).toBe(true);
        }
      }
    });
  }
});

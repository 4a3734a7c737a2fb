/**
 * The golden image set (scripts/make-image-fixtures.ts): synthetic invoices rendered, turned,
 * noised and compressed in every image format, run end to end through `extractDocument`.
 * Numbers must come out exact; descriptions may carry OCR noise up to a small edit distance.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { extractDocument } from '../../../src/extract/index.js';
import { addonAvailable, closeOcr, nativeAvailable } from '../../../src/extract/raster/index.js';

const DIR = 'test/fixtures/images';
interface Expected {
  file: string;
  pages: number;
  items: { description: string; quantity: number; unit_price: number; amount: number }[];
  totals: { subtotal: number; tax: number; total: number };
}
const manifest = JSON.parse(readFileSync(`${DIR}/manifest.json`, 'utf8')) as Expected[];

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

afterAll(closeOcr);

// Every engine: tesseract.js (best_int models); libtesseract in-process (the addon, Debian's
// smaller "fast" models), which `auto` picks; the `tesseract` program (same library and models).
// .ci/run installs the program and builds the addon.
const engines = [
  'js' as const,
  ...(addonAvailable('eng') ? (['native'] as const) : []),
  ...(nativeAvailable('eng') ? (['program'] as const) : []),
];

describe.each(engines)('golden images, %s engine', (engine) => {
  for (const fx of manifest) {
    it(`${fx.file}: every line item and the totals`, { timeout: 180_000 }, async () => {
      const res = await extractDocument(readFileSync(`${DIR}/${fx.file}`), { ocrEngine: engine });
      expect(res.page_count).toBe(fx.pages);
      expect(res.line_items.map((i) => [i.quantity, i.unit_price, i.amount])).toEqual(fx.items.map((i) => [i.quantity, i.unit_price, i.amount]));
      res.line_items.forEach((item, k) => {
        // One OCR slip in ten characters is tolerated in free text, never in numbers.
        const want = fx.items[k].description;
        expect(editDistance(item.description ?? '', want)).toBeLessThanOrEqual(Math.ceil(want.length / 10));
      });
      expect(res.totals).not.toBeNull();
      expect([res.totals!.subtotal, res.totals!.tax, res.totals!.total]).toEqual([fx.totals.subtotal, fx.totals.tax, fx.totals.total]);
      // OCR'd cells carry a confidence.
      const cells = res.tables.flatMap((t) => t.cells).filter((c) => c.text !== '');
      expect(cells.length).toBeGreaterThan(0);
      for (const c of cells) expect(c.confidence).toBeGreaterThan(0);
    });
  }
});

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
  /** Tesseract languages the page needs (Debian's tesseract-ocr-<lang> packages). */
  langs: string;
  items: { description: string; quantity: number; unit_price: number; amount: number }[];
  totals: { subtotal: number; tax: number; total: number };
  /** Parts known to come out wrong (on one engine, or all): they run as expected failures until fixed. */
  known_failures?: { part: 'items' | 'totals'; engine?: string; why: string }[];
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
// tesseract.js has only the English data the package ships; the other languages are Debian's.
const engines = [
  'js' as const,
  ...(addonAvailable('eng') ? (['native'] as const) : []),
  ...(nativeAvailable('eng') ? (['program'] as const) : []),
];
const canRead = (engine: (typeof engines)[number], langs: string) =>
  engine === 'js' ? langs === 'eng' : engine === 'native' ? addonAvailable(langs) : nativeAvailable(langs);

describe.each(engines)('golden images, %s engine', (engine) => {
  for (const fx of manifest) {
    const run = canRead(engine, fx.langs);
    // One extraction per fixture and engine, shared by its two tests.
    let result: ReturnType<typeof extractDocument> | undefined;
    const read = () => (result ??= extractDocument(readFileSync(`${DIR}/${fx.file}`), { ocrEngine: engine, ocrLangs: fx.langs }));
    const known = (part: string) => fx.known_failures?.find((k) => k.part === part && (k.engine ?? engine) === engine)?.why;
    const test = (part: string) => (known(part) ? it.runIf(run).fails : it.runIf(run));
    const title = (part: string, what: string) => `${fx.file}: ${what}${known(part) ? ` (known failure: ${known(part)})` : ''}`;
    test('items')(title('items', 'every line item'), { timeout: 180_000 }, async () => {
      const res = await read();
      expect(res.page_count).toBe(fx.pages);
      expect(res.line_items.map((i) => [i.quantity, i.unit_price, i.amount])).toEqual(fx.items.map((i) => [i.quantity, i.unit_price, i.amount]));
      res.line_items.forEach((item, k) => {
        // One OCR slip in ten characters is tolerated in free text, never in numbers.
        const want = fx.items[k].description;
        expect(editDistance(item.description ?? '', want)).toBeLessThanOrEqual(Math.ceil(want.length / 10));
      });
      // OCR'd cells carry a confidence.
      const cells = res.tables.flatMap((t) => t.cells).filter((c) => c.text !== '');
      expect(cells.length).toBeGreaterThan(0);
      for (const c of cells) expect(c.confidence).toBeGreaterThan(0);
    });
    test('totals')(title('totals', 'the totals'), { timeout: 180_000 }, async () => {
      const res = await read();
      expect(res.totals).not.toBeNull();
      expect([res.totals!.subtotal, res.totals!.tax, res.totals!.total]).toEqual([fx.totals.subtotal, fx.totals.tax, fx.totals.total]);
    });
  }
});

import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { extractDocument } from '../../../src/extract/index.js';
import { closeOcr } from '../../../src/extract/raster/index.js';
import { flagLowConfidence } from '../../../src/extract/lineitems/confidence.js';
import { UNSURE_WORD } from '../../../src/extract/types.js';

afterAll(closeOcr);

describe('low_confidence on line items', () => {
  it('flags exactly the item whose cell was read unsure, and never a text-layer item', { timeout: 120_000 }, async () => {
    const res = await extractDocument(readFileSync('test/fixtures/images/grid-clean.png'));
    expect(res.line_items).toHaveLength(4);
    const unsureCell = (i: (typeof res.line_items)[number]) =>
      res.tables[i.table_index].cells.some(
        (c) => c.text !== '' && c.confidence! < UNSURE_WORD && (c.bbox[1] + c.bbox[3]) / 2 >= i.bbox[1] && (c.bbox[1] + c.bbox[3]) / 2 <= i.bbox[3],
      );
    // Flagged exactly where one of the item's cells was read unsure.
    const before = res.line_items.map((i) => i.flags.includes('low_confidence'));
    expect(before).toEqual(res.line_items.map(unsureCell));
    // Make an unflagged item's amount cell unsure, as a smudged scan would: it alone gains the flag.
    const k = before.indexOf(false);
    const item = res.line_items[k];
    const amount = res.tables[item.table_index].cells.find((c) => c.text !== '' && Math.abs((c.bbox[1] + c.bbox[3]) / 2 - (item.bbox[1] + item.bbox[3]) / 2) < 5 && c.text.endsWith(item.amount!.toFixed(2)))!;
    amount.confidence = UNSURE_WORD - 0.2;
    flagLowConfidence(res.line_items, res.tables);
    expect(res.line_items.map((i) => i.flags.includes('low_confidence'))).toEqual(before.map((b, j) => b || j === k));

    const pdf = await extractDocument(readFileSync('test/fixtures/invoices/en-ruled-invoice.pdf'));
    expect(pdf.line_items.length).toBeGreaterThan(0);
    for (const i of pdf.line_items) expect(i.flags).not.toContain('low_confidence');
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { extractDocument } from '../../../src/extract/index.js';
import { closeOcr } from '../../../src/extract/raster/index.js';
import { flagLowConfidence, LOW_CONFIDENCE } from '../../../src/extract/lineitems/confidence.js';

afterAll(closeOcr);

describe('low_confidence on line items', () => {
  it('flags exactly the item whose cell was read unsure, and never a text-layer item', { timeout: 120_000 }, async () => {
    const res = await extractDocument(readFileSync('test/fixtures/images/grid-clean.png'));
    expect(res.line_items).toHaveLength(4);
    // The clean render reads sure everywhere.
    for (const item of res.line_items) expect(item.flags).not.toContain('low_confidence');
    // Make the second item's amount cell unsure, as a smudged scan would.
    const item = res.line_items[1];
    const table = res.tables[item.table_index];
    const amount = table.cells.find((c) => c.text === '179.80')!;
    amount.confidence = LOW_CONFIDENCE - 0.2;
    flagLowConfidence(res.line_items, res.tables);
    expect(res.line_items.map((i) => i.flags.includes('low_confidence'))).toEqual([false, true, false, false]);

    const pdf = await extractDocument(readFileSync('test/fixtures/invoices/en-ruled-invoice.pdf'));
    expect(pdf.line_items.length).toBeGreaterThan(0);
    for (const i of pdf.line_items) expect(i.flags).not.toContain('low_confidence');
  });
});

/**
 * Public reports are not invoices: the 27 PDFs of the ICDAR 2013 EU set (government and
 * statistical reports) through table detection, line items and document understanding give
 * `other`, no line items, no totals and no fields (before documents were classified, 22 of them
 * gave 329 line items).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectTables, stitchTables } from '../../../src/extract/layout/index.js';
import { extractLineItems } from '../../../src/extract/lineitems/index.js';
import { understandDocument } from '../../../src/extract/document/index.js';
import { ICDAR, layouts } from '../layout/helpers.js';

describe('ICDAR 2013 EU reports', () => {
  it('at most 2 of the 27 give any line item; none is an invoice, receipt or statement', async () => {
    const files = readdirSync(ICDAR).filter((x) => x.endsWith('.pdf'));
    expect(files).toHaveLength(27);
    const withItems: string[] = [];
    const types = new Map<string, number>();
    let tableCount = 0;
    for (const f of files) {
      const pages = await layouts(f.replace(/\.pdf$/, ''));
      const tables = stitchTables(pages.map(detectTables), pages);
      const r = understandDocument(pages, tables, extractLineItems(tables, pages));
      types.set(r.document_type, (types.get(r.document_type) ?? 0) + 1);
      if (r.line_items.length) withItems.push(f);
      if (r.document_type === 'other') {
        expect(r.totals).toBeNull();
        expect(r.line_items).toEqual([]);
      }
      tableCount += tables.length;
    }
    expect(withItems.length, withItems.join(' ')).toBeLessThanOrEqual(2);
    expect(tableCount, 'reports keep their tables').toBeGreaterThanOrEqual(27);
    expect(Object.fromEntries(types)).toEqual({ other: 27 });
  }, 120_000);
});

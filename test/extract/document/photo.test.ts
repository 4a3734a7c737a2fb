/**
 * Fields through the OCR path: the photo-like invoice of test/fixtures/images (unruled, turned
 * 2°, noise, JPEG q60; written by scripts/make-image-fixtures.ts), whose title and vendor share
 * one text line at the two ends of the page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../src/extract/index.js';
import { REPO_ROOT } from '../../paths.js';

describe('fields of a photographed invoice', () => {
  it('type, number, date, vendor and address, totals; confidences below those of a text layer', async () => {
    const r = await extractDocument(new Uint8Array(readFileSync(join(REPO_ROOT, 'test/fixtures/images/stream-photo.jpg'))));
    expect(r.document_type).toBe('invoice');
    const v = Object.fromEntries(Object.entries(r.fields).filter(([, f]) => f).map(([k, f]) => [k, f!.value]));
    expect(v).toEqual({
      invoice_number: 'INV-2042',
      issue_date: '2026-11-30',
      vendor_name: 'Millbrook Supplies Ltd',
      vendor_address: '14 Harbour Road, Leeds',
      subtotal: 271.95,
      tax: 54.39,
      total: 326.34,
    });
    expect(r.fields.invoice_number!.confidence).toBeLessThan(0.9);
    expect(r.line_items).toHaveLength(3);
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { checkPdfBounds } from '../../../src/extract/pdf/bounds.js';
import { extractDocument } from '../../../src/extract/index.js';
import { ExtractError } from '../../../src/extract/types.js';
import { compressionBombPdf, imageBombPdf } from '../../bombs.js';
import { encryptedPdf, icdarPdf } from '../../e2e/fixtures.js';

const MiB = 1024 * 1024;

async function codeOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (err) {
    return (err as ExtractError).code;
  }
}

describe('checkPdfBounds', () => {
  it('refuses Flate streams that inflate past the limit, and passes them under it', async () => {
    const bomb = await compressionBombPdf(8 * MiB);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await codeOf(checkPdfBounds(bomb, { maxMegapixels: 50, maxInflatedBytes: 4 * MiB }))).toBe('resource_limit');
    expect(await codeOf(checkPdfBounds(bomb, { maxMegapixels: 50, maxInflatedBytes: 16 * MiB }))).toBeNull();
  });

  it('refuses an embedded image over the megapixel limit from its dictionary, before decoding', async () => {
    const pdf = await imageBombPdf(3000);
    const err = await checkPdfBounds(pdf, { maxMegapixels: 5, maxInflatedBytes: 256 * MiB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractError);
    expect((err as ExtractError).code).toBe('resource_limit');
    expect((err as ExtractError).message).toMatch(/3000×3000 image \(9 megapixels; the limit is 5\)/);
    expect(await codeOf(checkPdfBounds(pdf, { maxMegapixels: 10, maxInflatedBytes: 256 * MiB }))).toBeNull();
  });

  it('passes real and encrypted PDFs, whose faults pdf.js reports', async () => {
    const bounds = { maxMegapixels: 50, maxInflatedBytes: 256 * MiB };
    expect(await codeOf(checkPdfBounds(icdarPdf('eu-001'), bounds))).toBeNull();
    expect(await codeOf(checkPdfBounds(await encryptedPdf(), bounds))).toBeNull();
  });

  it('ends extractDocument with resource_limit for both bombs', async () => {
    expect(await codeOf(extractDocument(await compressionBombPdf(8 * MiB), { maxInflatedBytes: 4 * MiB }))).toBe('resource_limit');
    expect(await codeOf(extractDocument(await imageBombPdf(3000), { maxMegapixels: 5 }))).toBe('resource_limit');
  });
});

import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { getDocument } from '../../../src/extract/pdf/pdfjs.js';

// Another realm's Function.prototype.toString: core-js replaces this realm's to make its
// polyfills read as native code.
const sourceOf = runInNewContext('Function.prototype.toString') as (this: unknown) => string;

describe('pdf.js as the engine loads it', () => {
  it('leaves the builtins its polyfills replace native', () => {
    expect(typeof getDocument).toBe('function');
    expect((globalThis as { pdfjsWorker?: unknown }).pdfjsWorker).toBeDefined();
    for (const fn of [Array.prototype.push, JSON.stringify, JSON.parse]) expect(sourceOf.call(fn)).toMatch(/\{ \[native code\] \}$/);
  });
});

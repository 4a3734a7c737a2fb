import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { getDocument } from '../../../src/extract/pdf/pdfjs.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// Another realm's Function.prototype.toString: core-js replaces this realm's to make its
// polyfills read as native code.
const sourceOf = runInNewContext('Function.prototype.toString') as (this: unknown) => string;

describe('pdf.js as the engine loads it', () => {
  it('leaves the builtins its polyfills replace native', () => {
    expect(typeof getDocument).toBe('function');
    expect((globalThis as { pdfjsWorker?: unknown }).pdfjsWorker).toBeDefined();
    for (const fn of [Array.prototype.push, JSON.stringify, JSON.parse]) expect(sourceOf.call(fn)).toMatch(/\{ \[native code\] \}$/);
  });

  it('is not loaded, nor a canvas, by a process that reads only an image', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'bin/run-ts.js'), join(ROOT, 'test/extract/pdf/image-only-child.ts')], { encoding: 'utf8', env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    expect(JSON.parse(out)).toEqual({ pages: 1, pdfjs: false, canvas: 0 });
  });
});

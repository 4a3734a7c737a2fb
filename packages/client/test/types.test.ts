// The SDK's types are the server's: src/types.ts is what scripts/client-types.ts generates from
// the contract's schemas today, and a real answer has every property those types name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientTypes } from '../../../scripts/client-types-gen.js';

describe('packages/client/src/types.ts', () => {
  it('is the generator\'s output for the current contract (else run scripts/client-types.ts)', () => {
    expect(readFileSync(join(import.meta.dirname, '../src/types.ts'), 'utf8')).toBe(clientTypes());
  });

  it('writes nullable, enum, tuple, record and named shapes', () => {
    const text = clientTypes();
    expect(text).toContain('export interface Batch {');
    expect(text).toMatch(/counts: Counts;/);
    expect(text).toMatch(/bbox: \[number, number, number, number\];/);
    expect(text).toMatch(/cells: Record<string, string>;/);
    expect(text).toMatch(/fields: Fields \| null;/);
    expect(text).toMatch(/line_items: LineItem\[\] \| null;/);
    expect(text).toMatch(/type: "batch.completed";/);
    expect(text).toMatch(/status: "pending" \| "delivered" \| "failed";/);
  });
});

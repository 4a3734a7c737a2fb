// Ids and blob keys come from a pool of CSPRNG bytes: each byte is handed out once, across refills.
import { describe, expect, it } from 'vitest';
import { newBlobKey, isBlobKey } from '../../src/blobs/keys.js';
import { newId, randomHex } from '../../src/domain/names.js';

describe('random ids', () => {
  it('are unique and well formed across many refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const key = newBlobKey();
      expect(isBlobKey(key)).toBe(true);
      seen.add(key);
      const id = newId('doc');
      expect(id).toMatch(/^doc_[0-9a-f]{32}$/);
      seen.add(id.slice(4));
      // An odd size moves the refill point off the 16-byte grid.
      expect(randomHex(7)).toMatch(/^[0-9a-f]{14}$/);
    }
    expect(seen.size).toBe(10000);
  });
});

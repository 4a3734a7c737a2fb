import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { LocalBlobStore } from '../../src/blobs/local.js';

const dir = mkdtempSync(join(tmpdir(), 'tablemill-blobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The BlobStore contract runs on `store.blobs` in the Store contract (test/store/).
it('removeStaleTemp removes only old temp files of killed puts', async () => {
  const s = new LocalBlobStore(dir);
  const kept = await s.put((async function* () { yield new Uint8Array([1, 2, 3]); })());
  mkdirSync(join(dir, 'ab'), { recursive: true });
  const old = join(dir, 'ab', `.tmp-${'ab'.repeat(16)}`);
  const fresh = join(dir, 'ab', `.tmp-${'ac'.repeat(16)}`);
  writeFileSync(old, 'partial');
  writeFileSync(fresh, 'partial');
  utimesSync(old, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  expect(await s.removeStaleTemp(60_000)).toBe(1);
  expect(existsSync(old)).toBe(false);
  expect(existsSync(fresh)).toBe(true);
  rmSync(fresh);
  expect((await s.get(kept.key)).equals(Buffer.from([1, 2, 3]))).toBe(true);
  await s.delete(kept.key);
});

import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
  await s.close();
});

it('removeStaleTemp removes fresh temp files whose writing process is gone, and keeps a live one', async () => {
  const s = new LocalBlobStore(dir);
  // A pid that has just exited.
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  mkdirSync(join(dir, 'cd'), { recursive: true });
  const orphan = join(dir, 'cd', `.tmp-${dead}-${'cd'.repeat(16)}`);
  const live = join(dir, 'cd', `.tmp-${process.pid}-${'ce'.repeat(16)}`);
  writeFileSync(orphan, 'partial');
  writeFileSync(live, 'partial');
  expect(await s.removeStaleTemp(3_600_000)).toBe(1);
  expect(existsSync(orphan)).toBe(false);
  expect(existsSync(live)).toBe(true);
  rmSync(live);
  await s.close();
});

it('puts into many new shard folders at once all land, and close lets their folder descriptors go', async () => {
  const root = join(dir, 'fresh');
  const s = new LocalBlobStore(root);
  const fds = () => readdirSync('/proc/self/fd').length;
  const before = fds();
  const puts = await Promise.all(Array.from({ length: 64 }, (_, i) => s.put((async function* () { yield Buffer.from(`blob ${i}`); })())));
  for (const [i, p] of puts.entries()) expect((await s.get(p.key)).toString()).toBe(`blob ${i}`);
  const shards = new Set(puts.map((p) => p.key.slice(0, 2)));
  expect(readdirSync(root).sort()).toEqual([...shards].sort());
  expect(fds()).toBeGreaterThan(before + shards.size / 2); // folder descriptors kept for their next fsync
  await s.close();
  expect(fds()).toBeLessThanOrEqual(before);
});

it('createFolders makes the 256 shard folders once; puts of empty, small and streamed bodies land whole and leave no temp file', async () => {
  const root = join(dir, 'made');
  const s = new LocalBlobStore(root);
  await s.createFolders();
  const shards = readdirSync(root).sort();
  expect(shards).toHaveLength(256);
  expect(shards[0]).toBe('00');
  expect(shards[255]).toBe('ff');
  await s.createFolders(); // again: nothing to make
  const big = Buffer.alloc(1_300_000, 7); // more than one gathered write
  const bodies = [Buffer.alloc(0), Buffer.from('%PDF-1.7 small'), big];
  for (const body of bodies) {
    const p = await s.put((async function* () {
      for (let i = 0; i < body.length; i += 65_536) yield body.subarray(i, i + 65_536);
    })());
    expect(p.size).toBe(body.length);
    expect((await s.get(p.key)).equals(body)).toBe(true);
  }
  expect(shards.flatMap((d) => readdirSync(join(root, d))).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  await s.close();
});

it('removeStaleTemp removes the blob name linked to a dead put’s temp file, and no other blob', async () => {
  const s = new LocalBlobStore(dir);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  const kept = await s.put((async function* () { yield Buffer.from('kept'); })());
  // What a put killed while reading its body leaves: the temp name and the blob's own, one file.
  const shard = join(dir, 'de');
  mkdirSync(shard, { recursive: true });
  const key = 'de'.repeat(16);
  writeFileSync(join(shard, `.tmp-${dead}-${key}`), 'partial');
  linkSync(join(shard, `.tmp-${dead}-${key}`), join(shard, key));
  // A blob of that name that is another file is not touched.
  const other = 'df'.repeat(16);
  writeFileSync(join(shard, `.tmp-${dead}-${other}`), 'partial');
  writeFileSync(join(shard, other), 'a blob');
  expect(await s.removeStaleTemp(3_600_000)).toBe(2);
  expect(readdirSync(shard)).toEqual([other]);
  expect((await s.get(kept.key)).toString()).toBe('kept');
  await s.close();
});

it('a put refused part-way (too large) leaves neither of its names', async () => {
  const root = join(dir, 'refused');
  const s = new LocalBlobStore(root);
  await s.createFolders();
  await expect(s.put((async function* () { for (let i = 0; i < 20; i++) yield Buffer.alloc(65_536, 1); })(), { maxBytes: 1_000_000 })).rejects.toThrow(/exceeds/);
  await expect(s.put((async function* () { yield Buffer.alloc(10, 1); throw new Error('cut off'); })())).rejects.toThrow(/cut off/);
  expect(readdirSync(root).flatMap((d) => readdirSync(join(root, d)))).toEqual([]);
  await s.close();
});

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FsyncGroup } from '../../src/blobs/fsync-group.js';

const dir = mkdtempSync(join(tmpdir(), 'tablemill-fsync-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('commits arriving during an fsync share the next one; a later call starts afresh', async () => {
  const wal = join(dir, 'a.db-wal');
  writeFileSync(wal, 'frames');
  const w = new FsyncGroup(wal);
  const first = w.sync();
  const during = [w.sync(), w.sync(), w.sync()];
  // The running fsync may predate these commits: they wait for one more, all the same one.
  expect(during[0]).not.toBe(first);
  expect(during[1]).toBe(during[0]);
  expect(during[2]).toBe(during[0]);
  await Promise.all([first, ...during]);
  const after = w.sync();
  expect(after).not.toBe(during[0]);
  await after;
  await w.close();
});

it('a failed fsync rejects its callers, and the next call tries again', async () => {
  const w = new FsyncGroup(join(dir, 'missing.db-wal'));
  await expect(w.sync()).rejects.toThrow(/ENOENT/);
  writeFileSync(join(dir, 'missing.db-wal'), 'frames');
  await w.sync();
  await w.close();
});

it('syncs a folder, keeping one descriptor open between syncs', async () => {
  const w = new FsyncGroup(dir);
  const fds = () => readdirSync('/proc/self/fd').length;
  await w.sync();
  const open = fds();
  for (let i = 0; i < 5; i++) await w.sync();
  expect(fds()).toBe(open);
  await w.close();
  expect(fds()).toBe(open - 1);
});

it('open() makes the descriptor ahead of the first sync, and a failed open is left for sync to retry', async () => {
  const w = new FsyncGroup(dir);
  const fds = () => readdirSync('/proc/self/fd').length;
  const before = fds();
  await w.open();
  expect(fds()).toBe(before + 1);
  await w.sync();
  expect(fds()).toBe(before + 1);
  await w.close();

  const later = join(dir, 'later.db-wal');
  const m = new FsyncGroup(later);
  await m.open(); // ENOENT, not thrown
  writeFileSync(later, 'frames');
  await m.sync();
  await m.close();
});

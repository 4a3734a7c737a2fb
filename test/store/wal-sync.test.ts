import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { WalSync } from '../../src/store/sqlite/wal-sync.js';

const dir = mkdtempSync(join(tmpdir(), 'tablemill-walsync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('commits arriving during an fsync share the next one; a later call starts afresh', async () => {
  const db = join(dir, 'a.db');
  writeFileSync(`${db}-wal`, 'frames');
  const w = new WalSync(db);
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
});

it('a failed fsync rejects its callers, and the next call tries again', async () => {
  const w = new WalSync(join(dir, 'missing.db'));
  await expect(w.sync()).rejects.toThrow(/ENOENT/);
  writeFileSync(join(dir, 'missing.db-wal'), 'frames');
  await w.sync();
});

import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { storeContract } from './contract.js';

const root = mkdtempSync(join(tmpdir(), 'tablemill-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
let current = '';

storeContract('sqlite', {
  // One folder per database: the file and its blobs/ beside it.
  async fresh() {
    current = join(root, `db${n++}`, 'tablemill.db');
    mkdirSync(dirname(current));
    const s = new SqliteStore(current);
    await s.migrate();
    return s;
  },
  async another() {
    return new SqliteStore(current);
  },
  async blobLeftovers() {
    const dir = join(dirname(current), 'blobs');
    try {
      return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    } catch {
      return 0;
    }
  },
});

it('the change stream epoch sees another connection’s commit by the next event-loop turn', async () => {
  const path = join(root, 'epoch', 'tablemill.db');
  mkdirSync(dirname(path));
  const a = new SqliteStore(path);
  await a.migrate();
  const b = new SqliteStore(path);
  try {
    const before = a.changes.epoch();
    await b.getOrCreateAccount('other', Date.now());
    // Within this turn the read before may be reused (for up to 1 ms); the next turn reads again.
    await new Promise((r) => setImmediate(r));
    expect(a.changes.epoch()).not.toBe(before);
  } finally {
    await a.close();
    await b.close();
  }
});

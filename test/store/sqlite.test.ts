import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
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

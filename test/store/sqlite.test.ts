import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { storeContract } from './contract.js';

const root = mkdtempSync(join(tmpdir(), 'tablemill-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
let current = '';

storeContract('sqlite', {
  async fresh() {
    current = join(root, `db${n++}.db`);
    const s = new SqliteStore(current);
    await s.migrate();
    return s;
  },
  async another() {
    return new SqliteStore(current);
  },
});

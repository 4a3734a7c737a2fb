import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { newId } from '../../src/domain/names.js';
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

it('a status read keeps its cached batch row across rate-limit writes, and loses it on any batch write', async () => {
  const path = join(root, 'batch-cache', 'tablemill.db');
  mkdirSync(dirname(path));
  const a = new SqliteStore(path);
  await a.migrate();
  const b = new SqliteStore(path);
  const doc = () => ({ id: newId('doc'), filename: 'f.pdf', content_type: 'application/pdf', size_bytes: 1, sha256: 'ab'.repeat(32), blob_key: newId('req') });
  try {
    const acc = await a.getOrCreateAccount('acc', 1000);
    await a.insertDocuments(acc.id, 'b', [doc()], 1000);
    const first = await a.getBatch(acc.id, 'b');
    // An authenticated request writes its rate-limit counter on the same connection.
    const limiter = a.rateLimits.limiter({ points: 100, duration: 60, keyPrefix: 'key' });
    await limiter.consume('k1', 1);
    expect(await a.getBatch(acc.id, 'b')).toBe(first);
    // A write to the batch on this connection is seen at once.
    await a.insertDocuments(acc.id, 'b', [doc()], 1001);
    const second = await a.getBatch(acc.id, 'b');
    expect(second).not.toBe(first);
    expect(second?.document_count).toBe(2);
    // Another connection's write is seen by the next event-loop turn.
    await b.submitBatch(acc.id, 'b', 1002);
    await new Promise((r) => setImmediate(r));
    const third = await a.getBatch(acc.id, 'b');
    expect(third).not.toBe(second);
    expect(third?.run).toBe(1);
    expect(third?.awaiting_process).toBe(0);
  } finally {
    await a.close();
    await b.close();
  }
});

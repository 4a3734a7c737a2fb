// Uploads on SQLite are committed in groups: those handed in while a group waits for its WAL
// fsync go together in the next transaction, each in a savepoint of its own. Every upload is
// durable when its promise resolves, and one that fails loses only its own rows.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { FsyncGroup } from '../../src/blobs/fsync-group.js';
import { newId } from '../../src/domain/names.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import type { NewDocument } from '../../src/store/types.js';

const root = mkdtempSync(join(tmpdir(), 'tablemill-upload-group-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());
let n = 0;

async function fresh(): Promise<SqliteStore> {
  const dir = join(root, `db${n++}`);
  mkdirSync(dir);
  const s = new SqliteStore(join(dir, 'tablemill.db'));
  await s.migrate();
  return s;
}

const doc = (id = newId('doc')): NewDocument => ({ id, filename: `${id}.pdf`, content_type: 'application/pdf', size_bytes: 10, sha256: 'a'.repeat(64), blob_key: 'b'.repeat(32) });

it('concurrent uploads share transactions, and each resolves only after a WAL fsync that began after its commit', async () => {
  const store = await fresh();
  const account = await store.getOrCreateAccount('acme', 1);
  const uploads = Array.from({ length: 12 }, (_, i) => ({ batch: `b${i % 3}`, docs: [doc(), doc()] }));
  const present = (id: string) => store.db.prepare('SELECT 1 FROM documents WHERE id = ?').get(id) !== undefined;
  let commits = 0;
  const committedIn: number[] = [];
  const tx = store.tx.bind(store);
  vi.spyOn(store, 'tx').mockImplementation((fn, opts) => {
    const out = tx(fn, opts);
    commits++;
    uploads.forEach((u, i) => {
      if (committedIn[i] === undefined && present(u.docs[0].id)) committedIn[i] = commits;
    });
    return out;
  });
  // The commits each finished fsync had seen when it was asked for.
  const synced: number[] = [];
  const sync = FsyncGroup.prototype.sync;
  vi.spyOn(FsyncGroup.prototype, 'sync').mockImplementation(function (this: FsyncGroup) {
    const seen = commits;
    return sync.call(this).then(() => void synced.push(seen));
  });
  const durableWhenResolved: boolean[] = [];
  const results = await Promise.all(
    uploads.map((u, i) =>
      store.insertDocuments(account.id, u.batch, u.docs, 2).then((r) => {
        durableWhenResolved[i] = synced.some((seen) => seen >= committedIn[i]);
        return r;
      }),
    ),
  );
  const groups = new Set(committedIn).size;
  expect(groups).toBeLessThan(uploads.length);
  expect(durableWhenResolved).toEqual(uploads.map(() => true));
  for (const [i, r] of results.entries()) {
    expect(r.batch.name).toBe(uploads[i].batch);
    for (const d of uploads[i].docs) expect((await store.getDocument(account.id, d.id))?.state).toBe('uploaded');
  }
  for (const name of ['b0', 'b1', 'b2']) expect((await store.getBatch(account.id, name))?.document_count).toBe(8);
  await store.close();
});

it('an upload that fails in a group is rolled back alone: the others keep their rows and counts', async () => {
  const store = await fresh();
  const account = await store.getOrCreateAccount('acme', 1);
  const taken = doc();
  await store.insertDocuments(account.id, 'x', [taken], 1);
  const good = [[doc(), doc()], [doc()], [doc(), doc(), doc()]];
  // The second file of the bad upload repeats an id: its first file must not stay either.
  const bad = [doc(), { ...doc(), id: taken.id }];
  const settled = await Promise.allSettled([
    store.insertDocuments(account.id, 'x', good[0], 2),
    store.insertDocuments(account.id, 'x', bad, 2),
    store.insertDocuments(account.id, 'y', good[1], 2),
    store.insertDocuments(account.id, 'x', good[2], 2),
  ]);
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  for (const d of good.flat()) expect(await store.getDocument(account.id, d.id)).not.toBeNull();
  expect(await store.getDocument(account.id, bad[0].id)).toBeNull();
  expect((await store.getBatch(account.id, 'x'))?.document_count).toBe(1 + 2 + 3);
  expect((await store.getBatch(account.id, 'x'))?.awaiting_process).toBe(1 + 2 + 3);
  expect((await store.getBatch(account.id, 'y'))?.document_count).toBe(1);
  await store.close();
});

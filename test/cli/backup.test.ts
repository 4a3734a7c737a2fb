// `tablemill backup` while a batch of 100 documents runs: the copy, served on its own, answers
// every document, file and result that had succeeded before the backup started. Taken while
// documents are uploaded, processed, deleted and purged, the copy has no row without its file,
// says what it left out, and passes `tablemill backup --verify`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { TablemillClient } from '@tablemill/client';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { BIN, childEnv, createKeyCli, serve, tempDataDir, type ServeProcess } from '../e2e/server.js';
import { smallPdf } from '../e2e/fixtures.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const servers: ServeProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

it('a backup taken during a running batch serves everything that had succeeded before it', async () => {
  const dir = tempDataDir();
  const env = { TABLEMILL_DATA_DIR: dir, TABLEMILL_WORKER_CONCURRENCY: '1' };
  const key = createKeyCli(env, 'backup');
  const live = await serve(env);
  servers.push(live);
  const client = new TablemillClient(live.url, key);
  const files = await Promise.all(Array.from({ length: 100 }, async (_, i) => ({ filename: `doc-${i}.pdf`, data: await smallPdf(i) })));
  const digests = new Map<string, string>();
  for (let i = 0; i < 100; i += 25) {
    const up = await client.upload('run', files.slice(i, i + 25));
    for (const d of up.documents) digests.set(d.id, d.sha256);
  }
  await client.process('run');
  for (;;) {
    const b = await client.getBatch('run');
    if (b.counts.succeeded + b.counts.failed >= 10) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // What had succeeded before the backup started, with its result.
  const before = (await client.results('run')).filter((r) => r.status === 'succeeded');
  expect(before.length).toBeGreaterThanOrEqual(5);

  const out = join(tempDataDir('tm-backup-'), 'copy');
  const r = spawnSync(process.execPath, [BIN, 'backup', '--out', out], { env: childEnv(env), encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/100 blobs copied/);
  const running = await client.getBatch('run');
  console.log(JSON.stringify({ succeeded_before_backup: before.length, done_after_backup: running.counts.succeeded + running.counts.failed }));

  // The copy, served alone (no workers: nothing moves in it).
  await live.stop();
  const copy = await serve({ TABLEMILL_DATA_DIR: out }, ['--no-workers']);
  servers.push(copy);
  const fromCopy = new TablemillClient(copy.url, key);
  const batch = await fromCopy.getBatch('run');
  expect(batch.document_count).toBe(100);
  for (const res of before) {
    expect((await fromCopy.getDocument(res.id)).status).toBe('succeeded');
    expect(await fromCopy.documentResults(res.id)).toEqual(res);
    const file = await fromCopy.documentFile(res.id);
    expect(sha(file.bytes)).toBe(digests.get(res.id));
  }
  expect(readdirSync(join(out, 'blobs')).length).toBeGreaterThan(0);
}, 240_000);

/** `tablemill ARGS` without blocking this process (the workload goes on meanwhile). */
function cli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The copy's document rows whose file is missing or of another size. */
function rowsWithoutFile(dir: string): string[] {
  const db = new Database(join(dir, 'tablemill.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, blob_key, size_bytes FROM documents').all() as { id: string; blob_key: string; size_bytes: number }[];
    return rows.filter((r) => {
      const path = join(dir, 'blobs', r.blob_key.slice(0, 2), r.blob_key);
      return !existsSync(path) || statSync(path).size !== r.size_bytes;
    }).map((r) => r.id);
  } finally {
    db.close();
  }
}

it('a backup taken while documents are uploaded, processed, deleted and purged has no row without its file and passes --verify', async () => {
  const dir = tempDataDir();
  const env = { TABLEMILL_DATA_DIR: dir, TABLEMILL_WORKER_CONCURRENCY: '1' };
  const key = createKeyCli(env, 'churn');
  const live = await serve(env);
  servers.push(live);
  const client = new TablemillClient(live.url, key);
  const pdfs = await Promise.all(Array.from({ length: 10 }, (_, i) => smallPdf(200 + i)));
  const upload = (batch: string) => client.upload(batch, pdfs.map((data, i) => ({ filename: `d${i}.pdf`, data })));
  for (const b of ['kept', 'gone']) await upload(b);
  await client.process('kept');
  await client.deleteBatch('gone');
  // A purge caught between its two steps (files first, then rows): the deleted batch's files are
  // gone and its rows are still there, as a sweep in another process leaves them for a moment.
  const sweeper = await openStore(loadConfig({ TABLEMILL_DATA_DIR: dir }));
  const caught = await sweeper.retention.purgeableDocuments(null, 100);
  expect(caught).toHaveLength(10);
  for (const d of caught) await sweeper.blobs.delete(d.blob_key);

  // Meanwhile: uploads, processing, deletes, and purges as the sweep makes them (files, then
  // rows) of every deleted document but the caught ones.
  const held = new Set(caught.map((d) => d.id));
  let churning = true;
  const churn = (async () => {
    for (let n = 0; churning; n++) {
      await upload(`c${n}`);
      await client.process(`c${n}`);
      if (n % 2) await client.deleteBatch(`c${n - 1}`);
      const purgeable = (await sweeper.retention.purgeableDocuments(null, 100)).filter((d) => !held.has(d.id));
      for (const d of purgeable) await sweeper.blobs.delete(d.blob_key);
      await sweeper.retention.purgeDocuments(purgeable.map((d) => d.id));
    }
  })();
  const out = join(tempDataDir('tm-backup-'), 'copy');
  const r = await cli(['backup', '--out', out], env);
  churning = false;
  await churn;
  await sweeper.close();
  console.log(r.stdout.trim(), r.stderr);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/(\d+) rows? left out/);
  expect(Number(/(\d+) rows? left out/.exec(r.stdout)![1])).toBeGreaterThanOrEqual(10);
  expect(r.stdout).toMatch(/integrity check passed/);
  expect(rowsWithoutFile(out)).toEqual([]);
  const verified = await cli(['backup', '--verify', out], {});
  expect(verified.status, verified.stdout + verified.stderr).toBe(0);

  // The copy opens and serves every document it holds, file included.
  await live.stop();
  const copy = await serve({ TABLEMILL_DATA_DIR: out }, ['--no-workers']);
  servers.push(copy);
  const fromCopy = new TablemillClient(copy.url, key);
  const batches = (await fromCopy.listBatches({ limit: 100 })).batches;
  expect(batches.map((b) => b.batch_name)).toContain('kept');
  let files = 0;
  for (const b of batches) {
    const docs = await fromCopy.results(b.batch_name);
    expect(docs).toHaveLength(b.document_count);
    for (const d of docs) {
      expect((await fromCopy.documentFile(d.id)).bytes.subarray(0, 5).toString()).toBe('%PDF-');
      files++;
    }
  }
  expect(files).toBeGreaterThanOrEqual(10);
}, 300_000);

it('--verify finds a row whose file is missing or changed, and a folder with no database', async () => {
  const dir = tempDataDir();
  const env = { TABLEMILL_DATA_DIR: dir, TABLEMILL_WORKER_CONCURRENCY: '0' };
  const key = createKeyCli(env, 'verify');
  const live = await serve(env);
  servers.push(live);
  await new TablemillClient(live.url, key).upload('b', await Promise.all([0, 1, 2].map(async (i) => ({ filename: `v${i}.pdf`, data: await smallPdf(300 + i) }))));
  await live.stop();
  const out = join(tempDataDir('tm-backup-'), 'copy');
  expect((await cli(['backup', '--out', out], env)).status).toBe(0);
  expect((await cli(['backup', '--verify', out], {})).status).toBe(0);
  const db = new Database(join(out, 'tablemill.db'), { readonly: true });
  const [a, b] = db.prepare('SELECT id, blob_key FROM documents ORDER BY id').all() as { id: string; blob_key: string }[];
  db.close();
  unlinkSync(join(out, 'blobs', a.blob_key.slice(0, 2), a.blob_key));
  writeFileSync(join(out, 'blobs', b.blob_key.slice(0, 2), b.blob_key), '%PDF-1.4 not what was uploaded');
  const bad = await cli(['backup', '--verify', out], {});
  expect(bad.status).not.toBe(0);
  expect(bad.stdout + bad.stderr).toContain(`${a.id}: file missing`);
  expect(bad.stdout + bad.stderr).toContain(`${b.id}: file`);
  const notADb = join(tempDataDir('tm-backup-'), 'junk');
  expect((await cli(['backup', '--verify', notADb], {})).status).not.toBe(0);
}, 120_000);

it('refuses a folder that is not empty, and cluster mode', () => {
  const out = tempDataDir();
  writeFileSync(join(out, 'something'), 'kept');
  const data = tempDataDir();
  createKeyCli({ TABLEMILL_DATA_DIR: data }, 'x');
  const notEmpty = spawnSync(process.execPath, [BIN, 'backup', '--out', out], { env: childEnv({ TABLEMILL_DATA_DIR: data }), encoding: 'utf8' });
  expect(notEmpty.status).not.toBe(0);
  expect(notEmpty.stderr).toMatch(/not empty/);
  expect(readdirSync(out)).toEqual(['something']);
  const cluster = spawnSync(process.execPath, [BIN, 'backup', '--out', join(out, 'x')], { env: childEnv({ DATABASE_URL: 'postgres://127.0.0.1:1/none' }), encoding: 'utf8' });
  expect(cluster.status).not.toBe(0);
  expect(cluster.stderr).toMatch(/pg_dump/);
});

// `tablemill backup` while a batch of 100 documents runs: the copy, served on its own, answers
// every document, file and result that had succeeded before the backup started.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TablemillClient } from '@tablemill/client';
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

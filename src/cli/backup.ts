/**
 * `tablemill backup --out DIR`: a consistent copy of an embedded instance while it serves.
 * First the database, through SQLite's online backup API (a snapshot: in WAL mode the server
 * keeps writing meanwhile), then the blobs that snapshot names. Blobs never change once written,
 * so copying them after the snapshot is consistent, except for one deleted in between: the
 * retention sweep deletes a purged document's file before its rows, so the snapshot may hold rows
 * whose file is already gone (in any state: the snapshot may hold a document still running that
 * finished, was deleted and purged before its file was copied). Those rows are left out of the
 * copy (removed there with their results, their batches' counters following) and counted in the
 * summary. The copy then passes `verifyDataDir` (`tablemill backup --verify DIR` alone), or the
 * command fails; `serve --data-dir DIR` serves it as it is.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../config.js';
import { SqliteStore } from '../store/sqlite/store.js';
import { verifyDataDir } from './backup-verify.js';
import { EXIT, UsageError } from './exit.js';

/** `--verify DIR`: the copy's integrity check alone; 0 when it passes, 1 with each fault on stderr. */
export async function verify(flags: Record<string, string>, dir: string): Promise<number> {
  const config = loadConfig(process.env, flags);
  return report(dir, await verifyDataDir(dir, !config.blobs));
}

function report(dir: string, v: Awaited<ReturnType<typeof verifyDataDir>>): number {
  if (v.problems.length) {
    process.stderr.write(`integrity check of ${dir} failed:\n${v.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return EXIT.failure;
  }
  process.stdout.write(`integrity check passed: database ok, ${v.rows} documents with their files\n`);
  return EXIT.ok;
}

/** Removes from the copy the documents whose file was deleted after the snapshot; how many. */
async function leaveOut(target: string, goneKeys: string[]): Promise<number> {
  if (!goneKeys.length) return 0;
  const copy = new SqliteStore(target);
  try {
    const ids = copy.db.prepare('SELECT id FROM documents WHERE blob_key IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(goneKeys)) as string[];
    return await copy.retention.purgeDocuments(ids, true);
  } finally {
    await copy.close();
  }
}

/** The exit code: 0 once DIR holds the database and every blob its rows name, checked. */
export async function run(flags: Record<string, string>, out: string): Promise<number> {
  const config = loadConfig(process.env, flags);
  if (config.databaseUrl) {
    throw new UsageError('cluster mode keeps its rows in PostgreSQL: back them up with pg_dump or base backups (docs/operations.md)');
  }
  const existing = await readdir(out).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : Promise.reject(err)));
  if (existing.length) throw new UsageError(`--out ${out} is not empty: a backup goes into a new or empty folder`);
  await mkdir(join(out, 'blobs'), { recursive: true });

  const source = new Database(join(config.dataDir, 'tablemill.db'), { readonly: true, fileMustExist: true });
  const target = join(out, 'tablemill.db');
  try {
    // After the first step, the rest in one: a single read snapshot, never restarted by the
    // server's writes (WAL readers do not block the writer).
    await source.backup(target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  await fsyncPath(target);
  process.stdout.write(`database copied to ${target}\n`);

  if (config.blobs) {
    process.stdout.write(`originals stay in s3://${config.blobs.bucket}/${config.blobs.prefix}: keep the bucket versioned (docs/operations.md)\n`);
    return EXIT.ok;
  }
  const copy = new Database(target, { readonly: true });
  const keys = copy.prepare('SELECT DISTINCT blob_key FROM documents').pluck().all() as string[];
  copy.close();
  let copied = 0;
  const gone: string[] = [];
  const shards = new Set<string>();
  for (const key of keys) {
    if (!/^[0-9a-f]{32}$/.test(key)) continue;
    const shard = key.slice(0, 2);
    if (!shards.has(shard)) {
      await mkdir(join(out, 'blobs', shard), { recursive: true });
      shards.add(shard);
    }
    const dest = join(out, 'blobs', shard, key);
    try {
      // A reflink where the file system has them (instant, no space), else a real copy.
      await copyFile(join(config.dataDir, 'blobs', shard, key), dest, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
      await fsyncPath(dest);
      copied++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      gone.push(key);
    }
  }
  for (const shard of shards) await fsyncPath(join(out, 'blobs', shard));
  await fsyncPath(join(out, 'blobs'));
  const leftOut = await leaveOut(target, gone);
  await fsyncPath(out);
  const without = leftOut ? `; ${leftOut} ${leftOut === 1 ? 'row' : 'rows'} left out whose file was deleted since the snapshot (documents being purged)` : '';
  process.stdout.write(`${copied} blobs copied to ${join(out, 'blobs')}${without}\n`);
  const code = report(out, await verifyDataDir(out));
  if (code === EXIT.ok) process.stdout.write(`serve the copy with: tablemill serve --data-dir ${out}\n`);
  return code;
}

async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * `tablemill backup --out DIR`: a consistent copy of an embedded instance while it serves.
 * First the database, through SQLite's online backup API (a snapshot: in WAL mode the server
 * keeps writing meanwhile), then the blobs that snapshot names. Blobs never change once written,
 * so copying them after the snapshot is consistent; one deleted in between (its document was
 * deleted or purged since) is counted, and its row is then the only trace, as on the live
 * instance a moment later. `serve --data-dir DIR` serves the copy as it is.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../config.js';
import { EXIT, UsageError } from './exit.js';

/** The exit code: 0 once DIR holds the database and every blob it names that still existed. */
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
  let gone = 0;
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
      gone++;
    }
  }
  for (const shard of shards) await fsyncPath(join(out, 'blobs', shard));
  await fsyncPath(join(out, 'blobs'));
  await fsyncPath(out);
  process.stdout.write(`${copied} blobs copied to ${join(out, 'blobs')}${gone ? `; ${gone} deleted since the snapshot` : ''}\nserve the copy with: tablemill serve --data-dir ${out}\n`);
  return EXIT.ok;
}

async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Original uploads as files in a local folder (embedded mode). */
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { BlobNotFoundError, type BlobStore, type PutResult } from './types.js';
import { PutTally, isBlobKey, newBlobKey } from './keys.js';

const TMP_PREFIX = '.tmp-';

/** Whether the process named in a temp file's name (`.tmp-<pid>-<key>`) still runs; true when unnamed. */
function writerAlive(name: string): boolean {
  const pid = Number(/^\.tmp-(\d+)-/.exec(name)?.[1] ?? NaN);
  if (!Number.isInteger(pid)) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `dir/<first two hex digits>/<key>`: 256 shard folders keep any one folder small at a
 * million blobs. A put writes a temp file in the destination folder (so the rename is atomic
 * on one file system), fsyncs it, renames it into place and fsyncs the folder, so a blob
 * whose put resolved survives a crash or power loss.
 */
export class LocalBlobStore implements BlobStore {
  constructor(readonly dir: string) {}

  async put(source: Readable | AsyncIterable<Uint8Array>, opts: { maxBytes?: number } = {}): Promise<PutResult> {
    const key = newBlobKey();
    const folder = this.folderOf(key);
    await this.ensureFolder(folder);
    // The pid in the name tells a sweep whether the process writing it is still alive.
    const tmp = join(folder, `${TMP_PREFIX}${process.pid}-${key}`);
    const fh = await open(tmp, 'wx', 0o600);
    const tally = new PutTally(opts.maxBytes);
    try {
      try {
        for await (const chunk of tally.read(source)) await fh.write(chunk);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, join(folder, key));
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await fsyncDir(folder);
    return tally.result(key);
  }

  async get(key: string): Promise<Buffer> {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      throw notFound(err, key);
    }
  }

  async stream(key: string): Promise<Readable> {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    // Open first so a missing blob rejects here, not as a stream error mid-response.
    const fh = await open(this.pathOf(key), 'r').catch((err) => {
      throw notFound(err, key);
    });
    return createReadStream('', { fd: fh, autoClose: true });
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) return;
    await unlink(this.pathOf(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async close(): Promise<void> {}

  /**
   * Removes temp files left by a process killed mid-put: those whose writing process is gone,
   * and any older than `ageMs` (a reused pid); returns how many.
   */
  async removeStaleTemp(ageMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    const shards = await readdir(this.dir).catch(() => [] as string[]);
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await readdir(join(this.dir, shard))) {
        if (!name.startsWith(TMP_PREFIX)) continue;
        const p = join(this.dir, shard, name);
        const st = await stat(p).catch(() => null);
        const stale = st && (now - st.mtimeMs > ageMs || !writerAlive(name));
        if (stale && (await unlink(p).then(() => true, () => false))) removed++;
      }
    }
    return removed;
  }

  private folderOf(key: string): string {
    return join(this.dir, key.slice(0, 2));
  }

  private pathOf(key: string): string {
    return join(this.folderOf(key), key);
  }

  private async ensureFolder(folder: string): Promise<void> {
    // A new shard folder must itself be durable in its parent before blobs in it count.
    const created = await mkdir(folder, { recursive: true });
    if (created !== undefined) await fsyncDir(this.dir);
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function notFound(err: unknown, key: string): Error {
  return (err as NodeJS.ErrnoException).code === 'ENOENT' ? new BlobNotFoundError(key) : (err as Error);
}

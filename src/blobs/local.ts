/** Original uploads as files in a local folder (embedded mode). */
import { closeSync, constants as fsConstants, createReadStream, fsync as fsyncCb, open as openCb, write as writeCb, writev as writevCb } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { BlobNotFoundError, type BlobStore, type PutResult } from './types.js';
import { FsyncGroup } from './fsync-group.js';
import { PutTally, isBlobKey, newBlobKey } from './keys.js';

const TMP_PREFIX = '.tmp-';
/** Where the platform has it, `O_DSYNC`: each write is durable when it returns. */
const O_DSYNC = fsConstants.O_DSYNC ?? 0;
/** `wx` (create, fail if it exists), written with `O_DSYNC`. */
const OPEN_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | O_DSYNC;
/** Chunks are gathered up to this many bytes per write: a 100 KB upload is one write, not two or three. */
const WRITE_BYTES = 512 * 1024;
// Descriptors, not FileHandles: a put's file is closed on the event loop (see LocalBlobStore).
const openFd = promisify(openCb);
const writevFd = promisify(writevCb);
const writeFd = promisify(writeCb);
const fsyncFd = promisify(fsyncCb);

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
 * million blobs. A blob whose put resolved survives a crash or power loss: its bytes are
 * written with `O_DSYNC` (each write returns with the data on disk, no separate fsync) and its
 * folder is fsynced after its name is in place. Every step is a round trip to the thread pool
 * (a wake-up and two context switches, which on a shared VM cost more CPU than the step
 * itself), and on a busy machine their waits, not the disk, are most of an upload's time, so a
 * put makes as few as it can and stands as few as can be in a row on the way to the answer:
 *
 * - The file is created under a temp name (`.tmp-<pid>-<key>`, which tells a sweep it is
 *   unfinished and whether its writer still runs) while the first bytes are read.
 * - Once the body has been read, the last write runs beside the rename to the blob's own name
 *   and the folder fsync that follows it, instead of write, rename and fsync one after another.
 *   A crash between them can leave the own name on a partial file; no row names it (rows are
 *   written after the put resolves), so it costs space, never a document.
 * - The descriptor is closed on the event loop (`closeSync`): its bytes are on disk already, so
 *   the close writes nothing; it took 5–11 µs (at most 0.12 ms) at load 7, where a round trip
 *   to the pool costs the event loop more.
 *
 * Open, write, rename and folder fsync: four round trips (the folder fsyncs grouped,
 * `FsyncGroup`, on descriptors kept open). Doing the open and rename on the event loop instead
 * blocked it for 1 ms on average and up to 70 ms at load 13.
 */
export class LocalBlobStore implements BlobStore {
  /** Shard folders by their two hex digits; a promise so concurrent first puts share one mkdir and parent fsync. */
  private readonly folders = new Map<string, Promise<FsyncGroup>>();
  /** The blob folder itself: new shard folders made at once share its fsyncs. */
  private readonly root: FsyncGroup;

  constructor(readonly dir: string) {
    this.root = new FsyncGroup(dir);
  }

  async put(source: Readable | AsyncIterable<Uint8Array>, opts: { maxBytes?: number } = {}): Promise<PutResult> {
    const key = newBlobKey();
    const folder = await this.ensureFolder(key.slice(0, 2));
    // The pid in the name tells a sweep whether the process writing it is still alive.
    const tmp = join(folder.path, `${TMP_PREFIX}${process.pid}-${key}`);
    const path = join(folder.path, key);
    const opened = openFd(tmp, OPEN_FLAGS, 0o600);
    // Awaited below; until then a failure must not count as unhandled.
    opened.catch(() => {});
    const tally = new PutTally(opts.maxBytes);
    let renamed = false;
    try {
      let last: Promise<unknown> | null = null;
      const written = await writeGathered(opened, source, tally, (write) => (last = write));
      const fd = await opened;
      const sync = !O_DSYNC || written === 0 ? () => fsyncFd(fd) : () => undefined;
      const named = rename(tmp, path).then(() => {
        renamed = true;
        return folder.sync();
      });
      await settleAll([(last ?? Promise.resolve()).then(sync), named]);
      closeSync(fd);
    } catch (err) {
      await opened.then(closeSync).catch(() => {});
      await Promise.all([unlink(tmp).catch(() => {}), renamed ? unlink(path).catch(() => {}) : null]);
      throw err;
    }
    return tally.result(key);
  }

  /**
   * Creates the 256 shard folders now (those missing), so that puts do not each wait for a
   * `mkdir` and a fsync of the blob folder the first time they land in a shard: a new store
   * meets a new shard in most of its first thousand uploads.
   */
  async createFolders(): Promise<void> {
    await Promise.all(Array.from({ length: 256 }, (_, i) => this.ensureFolder(i.toString(16).padStart(2, '0'))));
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

  async close(): Promise<void> {
    const folders = [...this.folders.values()];
    this.folders.clear();
    await Promise.all([...folders.map((f) => f.then((g) => g.close(), () => {})), this.root.close()]);
  }

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
        // Whoever unlinks the temp name owns the file: a put that finds it gone fails.
        if (!stale || !(await unlink(p).then(() => true, () => false))) continue;
        removed++;
        // A temp file hard-linked to its blob's own name (a put that linked before renaming) loses both.
        const own = join(this.dir, shard, name.slice(name.lastIndexOf('-') + 1));
        const ownSt = await stat(own).catch(() => null);
        if (ownSt && ownSt.ino === st.ino && ownSt.dev === st.dev) await unlink(own).catch(() => {});
      }
    }
    return removed;
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), key);
  }

  /** The shard folder, created (and made durable in its parent) the first time it is used. */
  private ensureFolder(shard: string): Promise<FsyncGroup> {
    let folder = this.folders.get(shard);
    if (!folder) {
      const path = join(this.dir, shard);
      // Every put into the shard waits for the same mkdir and parent fsync, not only the first.
      // The folder's descriptor for its fsyncs is opened here too, so that `createFolders` at
      // start opens all 256 and no put's fsync waits for an open.
      folder = mkdir(path, { recursive: true }).then(async (created) => {
        const group = new FsyncGroup(path);
        await Promise.all([created !== undefined ? this.root.sync() : null, group.open()]);
        return group;
      });
      folder.catch(() => {
        if (this.folders.get(shard) === folder) this.folders.delete(shard);
      });
      this.folders.set(shard, folder);
    }
    return folder;
  }
}

/**
 * Writes the chunks of `source` to the file once open, in writes of up to `WRITE_BYTES`, each
 * tallied by `tally` as this loop reads it (a generator of its own between the two would cost
 * each chunk another promise); returns the bytes it wrote or started. The last write is started,
 * not awaited: it goes to `last`.
 */
async function writeGathered(file: Promise<number>, source: AsyncIterable<unknown>, tally: PutTally, last: (write: Promise<void>) => void): Promise<number> {
  let pending: Buffer[] = [];
  let size = 0;
  let total = 0;
  for await (const raw of source) {
    const chunk = tally.add(raw);
    pending.push(chunk);
    size += chunk.length;
    if (size >= WRITE_BYTES) {
      await writeAll(await file, pending, size);
      total += size;
      pending = [];
      size = 0;
    }
  }
  if (size > 0) {
    const write = file.then((fd) => writeAll(fd, pending, size));
    // The caller awaits it unless the open failed, which it learns from `file`.
    write.catch(() => {});
    last(write);
  }
  return total + size;
}

/** One writev of `size` bytes; a short write (a full disk) goes on with the rest or throws. */
async function writeAll(fd: number, chunks: Buffer[], size: number): Promise<void> {
  const { bytesWritten } = await writevFd(fd, chunks);
  if (bytesWritten === size) return;
  let rest = Buffer.concat(chunks, size).subarray(bytesWritten);
  while (rest.length > 0) {
    const r = await writeFd(fd, rest);
    if (r.bytesWritten === 0) throw new Error('short write to a blob file');
    rest = rest.subarray(r.bytesWritten);
  }
}

/** Waits for every promise, then rejects with the first failure, if any. */
async function settleAll(ps: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(ps)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

function notFound(err: unknown, key: string): Error {
  return (err as NodeJS.ErrnoException).code === 'ENOENT' ? new BlobNotFoundError(key) : (err as Error);
}

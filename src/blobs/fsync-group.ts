/**
 * Group fsync of one file or folder. `sync()` resolves once an fsync that started after the call
 * has finished, so whatever was written (or renamed into the folder) before the call is on disk.
 * Calls that arrive while one fsync runs share the next one, so N concurrent writers cost about
 * two fsyncs, not N. The descriptor stays open between syncs: opening and closing it around each
 * fsync cost two more thread-pool round trips per upload, a third of an upload's wait on a busy
 * machine (`npm run bench -- ingest`).
 */
import { open, type FileHandle } from 'node:fs/promises';

export class FsyncGroup {
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private handle: Promise<FileHandle> | null = null;

  /** `path`: a file or a folder that exists when the first `sync()` runs. */
  constructor(readonly path: string) {}

  /** Resolves when everything written to `path` before the call is on disk. */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.start();
    // The running fsync may have begun before the caller's write: wait for the next one.
    this.queued = this.inFlight
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  /**
   * Opens the descriptor ahead of the first `sync()`, which then waits for one round trip to
   * the thread pool fewer; a failure is left for that `sync()`, which opens the path itself.
   */
  async open(): Promise<void> {
    this.handle ??= open(this.path, 'r');
    const h = this.handle;
    await h.catch(() => {
      if (this.handle === h) this.handle = null;
    });
  }

  /** Closes the descriptor (the next `sync()` opens it again). */
  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    if (h) await (await h.catch(() => null))?.close().catch(() => {});
  }

  private start(): Promise<void> {
    const p = this.fsync().finally(() => {
      if (this.inFlight === p) this.inFlight = null;
    });
    this.inFlight = p;
    return p;
  }

  private async fsync(): Promise<void> {
    this.handle ??= open(this.path, 'r');
    const h = this.handle;
    try {
      await (await h).sync();
    } catch (err) {
      // A descriptor that failed once is not trusted again: the next sync opens the path anew.
      if (this.handle === h) await this.close();
      throw err;
    }
  }
}

/**
 * Group commit for SQLite's write-ahead log. A transaction committed with `synchronous=NORMAL`
 * is in the WAL but not yet on disk; `sync()` resolves once an fsync of the WAL that started
 * after the call has finished, so the commit is durable. The fsync runs on libuv's thread pool
 * (better-sqlite3's own FULL sync would stop the event loop for it), and every commit that
 * arrives while one fsync runs shares the next one: N concurrent uploads cost about two fsyncs,
 * not N.
 */
import { open } from 'node:fs/promises';

export class WalSync {
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  /** `dbPath`: the database file; its log is `dbPath-wal` (journal_mode=WAL). */
  constructor(private readonly dbPath: string) {}

  /** Resolves when everything committed before the call is on disk. */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.start();
    // The running fsync may have begun before our commit: wait for the next one.
    this.queued = this.inFlight
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<void> {
    const p = fsyncFile(`${this.dbPath}-wal`).finally(() => {
      if (this.inFlight === p) this.inFlight = null;
    });
    this.inFlight = p;
    return p;
  }
}

async function fsyncFile(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

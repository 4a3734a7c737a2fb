/**
 * Live batch rows by account and name, per connection, so a status poll reads no table while
 * nothing was written. Every entry holds only while the database is as it was when read:
 * `data_version` unmoved (no other connection committed; the change epoch, read at most once
 * per event-loop turn as the key cache reads it) and no row of `batches` written by this
 * connection, committed or not (`batchWrites`). Any write to a batch row empties the cache, so an
 * answer is never older than the epoch the key cache already trusts for revocations. A status read cost
 * 11–15 µs of CPU in the row read, 5 µs of it the file locks every read transaction takes, and
 * far more on a busy machine (61 µs a request at load 7, a fifth of the request).
 */
import type { BatchRow } from '../types.js';
import type { Db } from './db.js';

/** Enough for every batch a busy instance's clients poll at once; past it the oldest name goes. */
const MAX_ENTRIES = 10_000;

export class BatchRowCache {
  private readonly rows = new Map<string, Map<string, BatchRow>>();
  private size = 0;
  private seenVersion = NaN;
  private seenChanges = NaN;

  /**
   * @param version the epoch of other connections' commits (-1: unknown, nothing is cached)
   * @param changes rows this connection has changed since it opened
   */
  constructor(
    private readonly version: () => number,
    private readonly changes: () => number,
  ) {}

  /** The row from the cache when it is still the database's, else from `read` (then cached, frozen). */
  get(accountId: string, name: string, read: () => BatchRow | null): BatchRow | null {
    const v = this.version();
    const c = this.changes();
    if (v !== this.seenVersion || c !== this.seenChanges) {
      this.rows.clear();
      this.size = 0;
      this.seenVersion = v;
      this.seenChanges = c;
    }
    const hit = this.rows.get(accountId)?.get(name);
    if (hit) return hit;
    const row = read();
    if (!row || v === -1) return row;
    if (this.size >= MAX_ENTRIES) this.dropOne();
    let names = this.rows.get(accountId);
    if (!names) this.rows.set(accountId, (names = new Map()));
    Object.freeze(row.counts);
    names.set(name, Object.freeze(row));
    this.size++;
    return row;
  }

  private dropOne(): void {
    const [accountId, names] = this.rows.entries().next().value!;
    names.delete(names.keys().next().value!);
    if (!names.size) this.rows.delete(accountId);
    this.size--;
  }
}

/** Writes to `batches` on each connection, counted by its TEMP triggers (`watchBatchWrites`). */
const writes = new WeakMap<Db, { n: number }>();

/**
 * Counts this connection's writes to `batches` from now on: TEMP triggers (this connection's
 * only) call back on each row inserted, updated or deleted. The rate-limit counters an
 * authenticated request writes are not batch rows, so they leave cached batch rows standing.
 * Idempotent; a no-op until the table exists (`migrate` calls it again).
 */
export function watchBatchWrites(db: Db): void {
  if (writes.has(db)) return;
  if (!db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'batches'").get()) return;
  const count = { n: 0 };
  db.function('tablemill_batch_written', { deterministic: false, directOnly: false }, () => {
    count.n++;
    return null;
  });
  for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS tablemill_batch_${op.toLowerCase()} AFTER ${op} ON main.batches BEGIN SELECT tablemill_batch_written(); END`);
  }
  writes.set(db, count);
}

/**
 * The `changes` of a BatchRowCache for `db`: its batch-row writes once they are watched, before
 * that every row this connection changed (`total_changes()`), which moves with any write.
 */
export function batchWrites(db: Db): () => number {
  watchBatchWrites(db);
  const total = db.prepare('SELECT total_changes()').pluck();
  return () => {
    const w = writes.get(db);
    return w ? w.n : -1 - (total.get() as number);
  };
}

/**
 * Live batch rows by account and name, per connection, so a status poll reads no table while
 * nothing was written. Every entry holds only while the database is as it was when read:
 * `data_version` unmoved (no other connection committed; the change epoch, read at most once
 * per event-loop turn as the key cache reads it) and `total_changes()` unmoved (this connection
 * changed no row, committed or not). Any write anywhere empties the cache, so an answer is never
 * older than the epoch the key cache already trusts for revocations. A status read cost
 * 11–15 µs of CPU in the row read, 5 µs of it the file locks every read transaction takes, and
 * far more on a busy machine (61 µs a request at load 7, a fifth of the request).
 */
import type { BatchRow } from '../types.js';

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

/**
 * Verified API keys, per process, so a status poll does not read its key from the database each
 * time. Kept in step by the change stream: a revocation (`keys`) empties the cache on every
 * process, and an entry counts only while the stream's epoch is the one it was read under (a
 * PostgreSQL listener that dropped, or another process committing to the SQLite file, may have
 * hidden a revocation). Unknown and revoked keys are never cached: each such request reads.
 */
import type { ChangeStream } from '../store/changes.js';
import type { KeyAuth } from '../store/types.js';

/** A bound on staleness should the stream ever go quiet without saying so (a silent network partition). */
const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  auth: KeyAuth;
  epoch: number;
  at: number;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * The same entries by the raw key a request carried, so a verified key is not hashed again
   * on every request (sha256 cost a status request 0.5 µs quietly, 2 µs at load 16). A lookup
   * compares a probe's content with a stored key only when their seeded string hashes are
   * equal, so the time a wrong key takes tells nothing about a right one.
   */
  private readonly tokens = new Map<string, Entry>();
  /** Moves on every `keys` change: a read that started before one must not be cached after it. */
  private revocations = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly changes: ChangeStream,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = changes.subscribe('keys', () => {
      this.revocations++;
      this.entries.clear();
      this.tokens.clear();
    });
  }

  /** The key's auth from the cache, else from `load` (cached when found and the stream is live). */
  async get(keyHash: string, load: () => Promise<KeyAuth | null>): Promise<KeyAuth | null> {
    const epoch = this.changes.epoch();
    const hit = this.hit(keyHash, epoch);
    if (hit) return hit;
    const seen = this.revocations;
    const auth = await load();
    if (auth && epoch !== -1 && seen === this.revocations && this.changes.epoch() === epoch) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(keyHash, { auth, epoch, at: this.now() });
    }
    return auth;
  }

  /**
   * The auth of the raw key `token` when the cache holds it and may trust it now; never reads
   * the database. The key is hashed (`hashOf`) only the first time this process sees it while
   * its entry holds.
   */
  peekToken(token: string, hashOf: (token: string) => string): KeyAuth | null {
    if (!this.entries.size) return null;
    const epoch = this.changes.epoch();
    const linked = this.tokens.get(token);
    if (linked && this.holds(linked, epoch)) return linked.auth;
    if (linked) this.tokens.delete(token);
    const keyHash = hashOf(token);
    const auth = this.hit(keyHash, epoch);
    if (auth) {
      if (this.tokens.size >= MAX_ENTRIES) this.tokens.delete(this.tokens.keys().next().value!);
      this.tokens.set(token, this.entries.get(keyHash)!);
    }
    return auth;
  }

  private holds(e: Entry, epoch: number): boolean {
    return e.epoch === epoch && epoch !== -1 && this.now() - e.at < TTL_MS;
  }

  private hit(keyHash: string, epoch: number): KeyAuth | null {
    const hit = this.entries.get(keyHash);
    if (hit && this.holds(hit, epoch)) return hit.auth;
    if (hit) this.entries.delete(keyHash);
    return null;
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
    this.tokens.clear();
  }
}

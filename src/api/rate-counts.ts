/**
 * Rate-limit counts kept in memory and settled with the store's shared counters in the
 * background (API.md §6). Counting each request with a write to the store cost a status request
 * a SQLite write transaction (~65 µs of CPU; 0.34× `/healthz`); here a key's requests are counted
 * in this process and sent to the store as one increment at most every 250 ms, which answers the
 * cluster's total for the key's window.
 *
 * The bound: far from its limit a key is counted in memory, at most `share` (a tenth of the
 * limit) points ahead of the store, counting the points sent and not yet answered; once its
 * count is within `share` of the limit, or its unconfirmed points reach `share`, each request
 * waits for the store's total before it is answered. A process's view of the others' counts is
 * as old as its last answer from the store, so each may admit its `share` beyond the limit: with
 * N processes a key gets at most its limit plus N × `share` in a window (144 of 120 status
 * requests a minute with two processes); one process alone is exact.
 *
 * When the store cannot count (a full disk, a database away) the processes count alone: a read
 * or an upload is answered (the upload then meets its own 507), never refused because the
 * counter could not be written, and the store is tried again after 5 s (or, after a write met a
 * full disk, once something was stored again or a minute passed).
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** A key's count after a request. */
export interface Count {
  allowed: boolean;
  remaining: number;
  msBeforeNext: number;
}

interface Entry {
  /** The cluster's total for the window as the store last answered it (ours included). */
  seen: number;
  /** Points sent to the store and not yet answered. */
  sending: number;
  /** Points counted here and not yet sent. */
  pending: number;
  /** When the window ends (from the store once it answered; until then from the first hit). */
  resetAt: number;
}

export interface SettledCountsOptions {
  /** The store's counter (made on first use: the store may not be open when this is built). */
  store: () => RateLimiterAbstract;
  points: number;
  windowMs: number;
  /** Longest a counted point waits before it is sent. */
  settleMs?: number;
  now?: () => number;
  /** Told of each failure to reach the store (log, metric). */
  onFault?: (err: unknown) => void;
  /**
   * True while the store is known unable to take a write (its disk full): count here and send
   * nothing, so a refused request writes nothing at all, not even the start of a WAL frame.
   */
  paused?: () => boolean;
}

/** After the store failed, how long the processes count alone before trying it again. */
const FAULT_BACKOFF_MS = 5000;

export class SettledCounts {
  /** Points a process may count ahead of the store; the bound's unit. */
  readonly share: number;
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly settleMs: number;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private faultUntil = 0;

  constructor(private readonly opts: SettledCountsOptions) {
    this.share = Math.max(1, Math.ceil(opts.points / 10));
    this.now = opts.now ?? Date.now;
    this.settleMs = opts.settleMs ?? 250;
  }

  private entry(key: string, t: number): Entry {
    let e = this.entries.get(key);
    if (!e || t >= e.resetAt) {
      e = { seen: 0, sending: 0, pending: 0, resetAt: t + this.opts.windowMs };
      this.entries.set(key, e);
    }
    return e;
  }

  private count(e: Entry, used: number, t: number, allowed: boolean): Count {
    return { allowed, remaining: Math.max(0, this.opts.points - used), msBeforeNext: Math.max(0, e.resetAt - t) };
  }

  /** The key's count as this process sees it, without counting anything or asking the store. */
  peek(key: string): Count {
    const t = this.now();
    const e = this.entry(key, t);
    const used = e.seen + e.sending + e.pending;
    return this.count(e, used, t, used < this.opts.points);
  }

  /**
   * Counts one request of `key`: answered from memory far from the limit (and when the view is
   * already full: refused, not counted), from the store's total near it.
   */
  hit(key: string): Count | Promise<Count> {
    const t = this.now();
    const e = this.entry(key, t);
    const { points } = this.opts;
    const used = e.seen + e.sending + e.pending;
    if (used >= points) return this.count(e, used, t, false);
    // Points sent and not yet answered are as unconfirmed as points not sent: together they are
    // what this process may count ahead of the store.
    const near = used + 1 > points - this.share || e.pending + e.sending + 1 > this.share;
    if (!near || !this.canSend(t)) {
      e.pending++;
      this.schedule();
      return this.count(e, used + 1, t, true);
    }
    return this.send(key, e, 1).then((total) => {
      const now = this.now();
      // The store away: this process's own count decides.
      if (total === null) return this.count(e, used + 1, now, true);
      return this.count(e, total, now, total <= points);
    });
  }

  private canSend(t: number): boolean {
    return t >= this.faultUntil && !this.opts.paused?.();
  }

  /** Sends the key's pending points plus `extra`; the store's total, or null when it failed (points kept). */
  private async send(key: string, e: Entry, extra: number): Promise<number | null> {
    const n = e.pending + extra;
    e.pending = 0;
    e.sending += n;
    let res: RateLimiterRes;
    try {
      res = await this.opts.store().consume(key, n);
    } catch (err) {
      if (err instanceof RateLimiterRes) res = err;
      else {
        e.sending -= n;
        e.pending += n;
        this.faultUntil = this.now() + FAULT_BACKOFF_MS;
        this.schedule();
        this.opts.onFault?.(err);
        return null;
      }
    }
    e.sending -= n;
    e.seen = Math.max(e.seen, res.consumedPoints);
    e.resetAt = this.now() + res.msBeforeNext;
    return res.consumedPoints;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(this.settleMs, this.faultUntil - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, wait);
    this.timer.unref();
  }

  /** Sends every key's pending points (one increment a key) and forgets ended windows. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      const t = this.now();
      const send = this.canSend(t);
      const sends: Promise<unknown>[] = [];
      for (const [key, e] of this.entries) {
        if (e.pending > 0) {
          if (send) sends.push(this.send(key, e, 0));
          else this.schedule();
        }
        else if (t >= e.resetAt && e.sending === 0) this.entries.delete(key);
      }
      await Promise.all(sends);
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the timer and sends what is pending (a closing process's counts reach the store). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

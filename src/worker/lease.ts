/** Keeps a claimed document's lease alive while a worker processes it. */
import type { ClaimedDocument, Store } from '../store/types.js';

export interface LeaseRenewal {
  /** Aborted once the lease is lost: stop working on the document, its outcome would be discarded. */
  readonly signal: AbortSignal;
  /** True once the lease is lost. */
  readonly lost: boolean;
  /** Stops renewing (the document was completed or abandoned). */
  stop(): void;
}

export interface LeaseRenewalOptions {
  /** Clock, injectable for tests. */
  now?: () => number;
  /** Called once when the lease is lost, with why. */
  onLost?: (reason: string) => void;
}

/**
 * Renews every `leaseMs / 3`: two renewals can fail (a slow or restarting database) before the
 * lease runs out. Lost when the store answers that another attempt holds the document, or when
 * no renewal has succeeded for a whole `leaseMs` (the reaper may have handed it on by then).
 */
export function startLeaseRenewal(store: Store, doc: Pick<ClaimedDocument, 'id' | 'attempt'>, leaseMs: number, opts: LeaseRenewalOptions = {}): LeaseRenewal {
  const now = opts.now ?? Date.now;
  const ctl = new AbortController();
  let stopped = false;
  let lastOk = now();
  let inFlight = false;

  const lose = (reason: string) => {
    if (ctl.signal.aborted) return;
    clearInterval(timer);
    ctl.abort(new Error(reason));
    opts.onLost?.(reason);
  };

  const tick = async () => {
    if (stopped || inFlight || ctl.signal.aborted) return;
    inFlight = true;
    try {
      const t = now();
      if (await store.renewLease(doc.id, doc.attempt, leaseMs, t)) lastOk = t;
      else if (!stopped) lose(`lease of ${doc.id} attempt ${doc.attempt} is held by another attempt`);
    } catch {
      if (!stopped && now() - lastOk >= leaseMs) lose(`lease of ${doc.id} could not be renewed for ${leaseMs} ms`);
    } finally {
      inFlight = false;
    }
  };

  const timer = setInterval(() => void tick(), Math.max(10, Math.floor(leaseMs / 3)));
  timer.unref?.();

  return {
    signal: ctl.signal,
    get lost() {
      return ctl.signal.aborted;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

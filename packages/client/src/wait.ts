/**
 * Waiting for a batch: long-polls the status endpoint (`?wait=30` with `If-None-Match`, API.md
 * §3), so an unchanged batch costs one request per 30 s. A batch that changes often (each
 * finished document answers a poll at once) is still read at most once per `minIntervalMs`
 * (1 s: 60 requests a minute, half the status limit of 120). A 429 waits its `Retry-After`;
 * network errors and 5xx answers back off exponentially with jitter, up to 30 s.
 */
import type { Batch } from './types.js';
import { TablemillApiError, TablemillTimeoutError } from './errors.js';

export interface WaitOptions {
  /** Give up (TablemillTimeoutError) after this long; default 24 h. */
  timeoutMs?: number;
  /** Seconds each long-poll may hold (≤ 30). */
  waitS?: number;
  /** Least time between two requests' starts. */
  minIntervalMs?: number;
  /** Called with every new status (not on 304), e.g. for a progress bar. */
  onStatus?: (batch: Batch) => void;
  signal?: AbortSignal;
}

/** One conditional read of the status endpoint: `null` batch on 304. */
export type StatusRead = (etag: string | null, waitS: number, signal?: AbortSignal) => Promise<{ batch: Batch | null; etag: string | null }>;

const MAX_BACKOFF_MS = 30_000;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A transient failure worth retrying: no answer at all, or a 5xx. */
function transient(err: unknown): boolean {
  if (err instanceof TablemillApiError) return err.status >= 500;
  return err instanceof TypeError; // fetch's network errors
}

/** Reads the batch until `all_done`; resolves with that final status. */
export async function waitForBatch(read: StatusRead, name: string, opts: WaitOptions = {}): Promise<Batch> {
  const deadline = Date.now() + (opts.timeoutMs ?? 86_400_000);
  const waitS = Math.min(30, Math.max(0, opts.waitS ?? 30));
  const minInterval = opts.minIntervalMs ?? 1000;
  let etag: string | null = null;
  let last: Batch | null = null;
  let failures = 0;
  for (;;) {
    const started = Date.now();
    const left = deadline - started;
    if (left <= 0) throw new TablemillTimeoutError(`batch ${name} not done after ${opts.timeoutMs} ms${last ? `: ${JSON.stringify(last.counts)}` : ''}`, last);
    let pause = 0;
    try {
      // The first read answers at once (no ETag yet); later ones hold until a change.
      const r = await read(etag, etag ? Math.min(waitS, Math.ceil(left / 1000)) : 0, opts.signal);
      failures = 0;
      if (r.batch) {
        last = r.batch;
        etag = r.etag;
        opts.onStatus?.(r.batch);
        if (r.batch.all_done) return r.batch;
      }
      pause = minInterval - (Date.now() - started);
    } catch (err) {
      if (err instanceof TablemillApiError && err.status === 429) pause = (err.retryAfterS ?? 60) * 1000;
      else if (transient(err) && !opts.signal?.aborted) pause = Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures++) * (0.5 + Math.random() / 2);
      else throw err;
    }
    if (pause > 0) await sleep(Math.min(pause, Math.max(0, deadline - Date.now())), opts.signal);
  }
}

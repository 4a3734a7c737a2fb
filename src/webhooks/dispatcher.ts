/**
 * The webhook dispatcher: turns new batch events into first attempts, claims due attempts,
 * sends them signed, and records each outcome with the next attempt in one transaction. All
 * state is in the database, so a restart loses nothing and several processes (serve and
 * workers in cluster mode) can run one each: the claim hands an attempt to exactly one.
 */
import type { Config } from '../config.js';
import { newId } from '../domain/names.js';
import { batchView, iso } from '../contract/views.js';
import type { BatchCompletedEvent } from '../contract/webhooks.js';
import type { BatchRow } from '../store/types.js';
import type { ChangeStream } from '../store/changes.js';
import type { AttemptResult, ClaimedDelivery, WebhookStore } from '../store/webhooks.js';
import { sendWebhook, type SendOutcome } from './send.js';

export interface DispatcherOptions {
  config: Pick<Config, 'webhooks'>;
  webhooks: WebhookStore;
  /** The Store's change stream: a `webhooks` change (an event written, a redelivery) starts a round now. */
  changes?: ChangeStream;
  now?: () => number;
  /** Idle wait between polls. 500 ms: a finished batch is announced within about half a second. */
  pollMs?: number;
  /** Attempts in flight at once, all receivers together. */
  maxInFlight?: number;
  /** Attempts in flight at once to one receiving host (name and port, every path of it). */
  perReceiver?: number;
  /** Attempts in flight at once of one account's webhooks, all its receivers together. */
  perAccount?: number;
  onError?: (err: unknown) => void;
  /** Told of every attempt once its outcome is recorded (log line, metrics). */
  onAttempt?: (attempt: AttemptReport) => void;
}

/** One finished delivery attempt. */
export interface AttemptReport {
  delivery_id: string;
  event_id: string;
  batch_id: string;
  attempt: number;
  /** `delivered`, `retry` (another attempt is scheduled), `failed` (schedule spent) or `disabled` (410). */
  outcome: 'delivered' | 'retry' | 'failed' | 'disabled';
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

function outcomeOf(r: AttemptResult): AttemptReport['outcome'] {
  if (r.status === 'delivered') return 'delivered';
  if (r.disable) return 'disabled';
  return r.retry_at === null ? 'failed' : 'retry';
}

export interface Dispatcher {
  /** Wakes the loop now (e.g. after a redelivery). */
  kick(): void;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/** The JSON body of a `batch.completed` event; the same bytes on every attempt. */
export function eventBody(claim: Pick<ClaimedDelivery, 'event_id' | 'event_type' | 'event_created_at' | 'batch_json' | 'url'>): string {
  const snap = JSON.parse(claim.batch_json) as BatchRow;
  const batch = batchView({ ...snap, webhook_url: snap.webhook_url ?? claim.url });
  const event: BatchCompletedEvent = { id: claim.event_id, type: claim.event_type, created_at: iso(claim.event_created_at) as string, data: { batch } };
  return JSON.stringify(event);
}

/**
 * The delay before the attempt after `attempt` (1-based), or null when the schedule is spent.
 * ±10 % jitter so receivers that failed together are not retried together.
 */
export function retryDelay(schedule: number[], attempt: number, random = Math.random): number | null {
  if (attempt > schedule.length) return null;
  return Math.round(schedule[attempt - 1] * (0.9 + 0.2 * random()));
}

/** What an attempt's outcome means: delivered, retried later, or (410) the webhook disabled. */
export function judge(out: SendOutcome, attempt: number, schedule: number[], now: number): AttemptResult {
  if (out.status !== null && out.status >= 200 && out.status < 300) {
    return { status: 'delivered', response_status: out.status, error: null, retry_at: null, disable: false };
  }
  if (out.status === 410) {
    return { status: 'failed', response_status: 410, error: 'receiver answered 410 Gone: webhook disabled', retry_at: null, disable: true };
  }
  const delay = retryDelay(schedule, attempt);
  return {
    status: 'failed',
    response_status: out.status,
    error: out.error ?? `receiver answered ${out.status}`,
    retry_at: delay === null ? null : now + delay,
    disable: false,
  };
}

/**
 * Starts the loop; it runs until `stop()`. Sends run side by side, each on its own: a free slot
 * is filled by the next claim at once, never after the slowest send of a round (one receiver
 * that did not answer held every other batch's event for its whole timeout). A receiving host
 * gets at most `perReceiver` sends at once and an account at most `perAccount`; their other due
 * attempts stay in the database for whoever is free to send them, so one account's hanging
 * receivers, on one host or many, hold only its own deliveries.
 */
export function startDispatcher(opts: DispatcherOptions): Dispatcher {
  const now = opts.now ?? Date.now;
  const { timeoutMs, retryScheduleMs, allowPrivate } = opts.config.webhooks;
  const pollMs = opts.pollMs ?? 500;
  // Sends waiting on sockets cost little, so there are many slots; 2 a host keeps one slow
  // host's backlog (100 batches on paths of one hanging host delayed another account's event by
  // 9.8 s when the cap was per URL) from filling them, and 32 an account leaves 7 accounts'
  // worth of slots to the others when one account's receivers all hang.
  const maxInFlight = opts.maxInFlight ?? 256;
  const perReceiver = opts.perReceiver ?? 2;
  const perAccount = opts.perAccount ?? 32;
  // The lease outlives the send's own time limit, so a live sender never loses its claim.
  const leaseMs = timeoutMs + 30_000;
  let stopped = false;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  const inFlight = new Set<Promise<void>>();
  const byReceiver = new Map<string, number>();
  const byAccount = new Map<string, number>();

  async function attempt(claim: ClaimedDelivery): Promise<void> {
    const started = performance.now();
    const out = await sendWebhook({ url: claim.url, secret: claim.secret, eventId: claim.event_id, body: eventBody(claim), timeoutMs, allowPrivate });
    const t = now();
    const result = judge(out, claim.attempt, retryScheduleMs, t);
    const recorded = await opts.webhooks.finishAttempt(claim, result, newId('dlv'), t);
    if (!recorded) return;
    opts.onAttempt?.({
      delivery_id: claim.id,
      event_id: claim.event_id,
      batch_id: claim.batch_id,
      attempt: claim.attempt,
      outcome: outcomeOf(result),
      response_status: result.response_status,
      error: result.error,
      duration_ms: Math.round(performance.now() - started),
    });
  }

  function count(map: Map<string, number>, key: string, by: number): void {
    const n = (map.get(key) ?? 0) + by;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  }

  function start(claim: ClaimedDelivery): void {
    count(byReceiver, claim.receiver, 1);
    count(byAccount, claim.account_id, 1);
    const p: Promise<void> = attempt(claim)
      .catch((err) => opts.onError?.(err))
      .finally(() => {
        inFlight.delete(p);
        count(byReceiver, claim.receiver, -1);
        count(byAccount, claim.account_id, -1);
        // A freed slot (or receiver) may take an attempt that is due now.
        wake?.();
      });
    inFlight.add(p);
  }

  /** Claims what the free slots can take and starts it; true when more may be due at once. */
  async function fill(): Promise<boolean> {
    const free = maxInFlight - inFlight.size;
    if (free <= 0) return false;
    await opts.webhooks.enqueueEvents(now());
    const busyReceivers = [...byReceiver].filter(([, n]) => n >= perReceiver).map(([host]) => host);
    const accountRoom = Object.fromEntries([...byAccount].map(([account, n]) => [account, Math.max(0, perAccount - n)]));
    const claims = await opts.webhooks.claimDeliveries(free, leaseMs, now(), { busyReceivers, accountRoom, perAccount });
    for (const c of claims) start(c);
    // One claim takes one attempt per host: any claim may have left more due behind it.
    return claims.length > 0;
  }

  const unsubscribe = opts.changes?.subscribe('webhooks', () => wake?.());

  const loop = (async () => {
    while (!stopped) {
      let more = false;
      try {
        more = await fill();
      } catch (err) {
        opts.onError?.(err);
      }
      if (more || stopped) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, pollMs);
      });
      wake = null;
    }
  })();

  return {
    kick() {
      wake?.();
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
      await Promise.all(inFlight);
    },
  };
}

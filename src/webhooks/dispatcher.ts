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
  /** Attempts claimed (and sent concurrently) per round. */
  batchSize?: number;
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

/** Starts the loop; it runs until `stop()`. */
export function startDispatcher(opts: DispatcherOptions): Dispatcher {
  const now = opts.now ?? Date.now;
  const { timeoutMs, retryScheduleMs, allowPrivate } = opts.config.webhooks;
  const pollMs = opts.pollMs ?? 500;
  const batchSize = opts.batchSize ?? 16;
  // The lease outlives the send's own time limit, so a live sender never loses its claim.
  const leaseMs = timeoutMs + 30_000;
  let stopped = false;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;

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

  async function round(): Promise<number> {
    await opts.webhooks.enqueueEvents(now());
    const claims = await opts.webhooks.claimDeliveries(batchSize, leaseMs, now());
    await Promise.all(claims.map((c) => attempt(c).catch((err) => opts.onError?.(err))));
    return claims.length;
  }

  const unsubscribe = opts.changes?.subscribe('webhooks', () => wake?.());

  const loop = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        busy = (await round()) === batchSize;
      } catch (err) {
        opts.onError?.(err);
      }
      if (busy || stopped) continue;
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
    },
  };
}

/**
 * Store-side interfaces of issue 5: webhooks and their delivery log, idempotency keys, and the
 * rate-limit counters' home. Implemented per dialect in `sqlite/webhooks*.ts`,
 * `sqlite/idempotency*.ts`, `postgres/…` over the adapter's own handle, with tables from
 * migrations 100 and up. Times are integer milliseconds since the epoch.
 */
import type { Store } from './types.js';

/** The callback registered on a batch (one per batch). */
export interface WebhookRow {
  batch_id: string;
  account_id: string;
  url: string;
  secret: string;
  created_at: number;
  /** Set when a receiver answered 410 Gone; a disabled webhook gets no deliveries. */
  disabled_at: number | null;
  disabled_reason: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt to deliver one event. A failed attempt that will be retried points at the next. */
export interface DeliveryRow {
  id: string;
  batch_id: string;
  event_id: string;
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  error: string | null;
  created_at: number;
  next_attempt_at: number | null;
}

/** A pending attempt handed to one dispatcher, with what it needs to send. */
export interface ClaimedDelivery extends DeliveryRow {
  /** Fences `finishAttempt`: a dispatcher whose claim expired writes nothing. */
  claim_token: string;
  url: string;
  secret: string;
  event_type: string;
  event_created_at: number;
  /** The BatchRow snapshot the store wrote with the event (JSON text). */
  batch_json: string;
}

/** How an attempt ended, decided by the dispatcher. */
export interface AttemptResult {
  status: 'delivered' | 'failed';
  response_status: number | null;
  error: string | null;
  /** When to try again (a new pending attempt is written), or null: this was the last one. */
  retry_at: number | null;
  /** Disable the webhook (410 Gone) and fail its other pending deliveries. */
  disable: boolean;
}

export interface WebhookStore {
  /** Registers or replaces the batch's webhook (a replaced one starts over: enabled, new time). */
  putWebhook(accountId: string, batchId: string, url: string, secret: string, now: number): Promise<WebhookRow>;
  getWebhook(batchId: string): Promise<WebhookRow | null>;
  /** Removes it and fails its pending deliveries; false if there was none. */
  deleteWebhook(batchId: string, now: number): Promise<boolean>;
  /** Newest first. */
  listDeliveries(batchId: string, limit: number): Promise<DeliveryRow[]>;
  getDelivery(batchId: string, deliveryId: string): Promise<DeliveryRow | null>;
  /** A new pending attempt of that delivery's event, due now; null if no such delivery. */
  redeliver(batchId: string, deliveryId: string, now: number): Promise<DeliveryRow | null>;
  /**
   * Turns every batch event of an enabled webhook's batch (created since the webhook was) that
   * has no delivery yet into a first pending attempt. Safe to run from several processes.
   */
  enqueueEvents(now: number): Promise<number>;
  /** Claims up to `limit` due pending attempts for `leaseMs` (SKIP LOCKED / guarded update). */
  claimDeliveries(limit: number, leaseMs: number, now: number): Promise<ClaimedDelivery[]>;
  /** Records the attempt (and the next one, and disabling) in one transaction; false if the claim was lost. */
  finishAttempt(claim: ClaimedDelivery, result: AttemptResult, newDeliveryId: string, now: number): Promise<boolean>;
}

/** What `beginIdempotent` found for a key; the caller compares `request_hash` (422 on a mismatch). */
export type IdempotencyBegin =
  | { state: 'started' }
  | { state: 'in_progress'; request_hash: string | null }
  | { state: 'done'; request_hash: string; status: number; headers: Record<string, string>; body: string };

export interface IdempotencyStore {
  /**
   * Takes the key for this request (scope = the API key's hash) or reports what holds it. A row
   * whose lock ran out (its process died mid-request) is taken over; expired rows start afresh.
   * `requestHash` may be null when it is only known after the request ran (multipart uploads).
   */
  beginIdempotent(scope: string, key: string, requestHash: string | null, now: number, lockMs: number, ttlMs: number): Promise<IdempotencyBegin>;
  /** Stores the response to replay, with the request's hash. */
  completeIdempotent(scope: string, key: string, requestHash: string, status: number, headers: Record<string, string>, body: string): Promise<void>;
  /** Frees the key (the request failed; nothing it did needs replaying). */
  releaseIdempotent(scope: string, key: string): Promise<void>;
  purgeIdempotent(now: number): Promise<number>;
}

/** Where rate-limiter-flexible keeps its counters: the table of migration 102 on the store's own handle. */
export type RateLimitBackend =
  | { kind: 'sqlite'; db: unknown; tableName: string }
  | { kind: 'postgres'; pool: unknown; tableName: string; schemaName: string | null };

type Raw = Record<string, unknown>;
const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Maps a `webhooks` row (either dialect). */
export function toWebhook(r: Raw): WebhookRow {
  return {
    batch_id: r.batch_id as string,
    account_id: r.account_id as string,
    url: r.url as string,
    secret: r.secret as string,
    created_at: Number(r.created_at),
    disabled_at: n(r.disabled_at),
    disabled_reason: (r.disabled_reason as string | null) ?? null,
  };
}

/** Maps a `webhook_deliveries` row (either dialect; pg hands BIGINT back as text). */
export function toDelivery(r: Raw): DeliveryRow {
  return {
    id: r.id as string,
    batch_id: r.batch_id as string,
    event_id: r.event_id as string,
    attempt: Number(r.attempt),
    status: r.status as DeliveryRow['status'],
    response_status: n(r.response_status),
    error: (r.error as string | null) ?? null,
    created_at: Number(r.created_at),
    next_attempt_at: n(r.next_attempt_at),
  };
}

/** The issue-5 extensions of one opened Store. */
export interface StoreExtensions {
  webhooks: WebhookStore;
  idempotency: IdempotencyStore;
  rateLimit: RateLimitBackend;
}

/**
 * The extensions for a Store, picked by the adapter's handle (`db` = better-sqlite3, `pool` =
 * pg). The dialect modules are loaded lazily so embedded mode never loads `pg`.
 */
export async function storeExtensions(store: Store, dbSchema: string | null): Promise<StoreExtensions> {
  const handle = store as unknown as { db?: unknown; pool?: unknown };
  if (handle.pool) {
    const m = await import('./postgres/webhooks-extensions.js');
    return m.postgresExtensions(handle.pool, dbSchema);
  }
  if (handle.db) {
    const m = await import('./sqlite/webhooks-extensions.js');
    return m.sqliteExtensions(handle.db);
  }
  throw new Error('store adapter exposes neither db nor pool');
}

/**
 * The webhooks of batches and their delivery log, as the Store keeps them (tables of migration
 * 100). Implemented per dialect in `sqlite/webhooks.ts` and `postgres/webhooks.ts`.
 */

/**
 * The receiving host of a callback URL, `host:port` with the scheme's port when the URL names
 * none: what the dispatcher caps sends per, since every path of one host shares its sockets.
 */
export function receiverOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
}

/** How a claim shares the sends in flight (the dispatcher's, per process). */
export interface ClaimFairness {
  /** Receivers (`receiverOf`) already at their cap: none of their attempts is claimed. */
  busyReceivers?: readonly string[];
  /** Sends each account named may still start (its cap less those in flight). */
  accountRoom?: Readonly<Record<string, number>>;
  /** Sends an account not in `accountRoom` may start; default: the claim's limit. */
  perAccount?: number;
}

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
  account_id: string;
  url: string;
  /** `receiverOf(url)`. */
  receiver: string;
  secret: string;
  event_type: 'batch.completed';
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
  /**
   * Claims up to `limit` due pending attempts for `leaseMs` (guarded update), earliest first: at
   * most one per receiving host, none for the busy ones, and no more of an account than its room,
   * so neither one slow host's backlog nor one account's many hosts fill a claim.
   */
  claimDeliveries(limit: number, leaseMs: number, now: number, fair?: ClaimFairness): Promise<ClaimedDelivery[]>;
  /** Records the attempt (and the next one, and disabling) in one transaction; false if the claim was lost. */
  finishAttempt(claim: ClaimedDelivery, result: AttemptResult, newDeliveryId: string, now: number): Promise<boolean>;
}

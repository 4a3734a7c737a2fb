/**
 * The one async interface over the system of record. Two adapters implement it
 * (`sqlite/`, `postgres/`) and one contract suite (`test/store/contract.ts`) runs against both.
 * Nothing outside `src/store/` knows which database is behind it; SQL lives only in
 * `src/store/<dialect>/`. Times are integer milliseconds since the epoch.
 */
import type { StatusCounts } from '../domain/batch.js';
import type { ProcessingError } from '../domain/errors.js';
import type { InternalState } from '../domain/status.js';
import type { BlobStore } from '../blobs/types.js';
import type { ChangeStream } from './changes.js';
import type { IdempotencyStore } from './idempotency.js';
import type { RateLimitCounters } from './rate-limits.js';
import type { RetentionStore } from './retention.js';
import type { ReviewStore } from './review.js';
import type { WebhookStore } from './webhooks.js';

export interface Account {
  id: string;
  name: string;
  created_at: number;
}

/** An API key as listed: never the key or its hash. */
export interface ApiKeyRow {
  id: string;
  account_name: string;
  created_at: number;
  /** Updated at most once a minute (see `touchApiKey`). */
  last_used_at: number | null;
  revoked_at: number | null;
}

/** What authenticating a key finds: its account, and the key's id and last use. */
export interface KeyAuth {
  account: Account;
  key_id: string;
  last_used_at: number | null;
}

/** A batch row: the live (not deleted) batch of that name in its account. */
export interface BatchRow {
  id: string;
  account_id: string;
  name: string;
  counts: StatusCounts;
  document_count: number;
  /** Documents uploaded and not yet submitted by a process call (state `uploaded`). */
  awaiting_process: number;
  created_at: number;
  /** Earliest document `started_at`, null if none started. */
  min_started_at: number | null;
  /** Latest document `completed_at`, null if none completed. */
  max_completed_at: number | null;
  /** Processing runs started so far (each `process` call that submitted ≥ 1 document). */
  run: number;
  deleted_at: number | null;
  webhook_url: string | null;
}

export interface DocumentRow {
  id: string;
  account_id: string;
  batch_id: string;
  batch_name: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  blob_key: string;
  page_count: number | null;
  state: InternalState;
  attempts: number;
  lease_until: number | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  processing_error: ProcessingError | null;
}

/** The stored result of a succeeded document, as JSON text (the engine's `ExtractResult`). */
export interface DocumentResultRow extends DocumentRow {
  result_json: string | null;
  /** People's correction of it (`ReviewStore`), applied over it by the views; null if none. */
  corrections_json: string | null;
}

/** What a processing run asks of the documents it submits. */
export interface SubmitOptions {
  /** Kept on each submitted document for its extraction (its custom fields); null: none. */
  options_json?: string | null;
}

export interface NewDocument {
  id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  blob_key: string;
}

/** A document handed to a worker by `claimDocuments`. `attempt` fences every later write. */
export interface ClaimedDocument {
  id: string;
  account_id: string;
  batch_id: string;
  blob_key: string;
  content_type: string;
  filename: string;
  attempt: number;
  /** When it last entered the queue (epoch ms; null for documents queued before this was kept). */
  queued_at?: number | null;
}

export type DocumentOutcome =
  | { status: 'succeeded'; page_count: number; result_json: string }
  | { status: 'failed'; page_count: number | null; error: ProcessingError };

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface Store {
  /** Webhooks of batches and their delivery log. */
  readonly webhooks: WebhookStore;
  /** Idempotency keys of the API's POST requests. */
  readonly idempotency: IdempotencyStore;
  /** The API's rate-limit counters. */
  readonly rateLimits: RateLimitCounters;
  /** Purges of old and deleted data (the retention sweep). */
  readonly retention: RetentionStore;
  /** Corrections, page words, run options and vendor memories (API.md §4b). */
  readonly review: ReviewStore;
  /** The original uploads (a local folder for SQLite, the database for PostgreSQL); closed with the Store. */
  readonly blobs: BlobStore;
  /** Committed changes: in-process for SQLite, LISTEN/NOTIFY (any process) for PostgreSQL. */
  readonly changes: ChangeStream;

  /** Applies pending migrations; idempotent. */
  migrate(): Promise<void>;
  /** Cheap round-trip used by `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;

  // accounts and keys
  getOrCreateAccount(name: string, now: number): Promise<Account>;
  /** Stores the key's sha256 hash (hex), never the key; returns the key's id. */
  createApiKey(accountId: string, keyHash: string, now: number): Promise<string>;
  /** The account of a key that is not revoked. */
  findAccountByKeyHash(keyHash: string): Promise<Account | null>;
  /** The same, with the key's id and last use, for the auth hook. */
  findKey(keyHash: string): Promise<KeyAuth | null>;
  /** Sets `last_used_at`. */
  touchApiKey(keyId: string, now: number): Promise<void>;
  /** Every key of the account (every account's with no name), oldest first. */
  listApiKeys(accountName?: string): Promise<ApiKeyRow[]>;
  /** Revokes a key; false if there is no such key or it was already revoked. */
  revokeApiKey(keyId: string, now: number): Promise<boolean>;

  // batches and documents
  /**
   * One transaction: creates the batch if it has no live batch of that name, inserts the
   * documents as `uploaded`, updates the counters. Commits durably before resolving.
   */
  insertDocuments(accountId: string, batchName: string, docs: NewDocument[], now: number): Promise<{ batch: BatchRow; documents: DocumentRow[] }>;
  /** One transaction: every `uploaded` document → `pending`; bumps `run` if any. Null if no such batch. */
  submitBatch(accountId: string, batchName: string, now: number, opts?: SubmitOptions): Promise<{ submitted: number; batch: BatchRow } | null>;
  /** The live batch of that name. Read-only: SQLite hands the same frozen row out while nothing is written. */
  getBatch(accountId: string, batchName: string): Promise<BatchRow | null>;
  /** Newest first. */
  listBatches(accountId: string, opts: { cursor: string | null; limit: number }): Promise<Page<BatchRow>>;
  /**
   * Cancels documents not yet started (uploaded, or pending with `started_at` null), marks the
   * batch deleted so its name is free at once, and returns the final view. Null if no such batch.
   */
  deleteBatch(accountId: string, batchName: string, now: number): Promise<BatchRow | null>;
  getDocument(accountId: string, id: string): Promise<DocumentRow | null>;
  getDocumentResult(accountId: string, id: string): Promise<DocumentResultRow | null>;
  /** Documents of a live batch in upload order, with results. */
  listBatchResults(accountId: string, batchId: string, opts: { cursor: string | null; limit: number }): Promise<Page<DocumentResultRow>>;
  /**
   * `canceled` if it was queued (not started), `deleted` if terminal (row and counters removed;
   * returns the blob key to delete), `conflict` while processing, null if not found.
   */
  deleteDocument(accountId: string, id: string, now: number): Promise<{ outcome: 'canceled' | 'deleted' | 'conflict'; blob_key: string } | null>;

  // queue
  /**
   * Claims up to `limit` pending documents in one statement: state `leased`, `lease_until`,
   * `attempts + 1`, `started_at` if null, counters updated.
   */
  claimDocuments(limit: number, leaseMs: number, now: number): Promise<ClaimedDocument[]>;
  /** Extends the lease if `attempt` still holds it; false means the lease was lost. */
  renewLease(id: string, attempt: number, leaseMs: number, now: number): Promise<boolean>;
  /**
   * Writes the outcome and the terminal state in one transaction with the counters, only if
   * `attempt` still holds the lease (attempt fence). True also when the document already holds
   * this attempt's outcome: a retry after a write whose answer was lost. False: nothing was written.
   */
  completeDocument(id: string, attempt: number, outcome: DocumentOutcome, now: number): Promise<boolean>;
  /**
   * Gives the lease back (shutdown): the document returns to `pending` (public status stays
   * `processing`) and this claim does not count towards `maxAttempts`. Only if `attempt` still
   * holds the lease; false: nothing was written.
   */
  releaseLease(id: string, attempt: number, now: number): Promise<boolean>;
  /**
   * Expired leases go back to `pending` (public status stays `processing`), or end
   * `failed / worker_lost` once the claims not released reach `maxAttempts`. Returns how many rows it touched.
   */
  reapExpiredLeases(maxAttempts: number, now: number): Promise<{ requeued: number; failed: number }>;
  /** Resolves when work may be available (NOTIFY on PostgreSQL, in-process signal on SQLite) or after `ms`. */
  waitForWork(ms: number, signal?: AbortSignal): Promise<void>;

  // reads for the webhooks, tests and metrics
  /** The batch row by internal id, live or deleted, inside the account; null if not found. */
  getBatchById(accountId: string, batchId: string): Promise<BatchRow | null>;
  /** Webhook outbox rows of a batch (one per processing run that reached `all_done`), oldest first. */
  listBatchEvents(batchId: string): Promise<BatchEvent[]>;
  /**
   * What the batch row's counters would be if recounted from its documents (a full scan of the
   * batch; for tests and consistency checks, never on a request path). Null if no such batch.
   */
  recountBatch(batchId: string): Promise<BatchRecount | null>;
  /**
   * Store-wide gauges for `/metrics`: documents by public status (the sum of the batch counters,
   * one row per batch, never a scan of documents) and the queue depth (pending documents, read
   * from the partial index the claim uses).
   */
  documentStats(): Promise<{ documentsByStatus: StatusCounts; queueDepth: number }>;
}

/** A webhook outbox row: `batch` is the snapshot of the batch row right after the transition. */
export interface BatchEvent {
  id: string;
  batch_id: string;
  run: number;
  type: 'batch.completed';
  batch: BatchRow;
  created_at: number;
}

/** The counter columns of a batch row, as recomputed from its documents. */
export interface BatchRecount {
  counts: StatusCounts;
  document_count: number;
  awaiting_process: number;
  min_started_at: number | null;
  max_completed_at: number | null;
}

/** Row mappers shared by both adapters: SQL column names → the Store's row types. */
import type { ProcessingError } from '../domain/errors.js';
import type { InternalState } from '../domain/status.js';
import type { BatchEvent, BatchRecount, BatchRow, ClaimedDocument, DocumentResultRow, DocumentRow } from './types.js';
import type { IdempotencyBegin } from './idempotency.js';
import type { VendorRow } from './review.js';
import type { ClaimedDelivery, DeliveryRow, WebhookRow } from './webhooks.js';

type Raw = Record<string, unknown>;

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** SQLite hands JSON back as text, PostgreSQL's jsonb as a parsed value. */
const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** The columns `toBatch` reads, for SELECT lists. */
export const BATCH_COLUMNS =
  'id, account_id, name, queued, processing, succeeded, failed, canceled, document_count, created_at, min_started_at, max_completed_at, run, deleted_at, webhook_url, awaiting_process';

export function toBatch(r: Raw): BatchRow {
  return {
    id: r.id as string,
    account_id: r.account_id as string,
    name: r.name as string,
    counts: {
      queued: num(r.queued),
      processing: num(r.processing),
      succeeded: num(r.succeeded),
      failed: num(r.failed),
      canceled: num(r.canceled),
    },
    document_count: num(r.document_count),
    awaiting_process: num(r.awaiting_process),
    created_at: num(r.created_at),
    min_started_at: numOrNull(r.min_started_at),
    max_completed_at: numOrNull(r.max_completed_at),
    run: num(r.run),
    deleted_at: numOrNull(r.deleted_at),
    webhook_url: (r.webhook_url as string | null) ?? null,
  };
}

/** The columns `toDocument` reads (documents aliased `d`, batches `b`). */
export const DOCUMENT_COLUMNS =
  'd.id, d.account_id, d.batch_id, b.name AS batch_name, d.filename, d.content_type, d.size_bytes, d.sha256, d.blob_key, d.page_count, d.state, d.attempts, d.lease_until, d.created_at, d.started_at, d.completed_at, d.processing_error';

export function toDocument(r: Raw): DocumentRow {
  return {
    id: r.id as string,
    account_id: r.account_id as string,
    batch_id: r.batch_id as string,
    batch_name: r.batch_name as string,
    filename: r.filename as string,
    content_type: r.content_type as string,
    size_bytes: num(r.size_bytes),
    sha256: r.sha256 as string,
    blob_key: r.blob_key as string,
    page_count: numOrNull(r.page_count),
    state: r.state as InternalState,
    attempts: num(r.attempts),
    lease_until: numOrNull(r.lease_until),
    created_at: num(r.created_at),
    started_at: numOrNull(r.started_at),
    completed_at: numOrNull(r.completed_at),
    processing_error: json<ProcessingError>(r.processing_error),
  };
}

export function toDocumentResult(r: Raw): DocumentResultRow {
  return { ...toDocument(r), result_json: (r.result_json as string | null) ?? null, corrections_json: (r.corrections_json as string | null) ?? null };
}

export function toClaimed(r: Raw): ClaimedDocument {
  return {
    id: r.id as string,
    account_id: r.account_id as string,
    batch_id: r.batch_id as string,
    blob_key: r.blob_key as string,
    content_type: r.content_type as string,
    filename: r.filename as string,
    attempt: num(r.attempts),
    queued_at: r.queued_at === null || r.queued_at === undefined ? null : num(r.queued_at),
  };
}

export function toEvent(r: Raw): BatchEvent {
  return {
    id: r.id as string,
    batch_id: r.batch_id as string,
    run: num(r.run),
    type: r.type as 'batch.completed',
    // Events written before `awaiting_process` existed lack it; their run had submitted everything.
    batch: { awaiting_process: 0, ...json<BatchRow>(r.batch_json) } as BatchRow,
    created_at: num(r.created_at),
  };
}

/** Maps a `webhooks` row (either dialect). */
export function toWebhook(r: Raw): WebhookRow {
  return {
    batch_id: r.batch_id as string,
    account_id: r.account_id as string,
    url: r.url as string,
    secret: r.secret as string,
    created_at: num(r.created_at),
    disabled_at: numOrNull(r.disabled_at),
    disabled_reason: (r.disabled_reason as string | null) ?? null,
  };
}

/** Maps a `webhook_deliveries` row (either dialect; pg hands BIGINT back as text). */
export function toDelivery(r: Raw): DeliveryRow {
  return {
    id: r.id as string,
    batch_id: r.batch_id as string,
    event_id: r.event_id as string,
    attempt: num(r.attempt),
    status: r.status as DeliveryRow['status'],
    response_status: numOrNull(r.response_status),
    error: (r.error as string | null) ?? null,
    created_at: num(r.created_at),
    next_attempt_at: numOrNull(r.next_attempt_at),
  };
}

/** Maps a claimed attempt joined with its webhook and event (either dialect). */
export function toClaimedDelivery(r: Raw): ClaimedDelivery {
  return {
    ...toDelivery(r),
    claim_token: r.claim_token as string,
    account_id: r.account_id as string,
    url: r.url as string,
    receiver: r.receiver as string,
    secret: r.secret as string,
    event_type: r.event_type as BatchEvent['type'],
    event_created_at: num(r.event_created_at),
    batch_json: r.batch_json as string,
  };
}

/** Maps a `vendor_memories` row (either dialect; pg hands BIGINT back as text). */
export function toVendor(r: Raw): VendorRow {
  return {
    id: r.id as string,
    account_id: r.account_id as string,
    name: r.name as string,
    memory_json: r.memory_json as string,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

/** A batch's counts recomputed from its documents (the recount query's columns). */
export function toRecount(r: Raw): BatchRecount {
  return {
    counts: { queued: num(r.queued), processing: num(r.processing), succeeded: num(r.succeeded), failed: num(r.failed), canceled: num(r.canceled) },
    document_count: num(r.document_count),
    awaiting_process: num(r.awaiting_process),
    min_started_at: numOrNull(r.min_started_at),
    max_completed_at: numOrNull(r.max_completed_at),
  };
}

/**
 * What a stored idempotency key answers at `now`: its finished response, or that its request is
 * still running; null when it has expired or its holder's lock ran out (the process that held it
 * is gone), and the caller takes it over.
 */
export function storedIdempotency(r: Raw | undefined, now: number): IdempotencyBegin | null {
  if (!r || Number(r.expires_at) <= now) return null;
  if (r.status !== null) {
    return {
      state: 'done',
      request_hash: r.request_hash as string,
      status: Number(r.status),
      headers: JSON.parse(r.response_headers as string),
      body: r.response_body as string,
    };
  }
  if (Number(r.locked_until) > now) return { state: 'in_progress', request_hash: (r.request_hash as string | null) ?? null };
  return null;
}

-- Tablemill system of record, cluster mode (PostgreSQL). Times are bigint ms since the epoch.
-- Migrations only ever grow: never edit a released file, add the next number. Tables are created
-- in the first schema of search_path (the configured TABLEMILL_DB_SCHEMA, or public).

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  created_at bigint NOT NULL
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  key_hash text NOT NULL UNIQUE, -- sha256 hex of the key; the key itself is never stored
  created_at bigint NOT NULL
);

-- Counters by public status live on the row, updated in the transaction of every transition,
-- so reading a batch is one indexed row read whatever its size.
CREATE TABLE batches (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  queued integer NOT NULL DEFAULT 0 CHECK (queued >= 0),
  processing integer NOT NULL DEFAULT 0 CHECK (processing >= 0),
  succeeded integer NOT NULL DEFAULT 0 CHECK (succeeded >= 0),
  failed integer NOT NULL DEFAULT 0 CHECK (failed >= 0),
  canceled integer NOT NULL DEFAULT 0 CHECK (canceled >= 0),
  document_count integer NOT NULL DEFAULT 0 CHECK (document_count >= 0),
  created_at bigint NOT NULL,
  min_started_at bigint,
  max_completed_at bigint,
  run integer NOT NULL DEFAULT 0,
  deleted_at bigint,
  webhook_url text
);
-- A name is unique among live batches only: a deleted batch keeps its row (its documents stay
-- readable by id) and frees the name at once.
CREATE UNIQUE INDEX batches_live_name ON batches (account_id, name) WHERE deleted_at IS NULL;
CREATE INDEX batches_live_list ON batches (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- seq is the upload order (documents of one batch are inserted under its row lock, so seq
-- order is commit order within a batch); id is the public, unguessable id.
CREATE TABLE documents (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id text NOT NULL REFERENCES accounts(id),
  batch_id text NOT NULL REFERENCES batches(id),
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  blob_key text NOT NULL,
  page_count integer,
  state text NOT NULL CHECK (state IN ('uploaded', 'pending', 'leased', 'succeeded', 'failed', 'canceled')),
  attempts integer NOT NULL DEFAULT 0,
  lease_until bigint,
  created_at bigint NOT NULL,
  started_at bigint,
  completed_at bigint,
  processing_error jsonb -- {code, message}
);
CREATE INDEX documents_batch ON documents (batch_id, seq);
-- The queue: claim scans pending rows in upload order, the reaper scans leases by expiry.
CREATE INDEX documents_pending ON documents (seq) WHERE state = 'pending';
CREATE INDEX documents_leased ON documents (lease_until) WHERE state = 'leased';

-- Results apart from the documents table, so queue scans never page through result JSON.
CREATE TABLE document_results (
  document_id text PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  result_json text NOT NULL
);

-- Webhook outbox: one row per processing run that reached all_done, written in the same
-- transaction as the transition. The dispatcher (src/webhooks/) works from here.
CREATE TABLE batch_events (
  id text PRIMARY KEY,
  batch_id text NOT NULL REFERENCES batches(id),
  run integer NOT NULL,
  type text NOT NULL,
  batch_json jsonb NOT NULL,
  created_at bigint NOT NULL,
  UNIQUE (batch_id, run)
);
CREATE INDEX batch_events_created ON batch_events (created_at);

-- Original uploads in cluster mode (src/blobs/postgres.ts), in chunks so a put streams.
CREATE TABLE blobs (
  key text PRIMARY KEY,
  size bigint NOT NULL,
  sha256 text NOT NULL,
  created_at bigint NOT NULL
);
CREATE TABLE blob_chunks (
  key text NOT NULL REFERENCES blobs(key) ON DELETE CASCADE,
  n integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (key, n)
);

-- Tablemill system of record, embedded mode (SQLite). Times are integer ms since the epoch.
-- Migrations only ever grow: never edit a released file, add the next number.

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  key_hash TEXT NOT NULL UNIQUE, -- sha256 hex of the key; the key itself is never stored
  created_at INTEGER NOT NULL
);

-- Counters by public status live on the row, updated in the transaction of every transition,
-- so reading a batch is one indexed row read whatever its size.
CREATE TABLE batches (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  queued INTEGER NOT NULL DEFAULT 0 CHECK (queued >= 0),
  processing INTEGER NOT NULL DEFAULT 0 CHECK (processing >= 0),
  succeeded INTEGER NOT NULL DEFAULT 0 CHECK (succeeded >= 0),
  failed INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
  canceled INTEGER NOT NULL DEFAULT 0 CHECK (canceled >= 0),
  document_count INTEGER NOT NULL DEFAULT 0 CHECK (document_count >= 0),
  created_at INTEGER NOT NULL,
  min_started_at INTEGER,
  max_completed_at INTEGER,
  run INTEGER NOT NULL DEFAULT 0,
  deleted_at INTEGER,
  webhook_url TEXT
);
-- A name is unique among live batches only: a deleted batch keeps its row (its documents stay
-- readable by id) and frees the name at once.
CREATE UNIQUE INDEX batches_live_name ON batches (account_id, name) WHERE deleted_at IS NULL;
CREATE INDEX batches_live_list ON batches (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- seq (the rowid) is the upload order; id is the public, unguessable id.
CREATE TABLE documents (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  batch_id TEXT NOT NULL REFERENCES batches(id),
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  blob_key TEXT NOT NULL,
  page_count INTEGER,
  state TEXT NOT NULL CHECK (state IN ('uploaded', 'pending', 'leased', 'succeeded', 'failed', 'canceled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  completed_at INTEGER,
  processing_error TEXT -- JSON {code, message}
);
CREATE INDEX documents_batch ON documents (batch_id, seq);
-- The queue: claim scans pending rows in upload order, the reaper scans leases by expiry.
CREATE INDEX documents_pending ON documents (seq) WHERE state = 'pending';
CREATE INDEX documents_leased ON documents (lease_until) WHERE state = 'leased';

-- Results apart from the documents table, so queue scans never page through result JSON.
CREATE TABLE document_results (
  document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  result_json TEXT NOT NULL
);

-- Webhook outbox: one row per processing run that reached all_done, written in the same
-- transaction as the transition. The dispatcher (src/webhooks/) works from here.
CREATE TABLE batch_events (
  id TEXT PRIMARY KEY,
  batch_id TEXT NOT NULL REFERENCES batches(id),
  run INTEGER NOT NULL,
  type TEXT NOT NULL,
  batch_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (batch_id, run)
);
CREATE INDEX batch_events_created ON batch_events (created_at);

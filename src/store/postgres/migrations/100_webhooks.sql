-- One callback per batch, and one row per delivery attempt (the delivery log).
-- No foreign key to batches: a webhook and its log outlive the batch name (deleted batches
-- keep their rows), and the store's tables are the store's to reshape.
CREATE TABLE webhooks (
  batch_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  disabled_at BIGINT,
  disabled_reason TEXT
);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  batch_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  response_status INTEGER,
  error TEXT,
  created_at BIGINT NOT NULL,
  next_attempt_at BIGINT,
  -- a dispatcher holds a pending attempt until lease_until; claim_token fences its write-back
  lease_until BIGINT,
  claim_token TEXT,
  -- (event, attempt) unique: two dispatchers enqueueing the same event write one first attempt
  UNIQUE (event_id, attempt)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_batch ON webhook_deliveries (batch_id, created_at DESC, attempt DESC);

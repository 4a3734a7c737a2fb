-- Idempotency-Key records, scoped per API key (sha256 of the key), kept 24 h.
-- status IS NULL while the first request is still running (a duplicate then gets 409).
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT, -- null until known (a multipart upload's files are hashed as they stream)
  status INTEGER,
  response_headers TEXT,
  response_body TEXT,
  created_at BIGINT NOT NULL,
  locked_until BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);

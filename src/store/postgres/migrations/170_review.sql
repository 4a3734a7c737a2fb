-- People's corrections of a result, kept beside the engine's (never over it): re-processing
-- replaces the result and keeps these, and `?view=extracted` still answers what the engine read.
CREATE TABLE document_corrections (
  document_id text PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  account_id text NOT NULL,
  body_json text NOT NULL,
  updated_at bigint NOT NULL
);
-- The words of the pages a correction may point at, so the API process learns a vendor's layout
-- from a correction without reading the document again. Apart from results: lists never read it.
CREATE TABLE document_words (
  document_id text PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  words_json text NOT NULL
);
-- What the processing run that submitted the document asked for (its custom fields).
ALTER TABLE documents ADD COLUMN options_json text;
-- What an account's corrections taught about each vendor's layout (a few KB each).
CREATE TABLE vendor_memories (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  memory_json text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX vendor_memories_account ON vendor_memories (account_id, updated_at);

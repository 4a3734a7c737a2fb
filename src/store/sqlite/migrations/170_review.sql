-- People's corrections of a result, kept beside the engine's (never over it): re-processing
-- replaces the result and keeps these, and `?view=extracted` still answers what the engine read.
CREATE TABLE document_corrections (
  document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL,
  body_json TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
-- The words of the pages a correction may point at, so the API process learns a vendor's layout
-- from a correction without reading the document again. Apart from results: lists never read it.
CREATE TABLE document_words (
  document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  words_json TEXT NOT NULL
);
-- What the processing run that submitted the document asked for (its custom fields).
ALTER TABLE documents ADD COLUMN options_json TEXT;
-- What an account's corrections taught about each vendor's layout (a few KB each).
CREATE TABLE vendor_memories (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  memory_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX vendor_memories_account ON vendor_memories (account_id, updated_at);

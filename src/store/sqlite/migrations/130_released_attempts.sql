-- Claims given back at shutdown (the lease released, not lost). They do not count towards the
-- attempt limit: the reaper fails a document once `attempts - released_attempts` reaches it.
-- `attempts` itself still grows at every claim, so it stays the fence of every write.
ALTER TABLE documents ADD COLUMN released_attempts INTEGER NOT NULL DEFAULT 0;

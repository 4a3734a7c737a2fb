-- When a document last entered the queue (a process call, or the reaper giving an expired
-- lease back), so a claim can report how long it waited (the queue-wait metric). Documents
-- queued before this column have none.
ALTER TABLE documents ADD COLUMN queued_at BIGINT;

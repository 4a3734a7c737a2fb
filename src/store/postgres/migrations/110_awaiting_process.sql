-- Documents uploaded but not yet submitted by a process call (state 'uploaded'), kept on the
-- batch row like the status counters so the batch view stays one row read. Existing batches
-- take their count from their documents.
ALTER TABLE batches ADD COLUMN awaiting_process INTEGER NOT NULL DEFAULT 0 CHECK (awaiting_process >= 0);
UPDATE batches SET awaiting_process = (SELECT count(*) FROM documents WHERE documents.batch_id = batches.id AND documents.state = 'uploaded');

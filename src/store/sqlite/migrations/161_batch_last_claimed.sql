-- When a claim last took one of the batch's documents: the fair claim order serves the account, and
-- within it the batch, served longest ago first, so the turn passes between claims of one document.
ALTER TABLE batches ADD COLUMN last_claimed_at INTEGER NOT NULL DEFAULT 0;

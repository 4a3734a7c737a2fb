-- The fair claim scans only batches with work left (a partial index), so finished batches, however many,
-- cost a claim nothing.
CREATE INDEX batches_active ON batches (id) WHERE queued > 0 OR processing > 0;

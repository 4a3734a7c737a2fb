CREATE INDEX documents_pending_batch ON documents (batch_id, seq) WHERE state = 'pending';

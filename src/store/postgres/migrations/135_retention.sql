-- The retention sweep finds terminal documents by completion time without scanning the table.
CREATE INDEX documents_terminal_completed ON documents (completed_at) WHERE state IN ('succeeded', 'failed', 'canceled');

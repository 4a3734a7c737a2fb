-- When each key was last used (written at most once a minute, so authentication stays a read)
-- and when it was revoked: a revoked key authenticates nothing, on every API process at once.
ALTER TABLE api_keys ADD COLUMN last_used_at bigint;
ALTER TABLE api_keys ADD COLUMN revoked_at bigint;

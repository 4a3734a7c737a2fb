-- rate-limiter-flexible's RateLimiterPostgres table (its own layout, created here so the
-- limiter runs with tableCreated: true and every API process shares the counters).
CREATE TABLE rate_limits (
  key VARCHAR(255) PRIMARY KEY,
  points INTEGER NOT NULL DEFAULT 0,
  expire BIGINT
);

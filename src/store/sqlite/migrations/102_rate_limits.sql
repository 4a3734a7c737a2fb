-- rate-limiter-flexible's RateLimiterSQLite table (its own layout, created here so the
-- limiter runs with tableCreated: true and every process shares the counters in this file).
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  points INTEGER NOT NULL DEFAULT 0,
  expire INTEGER
);

/** Rate-limit counters in the schema's `rate_limits` table. */
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { RATE_LIMIT_TABLE, type RateLimitCounters, type RateLimitOptions } from '../rate-limits.js';

export function postgresRateLimits(pool: pg.Pool, schema: string | null): RateLimitCounters {
  return {
    limiter: (opts: RateLimitOptions) =>
      new RateLimiterPostgres({ ...opts, storeClient: pool, schemaName: schema ?? undefined, tableName: RATE_LIMIT_TABLE, tableCreated: true, clearExpiredByTimeout: true }),
  };
}

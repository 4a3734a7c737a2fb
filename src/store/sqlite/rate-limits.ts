/** Rate-limit counters in the SQLite file's `rate_limits` table. */
import { RateLimiterSQLite } from 'rate-limiter-flexible';
import { RATE_LIMIT_TABLE, type RateLimitCounters, type RateLimitOptions } from '../rate-limits.js';
import type { Db } from './db.js';

export function sqliteRateLimits(db: Db): RateLimitCounters {
  return {
    limiter: (opts: RateLimitOptions) =>
      // clearExpiredByTimeout: RateLimiterSQLite purges expired rows only when asked.
      new RateLimiterSQLite({ ...opts, storeClient: db, storeType: 'better-sqlite3', tableName: RATE_LIMIT_TABLE, tableCreated: true, clearExpiredByTimeout: true }),
  };
}

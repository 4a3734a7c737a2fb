/** Rate-limit counters in the SQLite file's `rate_limits` table. */
import { RateLimiterSQLite } from 'rate-limiter-flexible';
import { RATE_LIMIT_TABLE, type RateLimitCounters, type RateLimitOptions } from '../rate-limits.js';
import { prepared, type Db } from './db.js';

/**
 * `db` with `prepare` answered from the connection's statement cache: rate-limiter-flexible
 * prepares its SQL on every call, and compiling the statement cost more than running it — on
 * every authenticated request, whose address's failed authentications are read first.
 */
export function cachingPrepare(db: Db): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => prepared(target, sql);
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

export function sqliteRateLimits(db: Db): RateLimitCounters {
  const client = cachingPrepare(db);
  return {
    limiter: (opts: RateLimitOptions) =>
      // clearExpiredByTimeout: RateLimiterSQLite purges expired rows only when asked.
      new RateLimiterSQLite({ ...opts, storeClient: client, storeType: 'better-sqlite3', tableName: RATE_LIMIT_TABLE, tableCreated: true, clearExpiredByTimeout: true }),
  };
}

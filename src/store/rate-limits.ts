/**
 * The API's rate-limit counters, kept by the Store in its own table (migration 102) so every
 * API process of a cluster shares them: rate-limiter-flexible over the store's connection.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** One limit: `points` requests per `duration` seconds for each key under `keyPrefix`. */
export interface RateLimitOptions {
  points: number;
  duration: number;
  keyPrefix: string;
  /** Past this many points a key is refused from memory until its window ends (no database write). */
  inMemoryBlockOnConsumed?: number;
}

export interface RateLimitCounters {
  /** A limiter whose counters live in the store; expired rows are purged every 5 minutes. */
  limiter(opts: RateLimitOptions): RateLimiterAbstract;
}

/** The table of migration 102. */
export const RATE_LIMIT_TABLE = 'rate_limits';

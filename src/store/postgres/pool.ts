/** The PostgreSQL pool (schema on search_path, bigint as number) and the transaction helper. */
import pg from 'pg';

/** Anything that runs a query: the pool or a checked-out client inside a transaction. */
export type Q = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Times are ms since the epoch (< 2^53), so int8 parses to a number rather than a string. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Quotes an identifier (the schema name is validated by config, this is belt and braces). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A pool whose every connection has `search_path` = the schema (created if missing), so
 * each test file (and each deployment sharing a database) sees only its own tables.
 */
export async function openPool(url: string, schema: string | null, max = 10): Promise<pg.Pool> {
  const options = schema ? `-c search_path=${ident(schema)}` : undefined;
  const pool = new pg.Pool({ connectionString: url, options, max, types });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
  return pool;
}

/** The config of the dedicated LISTEN client, named so operators (and tests) can find it in pg_stat_activity. */
export function clientConfig(url: string, schema: string | null): pg.ClientConfig {
  return { connectionString: url, options: schema ? `-c search_path=${ident(schema)}` : undefined, types, application_name: listenerName(schema) };
}

/** `application_name` of the LISTEN connection for a schema. */
export function listenerName(schema: string | null): string {
  return `tablemill-listen:${schema ?? 'public'}`.slice(0, 63);
}

// deadlock_detected, serialization_failure: safe to retry the whole transaction.
const RETRYABLE = new Set(['40P01', '40001']);

/** Runs `fn` in one transaction on one client; retried (up to 3 times) on deadlock. */
export async function transaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      if (attempt < 3 && RETRYABLE.has((err as { code?: string }).code ?? '')) continue;
      throw err;
    } finally {
      c.release();
    }
  }
}

/** One statement outside an explicit transaction (autocommit), retried like `transaction`. */
export async function queryRetrying(pool: pg.Pool, sql: string, values: unknown[]): Promise<pg.QueryResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query(sql, values);
    } catch (err) {
      if (attempt < 3 && RETRYABLE.has((err as { code?: string }).code ?? '')) continue;
      throw err;
    }
  }
}

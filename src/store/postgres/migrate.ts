/** The PostgreSQL migration runner, under an advisory lock. */
import type pg from 'pg';
import { loadMigrations } from '../migrations.js';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/**
 * Applies every migration file not yet recorded, each in its own transaction, while holding a
 * session advisory lock keyed on the schema: two processes starting at once take turns, the
 * second finds everything applied. Returns the versions applied.
 */
export async function migratePostgres(pool: pg.Pool, schema: string | null, now = Date.now()): Promise<number[]> {
  const c = await pool.connect();
  const key = `tablemill_migrate:${schema ?? 'public'}`;
  try {
    await c.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)');
    const done = new Set((await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const m of loadMigrations(MIGRATIONS_DIR)) {
      if (done.has(m.version)) continue;
      try {
        await c.query('BEGIN');
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, now]);
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK').catch(() => {});
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await c.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
    c.release();
  }
}

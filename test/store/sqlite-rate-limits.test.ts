import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { migrateDatabase, openDatabase } from '../../src/store/sqlite/db.js';
import { sqliteRateLimits } from '../../src/store/sqlite/rate-limits.js';

const dir = mkdtempSync(join(tmpdir(), 'tablemill-rl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("the limiter's statements are compiled once per connection, and count as before", async () => {
  const db = openDatabase(join(dir, 'a.db'));
  migrateDatabase(db);
  const prepare = vi.spyOn(db, 'prepare');
  const limiter = sqliteRateLimits(db).limiter({ points: 2, duration: 60, keyPrefix: 't' });
  expect(await limiter.get('1.2.3.4')).toBeNull();
  await limiter.consume('1.2.3.4', 1);
  await limiter.consume('1.2.3.4', 1);
  await expect(limiter.consume('1.2.3.4', 1)).rejects.toMatchObject({ consumedPoints: 3 });
  for (let i = 0; i < 5; i++) expect((await limiter.get('1.2.3.4'))?.consumedPoints).toBe(3);
  expect(prepare.mock.calls.length).toBe(2); // one read, one upsert
  db.close();
});

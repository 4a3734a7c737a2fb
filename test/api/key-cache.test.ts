// Verified keys are cached per process and a revocation still holds at once: through the change
// stream (LISTEN/NOTIFY across PostgreSQL API processes; in-process on SQLite) and, on SQLite,
// through data_version when another process (the CLI) revokes.
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createKey } from '../../src/api/auth.js';
import { KeyCache } from '../../src/api/key-cache.js';
import { LocalChanges } from '../../src/store/changes.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { PostgresStore } from '../../src/store/postgres/store.js';
import type { KeyAuth } from '../../src/store/types.js';
import { serve, tempDataDir, type ServeProcess } from '../e2e/server.js';

const auth: KeyAuth = { account: { id: 'acc_1', name: 'a', created_at: 1 }, key_id: 'key_1', last_used_at: null };

describe('KeyCache', () => {
  it('reads a key once, never caches a miss, and forgets everything on a revocation or a new epoch', async () => {
    let epoch = 0;
    const changes = new LocalChanges(undefined, () => epoch);
    const cache = new KeyCache(changes);
    let loads = 0;
    const load = async () => (loads++, auth);
    for (let i = 0; i < 5; i++) expect(await cache.get('h', load)).toBe(auth);
    expect(loads).toBe(1);
    expect(await cache.get('unknown', async () => (loads++, null))).toBeNull();
    expect(await cache.get('unknown', async () => (loads++, null))).toBeNull();
    expect(loads).toBe(3);
    changes.emit('keys');
    await cache.get('h', load);
    expect(loads).toBe(4);
    epoch = 1; // another process committed: the entry may be stale
    await cache.get('h', load);
    expect(loads).toBe(5);
    epoch = -1; // the stream cannot hear: read every time
    await cache.get('h', load);
    await cache.get('h', load);
    expect(loads).toBe(7);
    cache.close();
  });

  it('a verified key is found by the raw key, hashed once, and forgotten on a revocation or a new epoch', async () => {
    let epoch = 0;
    const changes = new LocalChanges(undefined, () => epoch);
    const cache = new KeyCache(changes);
    let hashes = 0;
    const hashOf = (t: string) => (hashes++, `h(${t})`);
    expect(cache.peekToken('tm_a', hashOf)).toBeNull(); // nothing verified yet
    await cache.get('h(tm_a)', async () => auth);
    for (let i = 0; i < 3; i++) expect(cache.peekToken('tm_a', hashOf)).toBe(auth);
    expect(hashes).toBe(1);
    expect(cache.peekToken('tm_b', hashOf)).toBeNull();
    epoch = 1; // another process committed: neither the entry nor its raw key holds
    expect(cache.peekToken('tm_a', hashOf)).toBeNull();
    await cache.get('h(tm_a)', async () => auth);
    expect(cache.peekToken('tm_a', hashOf)).toBe(auth);
    changes.emit('keys');
    expect(cache.peekToken('tm_a', hashOf)).toBeNull();
    cache.close();
  });

  it('a read that a revocation overtakes is not cached', async () => {
    const changes = new LocalChanges();
    const cache = new KeyCache(changes);
    let loads = 0;
    await cache.get('h', async () => {
      loads++;
      changes.emit('keys'); // committed while the read was in flight
      return auth;
    });
    await cache.get('h', async () => (loads++, auth));
    expect(loads).toBe(2);
    cache.close();
  });
});

/** Status of GET /v1/batches/x with `key` (404: authenticated, no such batch). */
async function status(url: string, key: string): Promise<number> {
  const res = await fetch(`${url}/v1/batches/x`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

/** Milliseconds until `url` answers 401 for `key`, polling every 2 ms (fails after 2 s). */
async function msUntil401(url: string, key: string, t0: number): Promise<number> {
  while (performance.now() - t0 < 2000) {
    if ((await status(url, key)) === 401) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error('still accepted 2 s after the revocation');
}

describe('revocation with cached keys', () => {
  const servers: ServeProcess[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  it('SQLite: a key revoked by another process on the file answers 401 on the next request', async () => {
    const dir = tempDataDir();
    const server = await serve({ TABLEMILL_DATA_DIR: dir }, ['--no-workers']);
    servers.push(server);
    const store = new SqliteStore(join(dir, 'tablemill.db'));
    try {
      const { key, keyId } = await createKey(store, 'rev', Date.now());
      for (let i = 0; i < 3; i++) expect(await status(server.url, key)).toBe(404);
      expect(await store.revokeApiKey(keyId, Date.now())).toBe(true);
      expect(await status(server.url, key)).toBe(401);
    } finally {
      await store.close();
    }
  });

  const url = process.env.TABLEMILL_TEST_DATABASE_URL;
  // The 100 ms bound is the scheduler's as much as ours on a loaded machine (a test file beside
  // it, or other work, has stretched it to 170 ms): a trial that misses it is run again, up to
  // twice, with a new key and schema.
  it.skipIf(!url)('PostgreSQL: revoked while two API processes hold it cached, 401 on both within 100 ms', { retry: 2 }, async () => {
    const schema = `t_keycache_${randomBytes(4).toString('hex')}`;
    const env = { DATABASE_URL: url!, TABLEMILL_DB_SCHEMA: schema };
    const store = await PostgresStore.open(url!, schema, { max: 2 });
    try {
      await store.migrate();
      const a = await serve(env, ['--no-workers']);
      servers.push(a);
      const b = await serve(env, ['--no-workers']);
      servers.push(b);
      const { key, keyId } = await createKey(store, 'rev', Date.now());
      for (let i = 0; i < 3; i++) for (const s of [a, b]) expect(await status(s.url, key)).toBe(404);
      expect(await store.revokeApiKey(keyId, Date.now())).toBe(true);
      const t0 = performance.now();
      const [ma, mb] = await Promise.all([msUntil401(a.url, key, t0), msUntil401(b.url, key, t0)]);
      console.log(JSON.stringify({ revoked_401_ms: { a: Math.round(ma), b: Math.round(mb) } }));
      expect(Math.max(ma, mb)).toBeLessThan(100);
    } finally {
      await store.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    }
  });
});

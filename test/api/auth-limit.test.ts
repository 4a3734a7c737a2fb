// Failed authentication is limited per client address on the store's shared counters: past the
// limit an address answers 429 with Retry-After before its key is looked at; another address
// with a right key is served.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openApi, type ApiHarness } from './harness.js';
import { pgSchema } from '../webhooks/harness.js';

async function hundredWrongKeys(h: ApiHarness): Promise<void> {
  const codes: number[] = [];
  let retryAfter = '';
  for (let i = 0; i < 100; i++) {
    const res = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer tm_wrong${i}` }, remoteAddress: '203.0.113.7' });
    codes.push(res.statusCode);
    if (res.statusCode === 429) retryAfter = String(res.headers['retry-after']);
  }
  expect(codes.slice(0, 30).every((c) => c === 401)).toBe(true);
  expect(codes.slice(30).every((c) => c === 429)).toBe(true);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  const key = await h.key('acme');
  // The limited address is refused even with a right key (a guess that hits gains nothing) …
  const same = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer ${key}` }, remoteAddress: '203.0.113.7' });
  expect(same.statusCode).toBe(429);
  expect(same.json().error.code).toBe('rate_limited');
  // … another address is served.
  const other = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer ${key}` }, remoteAddress: '198.51.100.2' });
  expect(other.statusCode).toBe(200);
}

describe('failed authentication limit', () => {
  let h: ApiHarness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('SQLite, with the settings a user gets: 100 wrong keys from one address → 401 × 30, then 429 with Retry-After', async () => {
    const defaults = loadConfig({});
    expect(defaults.rateLimits).toMatchObject({ enabled: true, authFailuresPerMinute: 30 });
    h = await openApi({ TABLEMILL_RATE_LIMITS: '' });
    expect(h.deps.config.rateLimits).toEqual(defaults.rateLimits);
    await hundredWrongKeys(h);
  });

  it('holds with the per-key limits turned off (TABLEMILL_RATE_LIMITS=0), and 0 failures a minute turns it off', async () => {
    h = await openApi({ TABLEMILL_RATE_LIMITS: '0' });
    await hundredWrongKeys(h);
    await h.close();
    h = null;
    h = await openApi({ TABLEMILL_RATE_LIMIT_AUTH_FAILURES: '0' });
    for (let i = 0; i < 40; i++) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer tm_wrong${i}` }, remoteAddress: '203.0.113.7' });
      expect(res.statusCode).toBe(401);
    }
  });

  const pgs = pgSchema('tm_authfail');
  it.skipIf(!pgs)('PostgreSQL: the same, on the shared counters', async () => {
    try {
      h = await openApi({ DATABASE_URL: pgs!.url, TABLEMILL_DB_SCHEMA: pgs!.schema });
      await hundredWrongKeys(h);
    } finally {
      await h?.close();
      h = null;
      await pgs!.drop();
    }
  });
});

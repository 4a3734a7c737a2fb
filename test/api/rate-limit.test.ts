import { spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { api, BIN, open, pgSchema, removeDir, startServe, type Harness } from '../webhooks/harness.js';

/** `n` requests of `path` with `key`, `parallel` at a time, spread over `urls` in turn; their statuses. */
async function burst(urls: string[], key: string, path: string, n: number, parallel: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += parallel) {
    const round = Array.from({ length: Math.min(parallel, n - i) }, async (_, j) => {
      const res = await fetch(urls[(i + j) % urls.length] + path, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      return res.status;
    });
    out.push(...(await Promise.all(round)));
  }
  return out;
}

async function statusCodes(h: Harness, key: string, path: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(h.url + path, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe('rate limits on SQLite (one process)', () => {
  let h: Harness;
  afterAll(async () => {
    await h?.close();
    if (h) removeDir(h.dir);
  });

  it('the 121st status request within a minute is 429 with Retry-After; another key is unaffected', async () => {
    h = await open({ TABLEMILL_RATE_LIMIT_DEFAULT: '5' });
    const first = await api(h, 'GET', '/v1/batches/nosuch');
    expect(first.status).toBe(404); // limited answers include errors
    expect(first.headers.get('ratelimit-limit')).toBe('120');
    expect(first.headers.get('ratelimit-remaining')).toBe('119');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(first.headers.get('ratelimit-policy')).toBe('"status";q=120;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"status";r=119;t=\d+$/);

    const codes = await statusCodes(h, h.key, '/v1/documents/doc_nosuch', 119);
    expect(codes.every((c) => c === 404)).toBe(true);
    const refused = await api(h, 'GET', '/v1/batches/nosuch');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const body = await refused.json();
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.request_id).toMatch(/^req_/);
    // Refused again (now from the in-memory block): still 429 with Retry-After.
    const again = await api(h, 'GET', `/v1/documents/doc_nosuch`);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(again.headers.get('ratelimit-remaining')).toBe('0');

    const other = (await createKey(h.store, 'other', Date.now())).key;
    const res = await fetch(h.url + '/v1/batches/nosuch', { headers: { authorization: `Bearer ${other}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('ratelimit-remaining')).toBe('119');

    // The default class is counted apart: 5 a minute here.
    const list = await statusCodes(h, h.key, '/v1/batches', 6);
    expect(list).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('one process is exact: 300 status requests, 30 at once, admit 120', async () => {
    const key = (await createKey(h.store, 'burst', Date.now())).key;
    const codes = await burst([h.url], key, '/v1/batches/nosuch', 300, 30);
    expect(codes.filter((c) => c === 404)).toHaveLength(120);
    expect(codes.filter((c) => c === 429)).toHaveLength(180);
  });

  it('off when disabled', async () => {
    const off = await open({ TABLEMILL_RATE_LIMITS: '0', TABLEMILL_RATE_LIMIT_STATUS: '2' });
    try {
      const codes = await statusCodes(off, off.key, '/v1/batches/nosuch', 4);
      expect(codes).toEqual([404, 404, 404, 404]);
      const res = await api(off, 'GET', '/v1/batches/nosuch');
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    } finally {
      await off.close();
      removeDir(off.dir);
    }
  });
});

const pgs = pgSchema('tm_rl');
describe.skipIf(!pgs)('rate limits on PostgreSQL, two API processes', () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r)))));
    await pgs?.drop();
  });

  it('share one counter within the bound: 400 status requests, 40 at once across both, admit 120 to 144; then both refuse', async () => {
    const env = { ...process.env, DATABASE_URL: pgs!.url, TABLEMILL_DB_SCHEMA: pgs!.schema, TABLEMILL_LOG_LEVEL: 'warn' };
    const keyOut = spawnSync(process.execPath, [BIN, 'keys', 'create', '--account', 'acme'], { env, encoding: 'utf8' });
    expect(keyOut.status, keyOut.stderr).toBe(0);
    const key = keyOut.stdout.trim().split('\n').at(-1)!;
    const other = spawnSync(process.execPath, [BIN, 'keys', 'create', '--account', 'other'], { env, encoding: 'utf8' }).stdout.trim().split('\n').at(-1)!;
    const [a, b] = await Promise.all([startServe(env), startServe(env)]);
    children.push(a.child, b.child);
    expect(a.url).not.toBe(b.url);
    const codes = await burst([a.url, b.url], key, '/v1/batches/nosuch', 400, 40);
    const admitted = codes.filter((c) => c === 404).length;
    console.log(`two processes: ${admitted} of 400 admitted (limit 120, bound 120 + 2 × 12)`);
    expect(codes.every((c) => c === 404 || c === 429)).toBe(true);
    // The documented bound: the limit plus N x a tenth of it, N = 2.
    expect(admitted).toBeGreaterThanOrEqual(120);
    expect(admitted).toBeLessThanOrEqual(144);
    // Settled (at most 250 ms later), each process refuses the key.
    await new Promise((r) => setTimeout(r, 600));
    for (const url of [a.url, b.url]) {
      const res = await fetch(`${url}/v1/batches/nosuch`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await res.json()) as any).error.code).toBe('rate_limited');
    }
    const res = await fetch(`${b.url}/v1/batches/nosuch`, { headers: { authorization: `Bearer ${other}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('ratelimit-remaining')).toBe('119');
    // Three process starts (keys create, two serve): ~14 s on an idle machine, minutes under load.
  }, 180_000);
});

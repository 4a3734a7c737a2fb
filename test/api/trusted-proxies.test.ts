// TABLEMILL_TRUSTED_PROXIES: from a trusted peer, the client is the right-most untrusted address
// of X-Forwarded-For, and the failed-authentication limit, the uploads per address and the logs
// use it; off by default, when X-Forwarded-For is nobody's word.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openApi, type ApiHarness } from './harness.js';

const PROXY = '192.0.2.10';

/** `n` requests with wrong keys, through `peer`, each forwarded for `forwarded`; their statuses. */
async function wrongKeys(h: ApiHarness, peer: string, forwarded: string | null, n: number): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) {
    const headers: Record<string, string> = { authorization: `Bearer tm_wrong${i}` };
    if (forwarded !== null) headers['x-forwarded-for'] = forwarded;
    codes.push((await h.app.inject({ method: 'GET', url: '/v1/batches', headers, remoteAddress: peer })).statusCode);
  }
  return codes;
}

describe('trusted proxies', () => {
  let h: ApiHarness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('are validated once: addresses and CIDR ranges, a bad one names the setting; none by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TABLEMILL_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.10 ,fd00::/8,::1' }).trustedProxies).toEqual(['10.0.0.0/8', '192.0.2.10', 'fd00::/8', '::1']);
    for (const bad of ['nope', '10.0.0.0/33', '10.0.0/8', 'fd00::/129', '10.0.0.1/', '1.2.3.4,,']) {
      expect(() => loadConfig({ TABLEMILL_TRUSTED_PROXIES: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ TABLEMILL_TRUSTED_PROXIES: bad })).toThrow(/TABLEMILL_TRUSTED_PROXIES/);
    }
  });

  it('off: X-Forwarded-For is ignored, so every client behind a proxy shares its address', async () => {
    h = await openApi();
    const codes = await wrongKeys(h, PROXY, '203.0.113.5', 30);
    expect(codes.every((c) => c === 401)).toBe(true);
    // Another client behind the same proxy, with a right key: locked out with the first.
    const key = await h.key('acme');
    const res = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.7' }, remoteAddress: PROXY });
    expect(res.statusCode).toBe(429);
  });

  it('on: the right-most untrusted address is the client; limits and logs use it', async () => {
    const logs: string[] = [];
    h = await openApi({ TABLEMILL_TRUSTED_PROXIES: `${PROXY},10.0.0.0/8` }, { level: 'info', stream: { write: (line: string) => void logs.push(line) } });
    // A client that forges addresses in front of its own is still itself (two proxies deep here).
    const codes = await wrongKeys(h, PROXY, '1.2.3.4, 203.0.113.5, 10.1.2.3', 31);
    expect(codes.slice(0, 30).every((c) => c === 401)).toBe(true);
    expect(codes[30]).toBe(429);
    const forged = await wrongKeys(h, PROXY, '9.9.9.9, 203.0.113.5', 1);
    expect(forged).toEqual([429]);
    // Another client behind the same proxy is served.
    const key = await h.key('acme');
    const other = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.7' }, remoteAddress: PROXY });
    expect(other.statusCode).toBe(200);
    // From a peer that is not trusted, X-Forwarded-For is nobody's word: the peer is the client.
    const direct = await wrongKeys(h, '198.51.100.99', '203.0.113.77', 30);
    expect(direct.every((c) => c === 401)).toBe(true);
    expect(await wrongKeys(h, '198.51.100.99', '203.0.113.78', 1)).toEqual([429]);
    // The log of a failed request names the client, not the proxy.
    h.deps.store.listBatches = async () => {
      throw new Error('boom');
    };
    const failed = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.7' }, remoteAddress: PROXY });
    expect(failed.statusCode).toBe(500);
    const line = logs.map((l) => JSON.parse(l) as { client?: string; msg: string }).find((l) => l.msg === 'request failed');
    expect(line?.client).toBe('198.51.100.7');
  });
});

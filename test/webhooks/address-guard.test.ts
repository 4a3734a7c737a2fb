import { createServer, type Server } from 'node:http';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup, literalHostReason, parseCallbackUrl } from '../../src/webhooks/address-guard.js';
import { forbiddenReason } from '../../src/webhooks/ip-ranges.js';
import { sendWebhook } from '../../src/webhooks/send.js';
import { newWebhookSecret } from '../../src/webhooks/signing.js';

// A dual-stack receiver on every local address, so any loopback form that slipped through would
// actually connect and be counted.
let server: Server;
let port = 0;
let connections = 0;
let requests = 0;
const paths: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/elsewhere' });
        res.end();
      } else if (req.url === '/silent') {
        // never answers
      } else res.end('ok');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen({ port: 0, host: '::', ipv6Only: false }, r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

const secret = newWebhookSecret();
const send = (host: string, allowPrivate = false) =>
  sendWebhook({ url: `http://${host}:${port}/hook`, secret, eventId: 'evt_test', body: '{}', timeoutMs: 2000, allowPrivate });

describe('address guard at send time', () => {
  // Every form a loopback address can take in a URL; each would reach the receiver above.
  const loopbackForms = ['127.0.0.1', '127.1', '0x7f000001', '2130706433', '0177.0.0.1', '0.0.0.0', '[::1]', '[::]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'localhost', 'LOCALHOST.', 'a.localhost'];
  for (const host of loopbackForms) {
    it(`refuses ${host} and the receiver sees no connection`, async () => {
      const before = connections;
      const out = await send(host);
      expect(out.status).toBeNull();
      expect(out.error).toMatch(/refused: (loopback|unspecified)/);
      expect(connections).toBe(before);
    });
  }

  it('refuses a host *name* that resolves to loopback (checked in the socket lookup)', async () => {
    const name = hostname();
    const addrs = await lookup(name, { all: true }).catch(() => []);
    if (!addrs.length || !addrs.every((a) => forbiddenReason(a.address) === 'loopback')) return; // machine without such a name
    const before = connections;
    const out = await send(name);
    expect(out.error).toMatch(/refused: loopback/);
    expect(connections).toBe(before);
  });

  it('the guarded lookup refuses localhost itself', async () => {
    const err = await new Promise<Error | null>((r) => guardedLookup(false)('localhost', { all: true }, (e) => r(e)));
    expect(err?.message).toMatch(/refused: loopback/);
  });

  // Addresses that are not ours: refused before any socket exists (no timeout, no connection).
  const table: Array<[string, RegExp]> = [
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.10.1', /link-local/],
    ['169.254.169.254', /metadata/],
    ['100.64.0.1', /cgnat/],
    ['100.127.255.254', /cgnat/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['240.0.0.1', /reserved/],
    ['[fe80::1]', /link-local/],
    ['[fc00::1]', /unique-local/],
    ['[fd12:3456::1]', /unique-local/],
    ['[fd00:ec2::254]', /metadata/],
    ['[ff02::1]', /multicast/],
    ['[::ffff:10.0.0.1]', /private \(ipv4 embedded/],
    ['[::ffff:169.254.169.254]', /metadata \(ipv4 embedded/],
    ['[::ffff:a9fe:a9fe]', /metadata \(ipv4 embedded/],
    ['[64:ff9b::a9fe:a9fe]', /metadata \(ipv4 embedded/],
    ['[2002:c0a8:101::1]', /private \(ipv4 embedded/],
  ];
  for (const [host, reason] of table) {
    it(`refuses ${host}`, async () => {
      const t0 = Date.now();
      const out = await send(host);
      expect(out.status).toBeNull();
      expect(out.error).toMatch(reason);
      expect(Date.now() - t0).toBeLessThan(500);
    });
  }

  it('public addresses are not classified as forbidden', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(forbiddenReason(a)).toBeNull();
  });

  it('with allowPrivate the same loopback receiver is reached', async () => {
    const before = requests;
    const out = await send('127.0.0.1', true);
    expect(out).toEqual({ status: 200, error: null });
    expect(requests).toBe(before + 1);
  });
});

describe('sender', () => {
  it('follows no redirect: a 302 is a failed attempt and its Location is never requested', async () => {
    const out = await sendWebhook({ url: `http://127.0.0.1:${port}/redirect`, secret, eventId: 'evt_r', body: '{}', timeoutMs: 2000, allowPrivate: true });
    expect(out).toEqual({ status: 302, error: null });
    await new Promise((r) => setTimeout(r, 100));
    expect(paths).not.toContain('/elsewhere');
  });

  it('gives up on a receiver that does not answer within the time limit', async () => {
    const t0 = Date.now();
    const out = await sendWebhook({ url: `http://127.0.0.1:${port}/silent`, secret, eventId: 'evt_s', body: '{}', timeoutMs: 300, allowPrivate: true });
    expect(out.status).toBeNull();
    expect(out.error).toMatch(/no answer within 300 ms/);
    expect(Date.now() - t0).toBeLessThan(1500);
  });
});

describe('address guard at registration', () => {
  it('refuses non-http schemes and credentials', () => {
    for (const u of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'http://u:p@example.com/', 'not a url']) {
      expect(() => parseCallbackUrl(u)).toThrow();
    }
  });
  it('gives the reason for literal forbidden addresses, none for names', () => {
    expect(literalHostReason(parseCallbackUrl('http://127.0.0.1/'), false)).toBe('loopback');
    expect(literalHostReason(parseCallbackUrl('http://[::ffff:7f00:1]/'), false)).toMatch(/loopback/);
    expect(literalHostReason(parseCallbackUrl('http://169.254.169.254/latest'), false)).toBe('metadata');
    expect(literalHostReason(parseCallbackUrl('https://hooks.example.com/x'), false)).toBeNull();
    expect(literalHostReason(parseCallbackUrl('http://127.0.0.1/'), true)).toBeNull();
  });
});

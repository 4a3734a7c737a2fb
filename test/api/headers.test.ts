// Headers of issue 25 §8: no HTML page can be framed by another site, /docs runs no inline script
// but its own (by hash), and no /v1 answer — each carries an account's data — is stored.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openApi, type ApiHarness } from './harness.js';
import { withFrameAncestors } from '../../src/api/headers.js';

describe('security and cache headers', () => {
  let h: ApiHarness;
  let key: string;
  beforeAll(async () => {
    h = await openApi();
    key = await h.key('acme');
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(['/', '/docs'])('%s: X-Frame-Options DENY and frame-ancestors \'none\'', async (url) => {
    const res = await h.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = String(res.headers['content-security-policy']);
    expect(csp.match(/frame-ancestors [^;]*/g)).toEqual(["frame-ancestors 'none'"]);
  });

  it('/docs allows exactly its inline scripts, by hash, and no \'unsafe-inline\' script', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/docs' });
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(csp)![1];
    expect(scriptSrc).not.toContain('unsafe-inline');
    const scripts = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(res.body.match(/<script/g)).toHaveLength(scripts.length);
    const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`);
    expect(scriptSrc.split(' ').sort()).toEqual(hashes.sort());
    // No inline event handler attributes (a hash does not admit them).
    expect(res.body).not.toMatch(/<[^>]+\son[a-z]+=/i);
  });

  it('every /v1 answer is Cache-Control: no-store — 200, 201, 304, 401, 404', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const up = await multipart([{ name: 'a.png', bytes: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b550000000a4944415478da63000100000500010d0a2db40000000049454e44ae426082', 'hex') }]);
    const created = await h.app.inject({ method: 'POST', url: '/v1/batches/b1/documents', payload: up.payload, headers: { ...auth, ...up.headers } });
    expect(created.statusCode).toBe(201);
    const doc = created.json().documents[0].id as string;
    const status = await h.app.inject({ method: 'GET', url: '/v1/batches/b1', headers: auth });
    const answers = [
      created,
      status,
      await h.app.inject({ method: 'GET', url: '/v1/batches/b1', headers: { ...auth, 'if-none-match': String(status.headers.etag) } }),
      await h.app.inject({ method: 'GET', url: `/v1/documents/${doc}`, headers: auth }),
      await h.app.inject({ method: 'GET', url: `/v1/documents/${doc}/file`, headers: auth }),
      await h.app.inject({ method: 'GET', url: '/v1/batches', headers: auth }),
      await h.app.inject({ method: 'GET', url: '/v1/batches' }),
      await h.app.inject({ method: 'GET', url: '/v1/batches/nope', headers: auth }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 200, 304, 200, 200, 200, 401, 404]);
    for (const r of answers) expect(r.headers['cache-control']).toBe('no-store');
  });

  it('keeps a page\'s own frame-ancestors and adds one where there is none', () => {
    expect(withFrameAncestors(undefined)).toBe("frame-ancestors 'none'");
    expect(withFrameAncestors("default-src 'self';")).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(withFrameAncestors("default-src 'none'; frame-ancestors 'self'")).toBe("default-src 'none'; frame-ancestors 'self'");
  });
});

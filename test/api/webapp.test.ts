// The web app's files at / and /app/*: every module the page imports is served, from this server
// only, under a Content-Security-Policy that admits exactly the page's one inline script.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApi, type ApiHarness } from './harness.js';

describe('web app files', () => {
  let h: ApiHarness;
  const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    h = await openApi();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves the page with its import map, allowed by hash in the CSP and nothing else inline', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const map = /<script type="importmap">(.*?)<\/script>/s.exec(res.body)![1];
    expect(JSON.parse(map).imports.preact).toBe('/app/vendor/preact.mjs');
    const csp = String(res.headers['content-security-policy']);
    const hash = createHash('sha256').update(map).digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("img-src 'self' blob:");
    // The only inline script is the import map; the app is a module file.
    expect(res.body.match(/<script/g)).toHaveLength(2);
    expect(res.body).toContain('<script type="module" src="/app/main.js"></script>');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves every module the app imports, transitively, from this server (no CDN)', async () => {
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/s.exec((await get('/')).body)![1]).imports as Record<string, string>;
    const seen = new Set<string>();
    const queue = ['/app/main.js'];
    while (queue.length) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      // Static imports in source and minified form: `from './x.js'`, `from"preact"`.
      for (const m of res.body.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+)["']/g)) {
        const spec = m[1];
        expect(spec, `${path} imports ${spec}`).not.toMatch(/^[a-z]+:/i);
        queue.push(spec.startsWith('.') ? new URL(spec, `http://x${path}`).pathname : map[spec] ?? `unmapped:${spec}`);
      }
    }
    expect([...seen].filter((p) => p.startsWith('unmapped:'))).toEqual([]);
    for (const name of ['/app/vendor/preact.mjs', '/app/vendor/preact-hooks.mjs', '/app/vendor/htm.mjs', '/app/vendor/tablemill-client/core.js', '/app/vendor/tablemill-client/wait.js', '/app/sign-in.js', '/app/document-view.js']) {
      expect(seen.has(name), name).toBe(true);
    }
    // The SDK's browser entry is the built package's file, and its Node-only modules are not served.
    expect((await get('/app/vendor/tablemill-client/core.js')).body).toBe(readFileSync(fileURLToPath(import.meta.resolve('@tablemill/client/core')), 'utf8'));
    for (const nodeOnly of ['index.js', 'files.js', 'verify.js']) expect((await get(`/app/vendor/tablemill-client/${nodeOnly}`)).statusCode, nodeOnly).toBe(404);
    // The vendored Preact is node_modules' file byte for byte.
    const preact = await get('/app/vendor/preact.mjs');
    expect(preact.body).toBe(readFileSync(fileURLToPath(import.meta.resolve('preact')), 'utf8'));
    for (const asset of ['/app/style.css', '/app/icon.svg']) expect((await get(asset)).statusCode).toBe(200);
  });

  it('answers a matching ETag with 304, and unknown or escaping paths with the error envelope', async () => {
    const first = await get('/app/main.js');
    const again = await get('/app/main.js', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    for (const path of ['/app/nope.js', '/app/../package.json', '/app/%2e%2e/package.json', '/app/vendor/../../src/config.ts']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});

// /docs in a real browser (Debian's chromium via playwright-core): rendered on the server from
// /openapi.json, readable with scripts off, and each operation can be tried with a key.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { openApi, type ApiHarness } from '../api/harness.js';
import { REPO_ROOT } from '../paths.js';

/** Screenshots kept after the run, to look at. */
const SHOTS = join(REPO_ROOT, '.tmp/docs-e2e');

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('/docs in chromium', () => {
  let h: ApiHarness;
  let browser: Browser;
  let base: string;
  let expected: string[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    h = await openApi();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expected = Object.entries(spec.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const rendered = (page: import('playwright-core').Page) =>
    page.$$eval('details.op', (els) => els.map((e) => `${e.getAttribute('data-method')!.toUpperCase()} ${e.getAttribute('data-path')}`));

  it('with scripts off, every operation of the OpenAPI document is on the page with its parameters and schemas', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/docs`);
    expect((await rendered(page)).sort()).toEqual([...expected].sort());
    expect(await page.textContent('#title')).toContain('Tablemill API');
    const op = page.locator('details.op[data-method="get"][data-path="/v1/batches/{batch_name}"]');
    await op.locator('summary').click();
    const text = await op.textContent();
    expect(text).toContain('batch_name');
    expect(text).toContain('all_done: boolean');
    expect(text).toContain('awaiting_process: integer');
    expect(text).toContain('304');
    await page.screenshot({ path: join(SHOTS, 'docs-noscript.png') });
    await context.close();
  });

  it('tries a request with a key: the answer is shown; every control is labelled; no console errors; nothing fetched elsewhere', async () => {
    const key = await h.key('docs-user');
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The 401 and 404 asked for below are logged by the browser as failed loads: those are expected.
    page.on('console', (m) => m.type() === 'error' && !/status of (401|404) /.test(m.text()) && errors.push(m.text()));
    await page.goto(`${base}/docs`);
    await page.waitForSelector('body[data-interactive]');
    expect((await rendered(page)).sort()).toEqual([...expected].sort());

    // Without a key: the envelope's 401 is shown.
    const list = page.locator('details.op[data-method="get"][data-path="/v1/batches"]');
    await list.locator('summary').click();
    await list.getByRole('button', { name: 'Send GET' }).click();
    await expect.poll(() => list.locator('output').getAttribute('data-status')).toBe('401');
    expect(await list.locator('output').textContent()).toContain('unauthorized');

    // With the key and a parameter: 200 and the JSON.
    await page.getByLabel(/API key/).fill(key);
    await list.getByLabel(/^limit/).fill('5');
    await list.getByRole('button', { name: 'Send GET' }).click();
    await expect.poll(() => list.locator('output').getAttribute('data-status')).toBe('200');
    expect(await list.locator('output').textContent()).toContain('"batches"');
    expect(requests.some((u) => u === `${base}/v1/batches?limit=5`)).toBe(true);

    // A path parameter: a missing batch is 404 batch_not_found.
    const status = page.locator('details.op[data-method="get"][data-path="/v1/batches/{batch_name}"]');
    await status.locator('summary').click();
    await status.getByLabel(/^batch_name/).fill('no-such-batch');
    await status.getByRole('button', { name: 'Send GET' }).click();
    await expect.poll(() => status.locator('output').getAttribute('data-status')).toBe('404');
    expect(await status.locator('output').textContent()).toContain('batch_not_found');
    await page.screenshot({ path: join(SHOTS, 'docs-try.png'), fullPage: false });

    // Every input, textarea and button has an accessible name.
    const unlabelled = await page.$$eval('input, textarea, select, button', (els) =>
      els
        .filter((e) => {
          const id = e.getAttribute('id');
          const doc = (globalThis as any).document;
          const byFor = id ? doc.querySelector(`label[for="${(globalThis as any).CSS.escape(id)}"]`) : null;
          return !byFor && !e.getAttribute('aria-label') && !(e.tagName === 'BUTTON' && e.textContent!.trim());
        })
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    expect(unlabelled).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith(base))).toBe(true);
  });
});

// /docs in a real browser (Debian's chromium via playwright-core): the page renders the endpoints of /openapi.json.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { openApi, type ApiHarness } from '../api/harness.js';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('/docs in chromium', () => {
  let h: ApiHarness;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    h = await openApi();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('renders every operation of the OpenAPI document, with parameters and schemas, and fetches nothing else', async () => {
    const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(spec.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/docs`);
    await page.waitForSelector('body[data-rendered]');
    const rendered = await page.$$eval('details.op', (els) => els.map((e) => `${e.getAttribute('data-method')!.toUpperCase()} ${e.getAttribute('data-path')}`));
    expect(rendered.sort()).toEqual(expected.sort());
    expect(await page.textContent('#title')).toContain('Tablemill API');
    // Open the status endpoint: its path parameter and the Batch schema's fields are shown.
    const op = page.locator('details.op[data-method="get"][data-path="/v1/batches/{batch_name}"]');
    await op.locator('summary').click();
    const text = await op.textContent();
    expect(text).toContain('batch_name');
    expect(text).toContain('all_done: boolean');
    expect(text).toContain('counts: {');
    await page.screenshot({ path: `${h.dir}/docs.png`, fullPage: false });
    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith(base))).toBe(true);
  });
});

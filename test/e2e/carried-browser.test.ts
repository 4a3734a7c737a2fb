// The web app shows where each value came from and lists the warnings above the fields (API.md
// §4c), in Debian's chromium against a real `tablemill serve`: a PDF printing invoice B with
// invoice A's XML attached. The screenshot goes to .tmp/carried/.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { TablemillClient } from '@tablemill/client';
import { INVOICE_A, INVOICE_B, ciiXml, invoicePdf } from '../extract/carried/einvoice.js';
import { REPO_ROOT } from '../paths.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from './server.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(REPO_ROOT, '.tmp/carried');

describe.skipIf(!existsSync(CHROMIUM))('what documents carry, in the web app', () => {
  let server: ServeProcess;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_POLL_MS: '200' };
    key = createKeyCli(env, 'carried');
    server = await serve(env);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("names each value's source and lists the warnings above the fields", async () => {
    const client = new TablemillClient(server.url, key);
    const pdf = await invoicePdf(INVOICE_B, { name: 'factur-x.xml', content: ciiXml(INVOICE_A) });
    const [doc] = (await client.upload('carried', [{ filename: 'b-with-a.pdf', data: pdf }])).documents;
    await client.process('carried');
    await client.waitUntilDone('carried');
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    await page.goto(`${server.url}/`);
    await page.fill('[data-test=api-key]', key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-test=batch-name]');
    await page.goto(`${server.url}/#/documents/${doc!.id}`);
    await page.waitForSelector('[data-test=field]');
    const warnings = page.locator('[data-test=warning]');
    expect(await warnings.count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('[data-test=warning][data-field=invoice_number]').textContent()).toMatch(/INV-1001.*INV-2002/);
    // The warnings stand above the fields.
    const above = await page.evaluate(() => {
      const d = (globalThis as any).document;
      return !!(d.querySelector('[data-test=warnings]').compareDocumentPosition(d.querySelector('[data-test=fields]')) & 4);
    });
    expect(above).toBe(true);
    const source = page.locator('[data-test=field][data-name=invoice_number] [data-test=field-source]');
    expect(await source.getAttribute('data-source')).toBe('embedded');
    expect(await source.textContent()).toBe('e-invoice');
    await page.screenshot({ path: join(SHOTS, 'warnings.png'), fullPage: true });
  });
});

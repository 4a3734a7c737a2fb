// The review desk in a real browser (Debian's chromium via playwright-core) against a real
// `tablemill serve`: upload refusals named where the upload was made while the other files go
// in; the batch page grouped by what needs review (the rule checked against the API's fields and
// checks), whole or middle-truncated file names, delete behind a menu; on a document, the arrow
// keys between fields, items and cells, a value accepted by Enter on it unchanged and by the
// accept button (each a correction with the same value), a corrected currency carried to the line
// items and totals, and a table wider than its card saying so. Screenshots go to .tmp/review-desk/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../paths.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from './server.js';
import { unlabelledControls } from './webapp-helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(REPO_ROOT, '.tmp/review-desk');
const INVOICES = join(REPO_ROOT, 'test/fixtures/invoices');
const LONG = 'Quarterly-statement-of-account-Northwind-Web-Studio-LLC-2026-11-30-final-signed.pdf';
const REVIEW_BELOW = 0.7;

/** What the review rule says of a document read from the API: its uncorrected fields below the threshold and its failed checks. */
function needsOf(doc: any): { fields: string[]; checks: string[] } {
  const fields = Object.entries(doc.fields ?? {}).filter(([k, f]: [string, any]) => k !== 'custom' && f && !f.corrected && f.confidence < REVIEW_BELOW).map(([k]) => k);
  const codes: string[] = [...(doc.totals?.flags ?? []), ...(doc.line_items ?? []).flatMap((i: any) => i.flags), ...(doc.warnings ?? []).map((w: any) => w.code)];
  const checks = doc.fields?.total?.corrected ? [] : [...new Set(codes.filter((c) => c.endsWith('_mismatch')))];
  return { fields, checks };
}

describe.skipIf(!existsSync(CHROMIUM))('the review desk in chromium', () => {
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let key: string;
  const consoleErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const api = async (path: string, init: RequestInit = {}): Promise<any> => (await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } })).json();
  const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-edit') as string | null);
  const results = async () => (await api('/v1/batches/desk/results')).documents as any[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_POLL_MS: '200' };
    key = createKeyCli(env, 'desk');
    server = await serve(env);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await page.goto(`${server.url}/`);
    await page.fill('[data-test=api-key]', key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-test=batch-name]');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('names each refused file and why where the upload was made, and uploads the others', async () => {
    await page.fill('[data-test=batch-name]', 'desk');
    const en = readFileSync(join(INVOICES, 'en-ruled-invoice.pdf'));
    await page.setInputFiles('[data-test=file-input]', [
      { name: 'letter.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from('PK\x03\x04 a word file') },
      { name: 'en-ruled-invoice.pdf', mimeType: 'application/pdf', buffer: en },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') },
      { name: 'ja-ruled-invoice.pdf', mimeType: 'application/pdf', buffer: readFileSync(join(INVOICES, 'ja-ruled-invoice.pdf')) },
      { name: LONG, mimeType: 'application/pdf', buffer: en },
    ]);
    await page.click('[data-test=upload-button]');
    const error = await page.waitForSelector('[data-test=upload-error]');
    // Still on the Batches page, where the files were chosen.
    expect(await page.evaluate(() => (globalThis as any).location.hash)).toMatch(/^(#\/?)?$/);
    const refused = await page.$$eval('[data-test=upload-refused]', (lis) => lis.map((li) => [li.getAttribute('data-file'), li.textContent]));
    expect(refused.map(([f]) => f)).toEqual(['letter.docx', 'notes.txt']);
    expect(refused[0]![1]).toContain('letter.docx is not a PDF, PNG, JPEG, TIFF, WebP');
    expect(refused[1]![1]).toContain('notes.txt is not a PDF, PNG, JPEG, TIFF, WebP');
    expect(await error.textContent()).toContain('The other 3 files are in batch desk');
    await shot('01-upload-refused');
    const stored = ((await api('/v1/batches/desk/results')).documents as any[]).map((d) => d.filename).sort();
    expect(stored).toEqual(['en-ruled-invoice.pdf', 'ja-ruled-invoice.pdf', LONG].sort());
    expect(await unlabelledControls(page)).toEqual([]);
  }, 120_000);

  it('lists the batch by what needs review, by the threshold and the checks only, names whole or cut in the middle, delete behind a menu', async () => {
    expect((await api('/v1/batches/desk/process', { method: 'POST' })).batch.batch_name).toBe('desk');
    await page.goto(`${server.url}/#/batches/desk`);
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=batch-status]')?.textContent === 'succeeded', undefined, { timeout: 180_000 });
    await page.waitForSelector('[data-test=review-state] >> nth=2');
    const docs = await results();
    const shown = await page.$$eval('[data-test=doc-row]', (trs) =>
      trs.map((tr) => {
        const s = tr.querySelector('[data-test=review-state]')!;
        return { id: tr.getAttribute('data-id'), group: tr.closest('[data-test=doc-group]')!.getAttribute('data-group'), state: s.getAttribute('data-state'), fields: s.getAttribute('data-count'), checks: s.getAttribute('data-checks') };
      }),
    );
    for (const d of docs) {
      const n = needsOf(d);
      const row = shown.find((r) => r.id === d.id)!;
      const needs = n.fields.length + n.checks.length > 0;
      expect(row.state, d.filename).toBe(needs ? 'needs' : 'sure');
      expect(row.group).toBe(needs ? 'needs' : 'done');
      if (needs) expect([row.fields, row.checks]).toEqual([String(n.fields.length), String(n.checks.length)]);
    }
    // The groups in order, each headed with its count.
    const groups = await page.$$eval('[data-test=doc-group]', (gs) => gs.map((g) => [g.getAttribute('data-group'), g.querySelector('tr.group')!.textContent!.trim()]));
    expect(groups.map(([g]) => g)).toEqual(['needs', 'done'].filter((g) => shown.some((r) => r.group === g)));
    for (const [g, title] of groups) expect(title).toContain(`(${shown.filter((r) => r.group === g).length})`);

    // The long name: one line, its start and its end with an ellipsis between, the whole in the title.
    const long = page.locator('[data-test=doc-row]', { hasText: 'Quarterly' });
    const name = long.locator('[data-test=doc-name]');
    expect(await name.getAttribute('title')).toBe(LONG);
    const visible = await name.locator('[aria-hidden=true]').textContent();
    expect(visible).toMatch(/^Quarterly-statement-of-acc[^…]*…[^…]*-signed\.pdf$/);
    expect(visible!.length).toBeLessThanOrEqual(44);
    const lineHeight = await name.evaluate((el) => parseFloat((el.ownerDocument.defaultView as any).getComputedStyle(el).lineHeight) || 24);
    expect((await name.locator('[aria-hidden=true]').boundingBox())!.height).toBeLessThan(1.5 * lineHeight);
    expect(await page.locator('[data-test=doc-row]', { hasText: 'ja-ruled-invoice.pdf' }).locator('[data-test=doc-name]').textContent()).toBe('ja-ruled-invoice.pdf');

    // Delete is in a menu and asks again; Cancel keeps the document.
    expect(await long.locator('[data-test=doc-delete]').isVisible()).toBe(false);
    await long.locator('[data-test=doc-menu] summary').click();
    await long.locator('[data-test=doc-delete]').click();
    expect(await long.locator('[data-test=doc-delete-confirm]').isVisible()).toBe(true);
    await shot('02-batch-groups');
    await long.getByText('Cancel').click();
    expect((await results()).length).toBe(3);
    expect(await unlabelledControls(page)).toEqual([]);
  }, 240_000);

  it('moves with the arrow keys between fields, items and cells; accepts a value by Enter on it unchanged and by the accept button', async () => {
    const doc = (await results()).find((d) => d.filename === 'ja-ruled-invoice.pdf');
    const before = needsOf(doc);
    expect(before.fields.length).toBeGreaterThan(0);
    await page.goto(`${server.url}/#/documents/${doc.id}`);
    await page.waitForSelector('[data-test=field] >> nth=1');
    const state = page.locator('[data-test=review-nav] [data-test=review-state]');
    expect(await state.getAttribute('data-count')).toBe(String(before.fields.length));
    expect(await state.textContent()).toContain(`needs review: ${before.fields.length} field`);

    // Fields: down and up, in the order shown; from the last field down into the line items, then across and down.
    const names = await page.$$eval('[data-test=field]', (ds) => ds.map((d) => d.getAttribute('data-name')));
    await page.focus(`[data-edit="f:${names[0]}"]`);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(`f:${names[1]}`);
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(`f:${names[0]}`);
    await page.focus(`[data-edit="f:${names.at(-1)}"]`);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('i0:description');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('i0:quantity');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('i1:quantity');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(`f:${names.at(-1)}`);
    // From the last item down into the first table.
    const items = doc.line_items.length;
    await page.focus(`[data-edit="i${items - 1}:description"]`);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toMatch(/^t0:\d+:\d+$/);

    // Enter, then Enter on the value as it is: accepted, a correction with the same value.
    const first = before.fields[0]!;
    await page.focus(`[data-edit="f:${first}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-test=edit-input]');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-edit="f:${first}"][data-corrected=true]`);
    let now = await api(`/v1/documents/${doc.id}/results`);
    expect(now.fields[first]).toMatchObject({ value: doc.fields[first].value, corrected: true, source: 'correction' });
    expect(await page.textContent('[data-test=save-status]')).toBe(`Saved ${first.replace(/_/g, ' ')} (accepted).`);

    // The accept button on each other doubtful field, and only on those.
    const buttons = await page.$$eval('[data-test=field-accept]', (bs) => bs.map((b) => b.closest('[data-test=field]')!.getAttribute('data-name')));
    expect(buttons).toEqual(names.filter((n) => before.fields.slice(1).includes(n!)));
    for (const name of before.fields.slice(1)) {
      await page.locator(`[data-test=field][data-name=${name}] [data-test=field-accept]`).click();
      await page.waitForSelector(`[data-edit="f:${name}"][data-corrected=true]`);
    }
    now = await api(`/v1/documents/${doc.id}/results`);
    for (const name of before.fields) expect(now.fields[name]).toMatchObject({ value: doc.fields[name].value, corrected: true });
    // A corrected field has no accept button; the badge follows.
    expect(await page.locator(`[data-test=field][data-name=${first}] [data-test=field-accept]`).count()).toBe(0);
    const after = needsOf(now);
    if (after.checks.length) expect(await state.getAttribute('data-checks')).toBe(String(after.checks.length));
    else await page.waitForSelector('[data-test=review-nav] [data-test=review-state][data-state=reviewed]');
    await shot('03-accepted');
    expect(await unlabelledControls(page)).toEqual([]);
  }, 120_000);

  it('carries a corrected currency to the line items and totals; a table wider than its card says so', async () => {
    const doc = (await results()).find((d) => d.filename === 'en-ruled-invoice.pdf');
    expect(doc.fields.currency.value).toBe('USD');
    await page.goto(`${server.url}/#/documents/${doc.id}`);
    await page.waitForSelector('[data-test=line-items] tbody tr');
    const currencies = () => page.$$eval('[data-test=line-items] tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[4]!.textContent!.trim()));
    expect(new Set(await currencies())).toEqual(new Set(['USD']));
    await page.focus('[data-edit="f:currency"]');
    await page.keyboard.type('eur');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-edit="f:currency"][data-corrected=true]');
    await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('[data-test=line-items] tbody tr')].every((tr: any) => tr.querySelectorAll('td')[4].textContent.trim() === 'EUR'));
    expect(await page.$$eval('[data-test=line-items] tfoot tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[1]!.textContent))).toEqual(['EUR', 'EUR', 'EUR']);
    const r = await api(`/v1/documents/${doc.id}/results`);
    expect(r.line_items.map((i: any) => i.currency)).toEqual(doc.line_items.map(() => 'EUR'));
    expect(r.totals.currency).toBe('EUR');
    // Taught to the vendor with what was corrected.
    expect((await api('/v1/vendors')).vendors.flatMap((v: any) => v.fields)).toContain('currency');
    await shot('04-currency');

    // At a phone's width the six columns of the line items do not fit: the card says there are more.
    await page.setViewportSize({ width: 375, height: 812 });
    const more = page.locator('[data-test=more-columns]').first();
    await more.waitFor();
    expect(await more.textContent()).toBe('6 columns, wider than this card: scroll sideways for the ones to the right.');
    await shot('05-wide-table');
    await page.locator('[data-test=line-items]').evaluate((t) => t.parentElement!.scrollTo({ left: 10_000 }));
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=more-columns]').textContent === '6 columns, wider than this card: scroll sideways.');
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);

  it('logged no console error', () => {
    expect(consoleErrors).toEqual([]);
  });
});

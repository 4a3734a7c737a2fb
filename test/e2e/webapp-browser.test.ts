// The web app in a real browser (Debian's chromium via playwright-core) against a real
// `tablemill serve`: sign in, upload a PDF (file input) and a PNG (dropped), process, follow the
// progress, open a document, compare its tables with the API and the engine, download the XLSX.
// Screenshots of each step go to .tmp/webapp-e2e/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../paths.js';
import { ICDAR_DIR } from './fixtures.js';
import { createKeyCli, extractCli, serve, tempDataDir, type ServeProcess } from './server.js';
import { dropFile, pageBasics, sidewaysOverflow, unlabelledControls, viewerGeometry } from './webapp-helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(REPO_ROOT, '.tmp/webapp-e2e');
const PDF = join(ICDAR_DIR, 'eu-001.pdf');
const PNG = join(REPO_ROOT, 'test/fixtures/images/grid-clean.png');
const INVOICES = join(REPO_ROOT, 'test/fixtures/invoices');

interface Cell { row: number; col: number; row_span: number; col_span: number; text: string; confidence: number | null }
interface Table { page: number; cells: Cell[] }

/** The page's result tables equal `tables` cell by cell: position, spans, text, and the confidence shown as a percentage. */
async function expectTablesShown(page: Page, tables: Table[]): Promise<void> {
  const shown = await page.$$eval('[data-test=result-table]', (els) =>
    els.map((t) =>
      Array.from(t.querySelectorAll('[data-row]') as unknown as ArrayLike<typeof t>).map((td) => ({
        row: Number(td.getAttribute('data-row')),
        col: Number(td.getAttribute('data-col')),
        row_span: Number(td.getAttribute('rowspan') ?? 1),
        col_span: Number(td.getAttribute('colspan') ?? 1),
        text: td.querySelector('.cell-text')!.textContent,
        confidence: td.querySelector('.conf')?.textContent ?? null,
      })),
    ),
  );
  const want = tables.map((t) =>
    [...t.cells]
      .sort((a, b) => a.row - b.row || a.col - b.col)
      .map((c) => ({ ...c, confidence: c.confidence === null ? null : `${Math.round(c.confidence * 100)} %` }))
      .map(({ row, col, row_span, col_span, text, confidence }) => ({ row, col, row_span, col_span, text, confidence })),
  );
  expect(shown).toEqual(want);
}

describe.skipIf(!existsSync(CHROMIUM))('web app in chromium', () => {
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let key: string;
  const consoleErrors: string[] = [];
  const foreign: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}` } });
  const api = async (path: string): Promise<any> => (await call(path)).json();
  /** Clicks a download button and returns the file's name and bytes. */
  const download = async (selector: string) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    const path = join(SHOTS, d.suggestedFilename());
    await d.saveAs(path);
    return { name: d.suggestedFilename(), path, bytes: readFileSync(path) };
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // Private webhook URLs allowed: the test registers one on 127.0.0.1 (nothing is delivered to it).
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_POLL_MS: '200', TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1' };
    key = createKeyCli(env, 'webapp');
    server = await serve(env);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('request', (r) => !r.url().startsWith(server.url) && !r.url().startsWith('blob:') && !r.url().startsWith('data:') && foreign.push(r.url()));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in with the keyboard, uploads by file input and by drop, processes and follows the progress live', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-test=api-key]');
    await shot('01-sign-in');
    expect(await unlabelledControls(page)).toEqual([]);
    // Keyboard only: Tab to the key field, type, Enter submits.
    for (let i = 0; i < 10 && !(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-test') === 'api-key')); i++) await page.keyboard.press('Tab');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');

    await page.waitForSelector('[data-test=batch-name]');
    await page.fill('[data-test=batch-name]', 'e2e-web');
    await page.setInputFiles('[data-test=file-input]', PDF);
    await dropFile(page, '[data-test=drop-zone]', 'grid-clean.png', 'image/png', readFileSync(PNG));
    await page.waitForSelector('[data-test=upload-file] >> nth=1');
    await shot('02-files-chosen');
    expect(await unlabelledControls(page)).toEqual([]);
    await page.click('[data-test=upload-button]');

    await page.waitForFunction(() => (globalThis as any).location.hash === '#/batches/e2e-web');
    await page.waitForSelector('[data-test=doc-row] >> nth=1');
    await page.waitForSelector('[data-test=batch-status]');
    expect(await page.textContent('[data-test=batch-status]')).toBe('queued');
    // Uploaded, not processed: said so, with the Process button as the page's main action.
    await page.waitForSelector('[data-test=not-processed]');
    expect(await page.textContent('[data-test=not-processed]')).toContain('2 documents are uploaded and not processed yet');
    expect(await page.getAttribute('[data-test=process-button]', 'class')).toBe('');
    await shot('03-uploaded');

    const polls: string[] = [];
    page.on('request', (r) => /\/v1\/batches\/e2e-web\?wait=/.test(r.url()) && polls.push(r.url()));
    const started = Date.now();
    await page.click('[data-test=process-button]');
    await page.waitForFunction(
      () => [...(globalThis as any).document.querySelectorAll('[data-test=doc-row]')].filter((r) => r.getAttribute('data-status') === 'succeeded').length === 2,
      undefined,
      { timeout: 240_000 },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(await page.locator('[data-test=not-processed]').count()).toBe(0);
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=batch-status]')?.textContent === 'succeeded');
    await shot('04-processed');
    // Long-poll, not a loop: at most two status requests a second while it ran (each waits up to 25 s).
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.length).toBeLessThanOrEqual(2 * seconds + 2);
    expect(polls.every((u) => /wait=(0|25)\b/.test(u))).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
  }, 300_000);

  it('opens the PDF: page image with tables outlined, result tables equal to the API and the engine, cell confidences shown', async () => {
    const row = page.locator('[data-test=doc-row]', { hasText: 'eu-001.pdf' });
    const id = await row.getAttribute('data-id');
    await row.locator('[data-test=doc-open]').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-test=result-table]');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=page-image]')?.naturalWidth === 1200, undefined, { timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, '05-document.png') });

    const result = (await api(`/v1/documents/${id}/results`)) as { tables: Table[] };
    const engine = extractCli(PDF) as unknown as { tables: Table[] };
    expect(result.tables.length).toBeGreaterThan(0);
    expect(result.tables.map((t) => t.cells.map((c) => c.text))).toEqual(engine.tables.map((t) => t.cells.map((c) => c.text)));
    await expectTablesShown(page, result.tables);
    expect(await pageBasics(page)).toEqual({ imagesWithoutAlt: 0, lang: 'en', title: 'eu-001.pdf – Tablemill' });
    const outlined = await page.$$eval('[data-test=table-outline]', (gs) => gs.map((g) => Number(g.getAttribute('data-index'))));
    expect(outlined).toEqual(result.tables.flatMap((t, i) => (t.page === 1 ? [i] : [])));
    expect(await page.locator('[data-test=fields]').count()).toBe(1);
    expect(await page.locator('[data-test=line-items]').count()).toBe(1);
    expect(await unlabelledControls(page)).toEqual([]);

    // The PNG's cells show their OCR confidence as a percentage.
    await page.goto(`${server.url}/#/batches/e2e-web`);
    await page.locator('[data-test=doc-row]', { hasText: 'grid-clean.png' }).locator('[data-test=doc-open]').click();
    await page.waitForSelector('[data-test=result-table]');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=page-image]')?.naturalWidth > 0, undefined, { timeout: 60_000 });
    const imageId = await page.evaluate(() => decodeURIComponent((globalThis as any).location.hash.split('/')[2]) as string);
    const imageResult = (await api(`/v1/documents/${imageId}/results`)) as { tables: Table[] };
    expect(imageResult.tables.flatMap((t) => t.cells).some((c) => c.confidence !== null)).toBe(true);
    await expectTablesShown(page, imageResult.tables);
    await page.screenshot({ path: join(SHOTS, '06-image-document.png') });
  }, 180_000);

  it('shows each invoice\'s type, key fields and total on the batch page, amounts with their decimals', async () => {
    const form = new FormData();
    for (const f of ['en-ruled-invoice.pdf', 'ja-ruled-invoice.pdf']) form.append('file', new Blob([readFileSync(join(INVOICES, f))]), f);
    expect((await call('/v1/batches/e2e-invoices/documents', { method: 'POST', body: form })).status).toBe(201);
    expect((await call('/v1/batches/e2e-invoices/process', { method: 'POST' })).status).toBe(202);
    await page.goto(`${server.url}/#/batches/e2e-invoices`);
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=batch-status]')?.textContent === 'succeeded', undefined, { timeout: 120_000 });
    await page.waitForSelector('[data-test=doc-total] >> nth=1');
    const rows = await page.$$eval('[data-test=doc-row]', (trs) =>
      trs.map((tr) => ({
        file: tr.querySelector('th')!.textContent,
        type: tr.querySelector('[data-test=doc-type]')!.textContent,
        summary: tr.querySelector('[data-test=doc-summary]')?.textContent ?? '',
        total: tr.querySelector('[data-test=doc-total]')?.textContent ?? '',
      })),
    );
    const en = rows.find((r) => r.file === 'en-ruled-invoice.pdf')!;
    const ja = rows.find((r) => r.file === 'ja-ruled-invoice.pdf')!;
    expect(en.type).toMatch(/^invoice/);
    for (const v of ['INV-2026-0142', '2026-11-30', 'Northwind Web Studio LLC', '4 line items']) expect(en.summary).toContain(v);
    expect(en.summary).toMatch(/\d+ tables? · /);
    expect(en.total).toBe('6,283.89 USD');
    // Yen have no minor unit: no decimals invented.
    expect(ja.summary).toContain('2026-118');
    expect(ja.total).toBe('307,934 JPY');
    // Nothing awaits processing: Process is disabled; the downloads are there.
    expect(await page.isDisabled('[data-test=process-button]')).toBe(true);
    expect(await page.isEnabled('[data-test=download-xlsx]')).toBe(true);
    await shot('10-invoice-batch');

    await page.locator('[data-test=doc-row]', { hasText: 'en-ruled-invoice.pdf' }).locator('[data-test=doc-open]').click();
    await page.waitForSelector('[data-test=line-items] tbody tr');
    const items = await page.$$eval('[data-test=line-items] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent)));
    expect(items).toEqual([
      ['1', '4,800.00', '4,800.00'],
      ['12', '25.00', '300.00'],
      ['7.5', '90.00', '675.00'],
      ['2', '14.99', '29.98'],
    ]);
    const foot = await page.$$eval('[data-test=line-items] tfoot tr', (trs) => trs.map((tr) => tr.querySelector('td')!.textContent));
    expect(foot).toEqual(['5,804.98', '478.91', '6,283.89']);
    expect(await page.textContent('[data-test=fields] [data-field=total] .value')).toBe('6,283.89');
    expect(await page.textContent('[data-test=fields] [data-field=invoice_number] .value')).toBe('INV-2026-0142');
  }, 180_000);

  it('zooms the page with the buttons and Ctrl + wheel; the outlines stay on their cells at every zoom', async () => {
    // The invoice opened by the test before.
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=page-image]')?.naturalWidth === 1200, undefined, { timeout: 60_000 });
    expect(await page.isDisabled('[data-test=zoom-out]')).toBe(true);
    expect(await page.isDisabled('[data-test=zoom-reset]')).toBe(true);
    await page.evaluate(() => (globalThis as any).document.querySelector('[data-test=page-viewport]').scrollIntoView({ block: 'start' }));
    const result = await api(`/v1/documents/${await page.evaluate(() => decodeURIComponent((globalThis as any).location.hash.split('/')[2]))}/results`);
    const onPage1 = result.tables.flatMap((t: { page: number; pages: number[]; cells: { row: number; col: number; text: string; bbox: number[] }[] }, i: number) => (t.page === 1 && t.pages.length <= 1 ? t.cells.map((c) => ({ ...c, key: `${i}:${c.row},${c.col}` })) : []));
    const bboxOf = new Map<string, number[]>(onPage1.map((c: { key: string; bbox: number[] }) => [c.key, c.bbox]));

    /** Every outline where its cell's box falls on the image, within 1.5 px. */
    const check = async (label: string) => {
      const g = await viewerGeometry(page);
      const sx = g.image.width / g.pageSize[0];
      const sy = g.image.height / g.pageSize[1];
      expect(g.cells.length, label).toBe(onPage1.length);
      for (const c of g.cells) {
        const b = bboxOf.get(`${c.table}:${c.row},${c.col}`)!;
        expect(Math.abs(c.box.x - (g.image.x + b[0] * sx)), `${label} cell ${c.row},${c.col} x`).toBeLessThan(1.5);
        expect(Math.abs(c.box.y - (g.image.y + b[1] * sy)), `${label} cell ${c.row},${c.col} y`).toBeLessThan(1.5);
        expect(Math.abs(c.box.width - (b[2] - b[0]) * sx), `${label} cell ${c.row},${c.col} width`).toBeLessThan(1.5);
      }
      return g;
    };
    const fit = await check('fit');
    await page.click('[data-test=zoom-in]');
    await page.click('[data-test=zoom-in]');
    expect(await page.textContent('[data-test=zoom-level]')).toBe('156 %');
    const buttons = await check('zoomed by the buttons');
    expect(buttons.image.width / fit.image.width).toBeCloseTo(1.5625, 2);
    // The sharper image arrives past 1.5×, and the outlines still fit it.
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=page-image]')?.naturalWidth === 2400, undefined, { timeout: 60_000 });
    await check('sharp image');
    await page.screenshot({ path: join(SHOTS, '11-zoomed-buttons.png') });

    // Ctrl + wheel (what a trackpad pinch sends) zooms around the pointer: the page point under it stays put.
    const vp = (await viewerGeometry(page)).viewport;
    const [mx, my] = [vp.x + vp.width * 0.4, vp.y + vp.height * 0.3];
    const under = (g: Awaited<ReturnType<typeof viewerGeometry>>) => [((mx - g.image.x) / g.image.width) * g.pageSize[0], ((my - g.image.y) / g.image.height) * g.pageSize[1]];
    const before = under(await viewerGeometry(page));
    await page.mouse.move(mx, my);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -240);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=zoom-level]')?.textContent !== '156 %');
    const wheeled = await check('zoomed by the wheel');
    expect(wheeled.image.width / fit.image.width).toBeGreaterThan(2);
    const after = under(wheeled);
    expect(Math.abs(after[0] - before[0])).toBeLessThan(wheeled.pageSize[0] / 100);
    expect(Math.abs(after[1] - before[1])).toBeLessThan(wheeled.pageSize[1] / 100);
    // The window itself did not zoom or scroll sideways; the page scrolls inside its viewport.
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.screenshot({ path: join(SHOTS, '12-zoomed-wheel.png') });

    await page.click('[data-test=zoom-reset]');
    expect(await page.textContent('[data-test=zoom-level]')).toBe('100 %');
    const reset = await check('reset');
    expect(reset.image.width).toBeCloseTo(fit.image.width, 0);
    expect(await page.isDisabled('[data-test=zoom-out]')).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
  }, 120_000);

  it('reviews by keyboard: needs-review order, a field and a table cell edited, a word of the page clicked into a field, marks, the XLSX, Alt+N and Alt+P', async () => {
    const results = (await api('/v1/batches/e2e-invoices/results')).documents as any[];
    const en = results.find((d) => d.filename === 'en-ruled-invoice.pdf');
    const ja = results.find((d) => d.filename === 'ja-ruled-invoice.pdf');
    // Both have fields below 70 % (their vendor addresses or names, 60 %); the English one's corrected, it needs no review.
    expect(ja.fields.vendor_name.confidence).toBeLessThan(0.7);
    const low = Object.entries(en.fields).filter(([, f]: [string, any]) => f && f.confidence < 0.7).map(([k]) => k);
    expect(low.length).toBeGreaterThan(0);
    const put = await fetch(`${server.url}/v1/documents/${en.id}/corrections`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: Object.fromEntries(low.map((k) => [k, en.fields[k].value])) }),
    });
    expect(put.status).toBe(200);

    await page.goto(`${server.url}/#/batches/e2e-invoices`);
    await page.waitForSelector('[data-test=doc-row] >> nth=1');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=doc-row] th')?.textContent === 'ja-ruled-invoice.pdf');
    const rows = await page.$$eval('[data-test=doc-row]', (trs) => trs.map((tr) => { const s = tr.querySelector('[data-test=review-state]')!; return [tr.querySelector('th')!.textContent, s.getAttribute('data-state'), s.getAttribute('data-count')]; }));
    expect(rows).toEqual([['ja-ruled-invoice.pdf', 'needs', '1'], ['en-ruled-invoice.pdf', 'reviewed', null]]);
    await shot('13-review-order');

    // Keyboard only from here: the review button, Alt+N to the next document.
    await page.focus('[data-test=review-start]');
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => (globalThis as any).location.hash === `#/documents/${id}`, ja.id);
    expect(await (await page.waitForSelector('[data-test=review-position]')).textContent()).toBe('Document 1 of 2');
    await page.waitForSelector('[data-test=fields]');
    await page.keyboard.press('Alt+KeyN');
    await page.waitForFunction((id) => (globalThis as any).location.hash === `#/documents/${id}`, en.id);
    await page.waitForSelector('[data-edit="f:invoice_number"]');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-test=page-image]')?.naturalWidth > 0, undefined, { timeout: 60_000 });
    expect(await page.textContent('[data-test=review-position]')).toBe('Document 2 of 2');
    // The API's corrections show as marks.
    for (const k of low) expect(await page.getAttribute(`[data-edit="f:${k}"]`, 'data-corrected')).toBe('true');

    // A field: focus shows its box on the page, Enter edits, Enter saves and moves on.
    await page.focus('[data-edit="f:invoice_number"]');
    const onPage = async () => {
      const g = await viewerGeometry(page);
      const r = (await page.locator('[data-test=focus-box]').boundingBox())!;
      const sx = g.image.width / g.pageSize[0];
      const sy = g.image.height / g.pageSize[1];
      return [(r.x - g.image.x) / sx, (r.y - g.image.y) / sy, (r.x + r.width - g.image.x) / sx, (r.y + r.height - g.image.y) / sy];
    };
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) < 2);
    expect(near(await onPage(), en.fields.invoice_number.bbox), 'the invoice number box').toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('data-test') === 'edit-input', undefined, { timeout: 5_000 });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('INV-REVIEWED-7');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-edit="f:invoice_number"][data-corrected=true]');
    expect(await page.textContent('[data-test=save-status]')).toBe('Saved invoice number.');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.getAttribute('data-edit'))).not.toBe('f:invoice_number');
    expect((await api(`/v1/documents/${en.id}/results`)).fields.invoice_number).toMatchObject({ value: 'INV-REVIEWED-7', corrected: true, source: 'correction' });

    // A table cell: typing opens it with what is typed, the arrows move between cells, Tab saves.
    const cell = en.tables[0].cells.find((c: any) => c.row === 1 && c.col === 1);
    await page.focus('[data-edit="t0:1:1"]');
    expect(near(await onPage(), cell.bbox), 'the cell box').toBe(true);
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.getAttribute('data-edit'))).toBe('t0:1:2');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('Reviewed cell');
    await page.keyboard.press('Tab');
    await page.waitForSelector('[data-edit="t0:1:1"][data-corrected=true]');
    expect(await page.textContent('[data-edit="t0:1:1"] .cell-text')).toBe('Reviewed cell');
    expect((await api(`/v1/documents/${en.id}/results`)).tables[0].cells.find((c: any) => c.row === 1 && c.col === 1).text).toBe('Reviewed cell');
    expect((await api(`/v1/documents/${en.id}/results?view=extracted`)).tables[0].cells.find((c: any) => c.row === 1 && c.col === 1).text).toBe(cell.text);

    // A word of the page into a field: click one, Shift-click the next to add it, Enter saves.
    await page.focus('[data-edit="f:customer_name"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-test=page-word]');
    const words = (await api(`/v1/documents/${en.id}/words`)).pages[0].words as { text: string; bbox: number[] }[];
    const north = words.findIndex((w) => w.text === 'Northwind');
    expect(words[north + 1]!.text).toBe('Web');
    await page.locator('[data-test=page-word][data-text=Northwind]').first().click();
    expect(near(await onPage(), words[north]!.bbox), 'the clicked word box').toBe(true);
    await page.locator('[data-test=page-word][data-text=Web]').first().click({ modifiers: ['Shift'] });
    expect(await page.inputValue('[data-test=edit-input]')).toBe('Northwind Web');
    await shot('14-review-word');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-edit="f:customer_name"][data-corrected=true]');
    expect((await api(`/v1/documents/${en.id}/results`)).fields.customer_name.value).toBe('Northwind Web');
    // Escape puts a value back.
    await page.focus('[data-edit="f:order_number"]');
    await page.keyboard.type('nothing');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('data-edit') === 'f:order_number', undefined, { timeout: 5_000 });
    expect(await page.textContent('[data-edit="f:order_number"] .value')).toBe('PO-7781');
    await shot('15-review-marks');
    expect(await unlabelledControls(page)).toEqual([]);

    // The document's XLSX has the field and the cell as corrected.
    const { path } = await download('[data-test=download-xlsx]');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const values = (name: string) => {
      const out: unknown[] = [];
      wb.getWorksheet(name)!.eachRow((r) => out.push(...(r.values as unknown[])));
      return out;
    };
    expect(values('Fields')).toContain('INV-REVIEWED-7');
    expect(values('Fields')).toContain('Northwind Web');
    expect(wb.worksheets.slice(3).some((w) => values(w.name).includes('Reviewed cell'))).toBe(true);

    await page.keyboard.press('Alt+KeyP');
    await page.waitForFunction((id) => (globalThis as any).location.hash === `#/documents/${id}`, ja.id);
  }, 120_000);

  it('is usable at a phone width of 375 px: nothing scrolls sideways, the main controls are on screen', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${server.url}/#/batches/e2e-web`);
    await page.waitForSelector('[data-test=doc-row] >> nth=1');
    expect(await sidewaysOverflow(page)).toBe(0);
    for (const sel of ['[data-test=process-button]', '[data-test=download-xlsx]', '[data-test=doc-open] >> nth=0', '[data-test=upload-button]']) {
      const box = (await page.locator(sel).boundingBox())!;
      expect(box.x, sel).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, sel).toBeLessThanOrEqual(375);
    }
    await shot('07-phone-batch');
    await page.locator('[data-test=doc-open] >> nth=0').click();
    await page.waitForSelector('[data-test=result-table]');
    await page.waitForSelector('[data-test=page-image]');
    expect(await sidewaysOverflow(page)).toBe(0);
    await shot('08-phone-document');
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 60_000);

  it('downloads the batch as XLSX, read back with exceljs, and in every other format', async () => {
    await page.goto(`${server.url}/#/batches/e2e-web`);
    await page.waitForSelector('[data-test=download-xlsx]');
    const { name, path } = await download('[data-test=download-xlsx]');
    expect(name).toBe('e2e-web.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const names = wb.worksheets.map((w) => w.name);
    expect(names.slice(0, 3)).toEqual(['Documents', 'Fields', 'Line items']);
    const results = (await api('/v1/batches/e2e-web/results')) as { documents: { filename: string; tables: Table[] }[] };
    expect(names.length).toBe(3 + results.documents.reduce((n, d) => n + d.tables.length, 0));
    const docs = wb.getWorksheet('Documents')!;
    const header = (docs.getRow(1).values as unknown[]).map((v) => String(v ?? '').toLowerCase());
    const col = header.indexOf('filename');
    expect(col).toBeGreaterThan(0);
    const filenames: string[] = [];
    docs.eachRow((r, n) => n > 1 && filenames.push(String(r.getCell(col).value)));
    expect(filenames.sort()).toEqual(['eu-001.pdf', 'grid-clean.png']);

    const json = await download('[data-test=download-json]');
    expect(json.name).toBe('e2e-web.json');
    expect(JSON.parse(json.bytes.toString()).documents.map((d: { filename: string }) => d.filename).sort()).toEqual(['eu-001.pdf', 'grid-clean.png']);
    const ndjson = await download('[data-test=download-ndjson]');
    expect(ndjson.bytes.toString().trim().split('\n').map((l) => JSON.parse(l).filename).sort()).toEqual(['eu-001.pdf', 'grid-clean.png']);
    const csv = await download('[data-test=download-csv]');
    expect(csv.name).toBe('e2e-web.csv');
    expect(csv.bytes.toString()).toContain('grid-clean.png');
    const zip = await download('[data-test=download-zip]');
    expect(zip.name).toBe('e2e-web.zip');
    expect(zip.bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
  }, 60_000);

  it('sets and removes the webhook, deletes a document and the batch, and the batch list follows a batch live', async () => {
    await page.goto(`${server.url}/#/batches/e2e-web`);
    await page.fill('[data-test=webhook-url]', 'http://127.0.0.1:9/hook');
    await page.click('[data-test=webhook-save]');
    expect(await (await page.waitForSelector('[data-test=webhook-secret-shown] code')).textContent()).toMatch(/^whsec_/);
    expect((await api('/v1/batches/e2e-web')).webhook_url).toBe('http://127.0.0.1:9/hook');
    await page.click('[data-test=webhook-remove]');
    await page.waitForSelector('[data-test=webhook-remove]', { state: 'detached' });
    expect((await api('/v1/batches/e2e-web')).webhook_url).toBeNull();

    const png = page.locator('[data-test=doc-row]', { hasText: 'grid-clean.png' });
    const pngId = await png.getAttribute('data-id');
    await png.locator('[data-test=doc-menu] summary').click();
    await png.locator('[data-test=doc-delete]').click();
    await png.locator('[data-test=doc-delete-confirm]').click();
    await page.waitForSelector('[data-test=doc-row] >> nth=1', { state: 'detached' });
    expect((await call(`/v1/documents/${pngId}`)).status).toBe(404);

    // A batch uploaded and processed by another client: its row on the list changes without a reload.
    const form = new FormData();
    form.append('file', new Blob([readFileSync(PNG)]), 'live.png');
    expect((await call('/v1/batches/e2e-live/documents', { method: 'POST', body: form })).status).toBe(201);
    await page.goto(`${server.url}/#/`);
    const live = page.locator('[data-test=batch-row]', { hasText: 'e2e-live' });
    await live.waitFor();
    expect(await live.getAttribute('data-status')).toBe('queued');
    expect((await call('/v1/batches/e2e-live/process', { method: 'POST' })).status).toBe(202);
    await page.waitForSelector('[data-test=batch-row][data-status=succeeded] >> text=e2e-live', { timeout: 120_000 });
    await shot('09-batch-list');

    await page.goto(`${server.url}/#/batches/e2e-web`);
    await page.click('[data-test=delete-batch]');
    await page.click('[data-test=delete-batch-confirm]');
    await page.waitForFunction(() => (globalThis as any).location.hash === '#/');
    await page.waitForSelector('[data-test=batch-row] >> text=e2e-live');
    expect(await page.locator('[data-test=batch-row]', { hasText: 'e2e-web' }).count()).toBe(0);
    expect((await call('/v1/batches/e2e-web')).status).toBe(404);
  }, 180_000);

  it('logged no console error and fetched nothing from another origin', () => {
    expect(consoleErrors).toEqual([]);
    expect(foreign).toEqual([]);
  });
});

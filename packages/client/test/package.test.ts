// The SDK as a separate project gets it: `npm pack` of packages/client, the tarball installed
// alone into a throwaway project under .tmp/ (no server dependencies come with it), a typed
// example compiled with tsc against the installed declarations and run against a real server,
// and a browser-side file type-checked against the core entry with the DOM library and no Node types.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { icdarPdf } from '../../../test/e2e/fixtures.js';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from '../../../test/e2e/server.js';
import { REPO_ROOT } from '../../../test/paths.js';

const PROJECT = join(REPO_ROOT, '.tmp', `sdk-consumer-${process.pid}`);
const PACKAGE = join(REPO_ROOT, 'packages/client');

/** A browser page's use of the core entry: compiled with lib DOM and no @types/node. */
const BROWSER = `
import { TablemillClient, TablemillApiError, type DocumentResult, type ExportFormat } from '@tablemill/client/core';

export async function show(key: string, batch: string): Promise<string[]> {
  const client = new TablemillClient(location.origin, key, { fetch: (input, init) => fetch(input, { ...init, cache: 'no-store' }) });
  const format: ExportFormat = 'xlsx';
  const bytes: Uint8Array = await client.export(batch, format);
  const page = await client.pageImage('doc_1', 1, { width: 800 });
  const img = document.createElement('img');
  img.src = URL.createObjectURL(page.png);
  try {
    const docs: DocumentResult[] = await client.results(batch);
    return docs.map((d) => \`\${d.filename}: \${d.totals?.total ?? ''} (\${bytes.length})\`);
  } catch (err) {
    if (err instanceof TablemillApiError) return [err.code];
    throw err;
  }
}
`;

/** Uses only `@tablemill/client`; the @ts-expect-error lines fail the build if the types were `any`. */
const EXAMPLE = `
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { TablemillApiError, TablemillClient, verifyWebhook, type Batch, type DocumentResult } from '@tablemill/client';

const [url, key, pdf, png] = process.argv.slice(2);
const client = new TablemillClient(url, key);

const first = await client.upload('packaged', [{ path: pdf }, { filename: 'grid.png', data: await readFile(png) }], { idempotencyKey: 'packaged-1' });
const replay = await client.upload('packaged', [{ path: pdf }, { filename: 'grid.png', data: await readFile(png) }], { idempotencyKey: 'packaged-1' });
await client.process('packaged');
const batch: Batch = await client.waitUntilDone('packaged', { timeoutMs: 120_000 });
const count: number = batch.document_count;
// @ts-expect-error document_count is a number
const wrong: string = batch.document_count;
const results: DocumentResult[] = await client.results('packaged');
const csv = (await client.export('packaged', 'csv')).toString('utf8');
const xlsx = await client.export('packaged', 'xlsx');

let notFound = '';
try {
  await client.getBatch('no-such-batch');
} catch (err) {
  if (err instanceof TablemillApiError) notFound = \`\${err.status} \${err.code} \${err.requestId !== null}\`;
}

const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
const body = JSON.stringify({ id: 'evt_1', type: 'batch.completed', created_at: new Date().toISOString(), data: { batch } });
const ts = String(Math.floor(Date.now() / 1000));
const mac = createHmac('sha256', Buffer.alloc(32, 7)).update(\`evt_1.\${ts}.\${body}\`).digest('base64');
const event = verifyWebhook({ 'webhook-id': 'evt_1', 'webhook-timestamp': ts, 'webhook-signature': \`v1,\${mac}\` }, body, secret);
let forged = false;
try {
  verifyWebhook({ 'webhook-id': 'evt_1', 'webhook-timestamp': ts, 'webhook-signature': \`v1,\${mac}\` }, body + ' ', secret);
} catch {
  forged = true;
}

console.log(JSON.stringify({
  uploaded: first.documents.map((d) => d.id),
  replayed: replay.documents.map((d) => d.id),
  status: batch.status,
  count,
  unused: typeof wrong,
  tables: results.map((r) => [r.filename, r.tables?.length ?? 0]),
  csvHeader: csv.split('\\n')[0],
  xlsxMagic: xlsx.subarray(0, 2).toString('latin1'),
  notFound,
  event: event.data.batch.batch_name,
  forged,
}));
`;

let api: ServeProcess;
let key: string;

beforeAll(async () => {
  const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1' };
  key = createKeyCli(env, 'packaged');
  api = await serve(env);
}, 120_000);
afterAll(async () => {
  await api?.stop();
  rmSync(PROJECT, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('installs into a separate project whose typed example runs against a real server', async () => {
    mkdirSync(PROJECT, { recursive: true });
    // dist/ is current (test/build-setup.ts); --ignore-scripts skips building it again.
    const tgz = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', PROJECT], { cwd: PACKAGE, encoding: 'utf8' }).trim().split('\n').at(-1)!;
    const listing = execFileSync('tar', ['-tzf', join(PROJECT, tgz)], { encoding: 'utf8' }).trim().split('\n');
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/core.d.ts');
    expect(listing).toContain('package/README.md');
    expect(listing.filter((f) => !/^package\/(dist\/[\w-]+\.(js|d\.ts)|README\.md|package\.json)$/.test(f))).toEqual([]);
    const kib = statSync(join(PROJECT, tgz)).size / 1024;

    writeFileSync(join(PROJECT, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module', dependencies: { '@tablemill/client': `file:./${tgz}` } }));
    const started = Date.now();
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--loglevel=error'], { cwd: PROJECT, stdio: 'pipe', timeout: 120_000 });
    console.log(`@tablemill/client: tarball ${kib.toFixed(1)} KiB, ${listing.length} files; npm install alone ${Date.now() - started} ms`);
    // Nothing but the SDK itself was installed.
    expect(readdirSync(join(PROJECT, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['@tablemill']);
    writeFileSync(join(PROJECT, 'example.ts'), EXAMPLE);
    writeFileSync(join(PROJECT, 'browser.ts'), BROWSER);
    const tsc = (name: string, options: object, files: string[]) => {
      writeFileSync(join(PROJECT, name), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, ...options }, files }));
      execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(PROJECT, name)], { cwd: PROJECT, stdio: 'pipe' });
    };
    tsc('tsconfig.json', { skipLibCheck: true, outDir: 'out', typeRoots: [join(REPO_ROOT, 'node_modules/@types')], types: ['node'] }, ['example.ts']);
    // The core's declarations need nothing of Node: a browser project without @types/node checks them too.
    tsc('tsconfig.browser.json', { lib: ['ES2022', 'DOM'], types: [], noEmit: true }, ['browser.ts']);

    const pdf = join(PROJECT, 'eu-002.pdf');
    writeFileSync(pdf, icdarPdf('eu-002'));
    const png = join(REPO_ROOT, 'test/fixtures/images/grid-clean.png');
    const out = JSON.parse(execFileSync(process.execPath, [join(PROJECT, 'out/example.js'), api.url, key, pdf, png], { cwd: PROJECT, encoding: 'utf8', timeout: 180_000 }));
    expect(out.uploaded).toHaveLength(2);
    expect(out.replayed).toEqual(out.uploaded);
    expect(out.status).toBe('succeeded');
    expect(out.count).toBe(2);
    for (const [, n] of out.tables as [string, number][]) expect(n).toBeGreaterThanOrEqual(1);
    expect(out.csvHeader).toContain('filename');
    expect(out.xlsxMagic).toBe('PK');
    expect(out.notFound).toBe('404 batch_not_found true');
    expect(out).toMatchObject({ event: 'packaged', forged: true });
    // The installed package is the packed one, resolved through its exports map.
    expect(JSON.parse(readFileSync(join(PROJECT, 'node_modules/@tablemill/client/package.json'), 'utf8')).exports['./core'].default).toBe('./dist/core.js');
  }, 600_000);
});

// What documents carry, through a real server and the command line (API.md §4c, §8): a PDF whose
// attached XML is another invoice's, an XML invoice uploaded alone, and `--ignore-embedded`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TablemillClient, type DocumentResultView } from '@tablemill/client';
import { INVOICE_A, INVOICE_B, ciiXml, invoicePdf, ublXml } from '../extract/carried/einvoice.js';
import { BIN, childEnv, createKeyCli, serve, tempDataDir, type ServeProcess } from './server.js';

let api: ServeProcess;
let key: string;
let dir: string;
const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_POLL_MS: '200' };

beforeAll(async () => {
  key = createKeyCli(env, 'carried');
  api = await serve(env);
  dir = join(tempDataDir('tm-carried-'), 'in');
  mkdirSync(dir, { recursive: true });
  // Invoice B printed, invoice A's XML attached: a PDF whose print and XML disagree.
  writeFileSync(join(dir, 'b-with-a.pdf'), await invoicePdf(INVOICE_B, { name: 'factur-x.xml', content: ciiXml(INVOICE_A) }));
  writeFileSync(join(dir, 'a.xml'), ublXml(INVOICE_A));
  writeFileSync(join(dir, 'notes.xml'), '<?xml version="1.0"?><notes><note>not an invoice</note></notes>');
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { env: childEnv({ TABLEMILL_URL: api.url, TABLEMILL_API_KEY: key }), encoding: 'utf8', timeout: 180_000 });
}

function byName(docs: DocumentResultView[]): Record<string, DocumentResultView> {
  return Object.fromEntries(docs.map((d) => [d.filename, d]));
}

describe('embedded data over the API and the CLI', () => {
  it('convert reads the XML, warns where the print differs, and takes invoice XML files from a folder', () => {
    const out = join(dir, '..', 'use.json');
    const run = cli(['convert', dir, '--out', out]);
    expect(run.stderr).not.toMatch(/failed:/);
    expect(run.status).toBe(0);
    const docs = byName(JSON.parse(readFileSync(out, 'utf8')).documents);
    // notes.xml is no invoice: left out of the folder's upload.
    expect(Object.keys(docs).sort()).toEqual(['a.xml', 'b-with-a.pdf']);
    const pdf = docs['b-with-a.pdf']!;
    expect(pdf.fields!.invoice_number).toMatchObject({ value: 'INV-1001', source: 'embedded', confidence: 1 });
    const warned = pdf.warnings!.filter((w) => w.code === 'embedded_mismatch').map((w) => w.field);
    expect(warned).toEqual(expect.arrayContaining(['invoice_number', 'total']));
    expect(pdf.warnings!.find((w) => w.field === 'invoice_number')!.printed).toMatchObject({ text: 'INV-2002', page: 1 });
    expect(pdf.line_items!.every((li) => li.source === 'embedded')).toBe(true);
    expect(pdf.key_value_pairs!.every((p) => p.source === 'page')).toBe(true);
    const xml = docs['a.xml']!;
    expect(xml).toMatchObject({ content_type: 'application/xml', page_count: 1, status: 'succeeded', warnings: [] });
    expect(xml.fields!.total).toMatchObject({ value: 119, source: 'embedded' });
  });

  it('convert --ignore-embedded reads the pages alone', () => {
    const out = join(dir, '..', 'ignore.json');
    expect(cli(['convert', join(dir, 'b-with-a.pdf'), '--out', out, '--ignore-embedded']).status).toBe(0);
    const pdf = JSON.parse(readFileSync(out, 'utf8')).documents[0] as DocumentResultView;
    expect(pdf.fields!.invoice_number).toMatchObject({ value: 'INV-2002', source: 'engine' });
    expect(pdf.warnings).toEqual([]);
    expect(pdf.line_items!.every((li) => li.source === 'engine')).toBe(true);
  });

  it('process --ignore-embedded is stored with the run and honoured by the worker', async () => {
    const client = new TablemillClient(api.url, key);
    await client.upload('ignored', [{ filename: 'b.pdf', data: readFileSync(join(dir, 'b-with-a.pdf')) }]);
    expect(cli(['process', 'ignored', '--ignore-embedded']).status).toBe(0);
    await client.waitUntilDone('ignored');
    const [doc] = await client.results('ignored');
    expect(doc!.fields!.invoice_number!.value).toBe('INV-2002');
    // The default run of the same file reads its XML.
    await client.upload('used', [{ filename: 'b.pdf', data: readFileSync(join(dir, 'b-with-a.pdf')) }]);
    await client.process('used');
    await client.waitUntilDone('used');
    expect((await client.results('used'))[0]!.fields!.invoice_number!.value).toBe('INV-1001');
  });

  it('extract --ignore-embedded, and extract of an XML file', () => {
    const page = JSON.parse(cli(['extract', join(dir, 'b-with-a.pdf'), '--ignore-embedded']).stdout);
    expect(page.fields.invoice_number.value).toBe('INV-2002');
    const carried = JSON.parse(cli(['extract', join(dir, 'b-with-a.pdf')]).stdout);
    expect(carried.fields.invoice_number.value).toBe('INV-1001');
    const xml = JSON.parse(cli(['extract', join(dir, 'a.xml')]).stdout);
    expect(xml).toMatchObject({ page_count: 1, document_type: 'invoice' });
    expect(xml.fields.invoice_number.value).toBe('INV-1001');
  });
});

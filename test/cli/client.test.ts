// The client commands as a user runs them, against a real server: `convert` of a folder to an
// XLSX, and an `upload` killed half way then re-run.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TablemillClient } from '@tablemill/client';
import { findDate } from '../../src/extract/locale/dates.js';
import { isNumeric } from '../../src/extract/locale/numbers.js';
import { icdarPdf } from '../e2e/fixtures.js';
import { BIN, childEnv, createKeyCli, serve, tempDataDir, type ServeProcess } from '../e2e/server.js';
import { REPO_ROOT } from '../paths.js';

let api: ServeProcess;
let key: string;
const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '2' };

beforeAll(async () => {
  key = createKeyCli(env, 'cli');
  api = await serve(env);
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { env: childEnv({ TABLEMILL_URL: api.url, TABLEMILL_API_KEY: key }), encoding: 'utf8', timeout: 180_000 });
}

describe('tablemill convert', () => {
  it('a folder of 3 PDFs and 2 PNGs (and a text file it skips) becomes one XLSX with their tables', async () => {
    const dir = join(tempDataDir('tm-convert-'), 'in');
    mkdirSync(join(dir, 'scans'), { recursive: true });
    for (const n of ['eu-002', 'eu-003', 'eu-005']) writeFileSync(join(dir, `${n}.pdf`), icdarPdf(n));
    for (const n of ['grid-clean', 'navy-header']) copyFileSync(join(REPO_ROOT, 'test/fixtures/images', `${n}.png`), join(dir, 'scans', `${n}.png`));
    writeFileSync(join(dir, 'notes.txt'), 'not a document');
    const out = join(dir, '..', 'tables.xlsx');

    const r = cli(['convert', dir, '--out', out, '--batch', 'folder']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('uploaded 5 files');
    expect(r.stderr).toContain(`skipped ${join(dir, 'notes.txt')}: not a PDF, image or invoice XML (.txt;`);
    expect(r.stderr).not.toContain('\x1b['); // not a terminal: no bars
    expect(r.stderr).toContain('5 succeeded, 0 failed');

    const results = await new TablemillClient(api.url, key).results('folder');
    expect(results.map((d) => d.filename).sort()).toEqual(['eu-002.pdf', 'eu-003.pdf', 'eu-005.pdf', 'grid-clean.png', 'navy-header.png']);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const names = wb.worksheets.map((w) => w.name);
    expect(names.slice(0, 3)).toEqual(['Documents', 'Fields', 'Line items']);
    const tables = results.flatMap((d) => d.tables ?? []);
    expect(tables.length).toBeGreaterThanOrEqual(5);
    expect(names.length).toBe(3 + tables.length);
    const documents = wb.getWorksheet('Documents')!;
    const listed = new Set<string>();
    documents.eachRow((row) => row.eachCell((c) => listed.add(String(c.text))));
    for (const d of results) expect(listed).toContain(d.filename);
    // Each table's sheet holds its text cells (numbers and whole-cell dates are typed cells
    // there, so they are not compared as text).
    const sheetText = wb.worksheets.slice(3).map((w) => {
      const cells: string[] = [];
      w.eachRow((row) => row.eachCell((c) => void (c.type !== ExcelJS.ValueType.Merge && cells.push(String(c.text).trim()))));
      return new Set(cells);
    });
    let shown = 0;
    let total = 0;
    for (const [i, t] of tables.entries()) {
      const texts = t.cells.map((c) => c.text.trim()).filter((s) => s !== '' && !/^[\d.,\s%()-]+$/.test(s) && !isNumeric(s) && findDate(s, 'dmy')?.raw !== s);
      const found = texts.filter((s) => sheetText[i].has(s));
      expect(found.length, `table ${i}: ${texts.filter((s) => !sheetText[i].has(s)).join(' | ')}`).toBeGreaterThanOrEqual(Math.ceil(texts.length / 2));
      shown += found.length;
      total += texts.length;
    }
    expect(shown / total).toBeGreaterThanOrEqual(0.9);
  }, 240_000);

  it.skipIf(!existsSync('/usr/bin/script'))('on a terminal, shows progress bars of files, bytes and documents', () => {
    const dir = tempDataDir('tm-tty-');
    for (const n of ['eu-002', 'eu-003']) writeFileSync(join(dir, `${n}.pdf`), icdarPdf(n));
    // script(1) runs the command on a pseudo-terminal, as a user's shell would.
    const command = `${process.execPath} ${BIN} convert ${dir} --out ${join(dir, 'out.json')} --batch tty`;
    const r = spawnSync('/usr/bin/script', ['-qec', command, '/dev/null'], { env: childEnv({ TABLEMILL_URL: api.url, TABLEMILL_API_KEY: key }), encoding: 'utf8', timeout: 180_000 });
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/upload tty .*2\/2 files \| [\d.]+ KB of [\d.]+ KB/);
    expect(r.stdout).toMatch(/tty .*2\/2 documents \| 2 succeeded, 0 failed/);
  }, 240_000);

  it('refuses an unknown output extension (exit 2) and a missing key (exit 78) before sending anything', () => {
    const bad = cli(['convert', join(REPO_ROOT, 'test/fixtures/images/grid-clean.png'), '--out', 'x.docx']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--out must end in');
    const noKey = spawnSync(process.execPath, [BIN, 'status', 'x'], { env: childEnv({ TABLEMILL_URL: api.url }), encoding: 'utf8' });
    expect(noKey.status).toBe(78);
    expect(noKey.stderr).toContain('TABLEMILL_API_KEY');
  });

  it('names its batch after the folder or the first file, and each file of a folder it skips with the reason', async () => {
    const dir = join(tempDataDir('tm-name-'), 'March scans');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(REPO_ROOT, 'test/fixtures/images/grid-clean.png'), join(dir, 'grid-clean.png'));
    writeFileSync(join(dir, 'letter.docx'), 'PK\x03\x04 not a document');
    writeFileSync(join(dir, 'README'), 'no extension');
    const folder = cli(['convert', dir, '--out', join(dir, '..', 'folder.json')]);
    expect(folder.status, folder.stderr).toBe(0);
    expect(folder.stderr).toContain(`skipped ${join(dir, 'letter.docx')}: not a PDF, image or invoice XML (.docx;`);
    expect(folder.stderr).toContain(`skipped ${join(dir, 'README')}: not a PDF, image or invoice XML (no extension;`);
    expect(folder.stderr).toContain('uploaded 1 files');
    const byFolder = /batch (March-scans-[0-9a-f]{4}): 1 succeeded/.exec(folder.stderr)?.[1];
    expect(byFolder, folder.stderr).toBeDefined();
    const file = cli(['convert', join(dir, 'grid-clean.png'), '--out', join(dir, '..', 'file.json')]);
    const byFile = /batch (grid-clean-[0-9a-f]{4}): 1 succeeded/.exec(file.stderr)?.[1];
    expect(byFile, file.stderr).toBeDefined();
    const names = (await new TablemillClient(api.url, key).listBatches()).batches.map((b) => b.batch_name);
    expect(names).toEqual(expect.arrayContaining([byFolder, byFile]));
  }, 240_000);
});

/** A port on 127.0.0.1 nothing listens on: one the system handed out, closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('a server that does not answer', () => {
  it('names the URL it tried, where it came from, TABLEMILL_URL and --url, at once and without a stack trace', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const png = join(REPO_ROOT, 'test/fixtures/images/grid-clean.png');
    const runs: [string[], Record<string, string>, string][] = [
      [['status', 'x', '--url', url], {}, 'from --url'],
      [['upload', 'b', png], { TABLEMILL_URL: url }, 'from TABLEMILL_URL'],
      [['convert', png, '--out', join(tempDataDir('tm-refused-'), 'x.json')], { TABLEMILL_URL: url }, 'from TABLEMILL_URL'],
    ];
    for (const [args, env, from] of runs) {
      const started = Date.now();
      const r = spawnSync(process.execPath, [BIN, ...args], { env: childEnv({ TABLEMILL_API_KEY: key, ...env }), encoding: 'utf8', timeout: 60_000 });
      expect(r.status, args[0]).toBe(1);
      expect(r.stderr).toContain(`no Tablemill server answers at ${url} (${from}; connect ECONNREFUSED`);
      expect(r.stderr).toMatch(/set TABLEMILL_URL or pass --url/);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      // Not retried as a dropped connection is: nothing listens there.
      expect(Date.now() - started, args[0]).toBeLessThan(10_000);
    }
    // And `serve` on a port of its own says what the client commands need to find it.
    expect(api.output()).toContain(`the client commands need TABLEMILL_URL=${api.url} (or --url)`);
  });
});

describe('tablemill upload', () => {
  it('killed after at least 5 of 40 files, the re-run stores each file exactly once', async () => {
    const dir = tempDataDir('tm-upload-');
    // 40 real PDFs, each made distinct and ~1.5 MB by bytes after %%EOF, so the upload takes long
    // enough to be killed half way.
    const base = icdarPdf('eu-002');
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, `doc-${String(i).padStart(2, '0')}.pdf`), Buffer.concat([base, Buffer.from('\n%'), randomBytes(1_500_000)]));
    const client = new TablemillClient(api.url, key);
    const childE = childEnv({ TABLEMILL_URL: api.url, TABLEMILL_API_KEY: key });

    const first = spawn(process.execPath, [BIN, 'upload', 'forty', dir], { env: childE, stdio: 'ignore' });
    const exited = new Promise((r) => first.once('exit', r));
    let seen = 0;
    while (first.exitCode === null) {
      seen = await client.getBatch('forty').then((b) => b.document_count, () => 0);
      if (seen >= 5) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    first.kill('SIGKILL');
    await exited;
    const before = (await client.getBatch('forty')).document_count;
    console.log(`upload killed with ${before} of 40 documents stored`);
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(40);

    const again = spawnSync(process.execPath, [BIN, 'upload', 'forty', dir], { env: childE, encoding: 'utf8', timeout: 180_000 });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.trim().split('\n')).toHaveLength(40);
    const batch = await client.getBatch('forty');
    expect(batch.document_count).toBe(40);
    const names = (await client.results('forty')).map((d) => d.filename);
    expect(names).toHaveLength(40);
    expect(new Set(names).size).toBe(40);
    // A third run changes nothing either.
    expect(spawnSync(process.execPath, [BIN, 'upload', 'forty', dir], { env: childE, encoding: 'utf8' }).status).toBe(0);
    expect((await client.getBatch('forty')).document_count).toBe(40);
  }, 240_000);
});

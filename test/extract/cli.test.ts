/** `tablemill extract` as a user runs it: a real process on real PDFs. */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ICDAR_DIR } from '../paths.js';
import { compressionBombPdf, imageBombPdf } from '../bombs.js';
import { scannedPdf } from '../e2e/fixtures.js';

const run = promisify(execFile);
const BIN = resolve(import.meta.dirname, '../../bin/tablemill');
const PDF = join(ICDAR_DIR, 'eu-002.pdf');
const dir = mkdtempSync(join(tmpdir(), 'tablemill-extract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'extract', ...args], { maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('tablemill extract', () => {
  it('prints one file\'s result on stdout', async () => {
    const { code, stdout } = await cli([PDF]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.page_count).toBe(1);
    expect(result.tables.length).toBeGreaterThanOrEqual(1);
    const cells = result.tables[0].cells as { text: string }[];
    expect(cells.some((c) => c.text.trim() !== '')).toBe(true);
    expect(Array.isArray(result.line_items)).toBe(true);
  });

  it('writes DIR/NAME.json per input with --out; a bad file gets processing_error and exit code 1', async () => {
    const bad = join(dir, 'broken.pdf');
    writeFileSync(bad, '%PDF-1.4\nthis is not really a pdf\n');
    const out = join(dir, 'out');
    const { code, stderr } = await cli(['--out', out, PDF, bad]);
    expect(code).toBe(1);
    expect(stderr).toContain('broken.pdf: corrupt_file');
    expect(JSON.parse(readFileSync(join(out, 'eu-002.json'), 'utf8')).page_count).toBe(1);
    expect(JSON.parse(readFileSync(join(out, 'broken.json'), 'utf8'))).toEqual({
      processing_error: { code: 'corrupt_file', message: expect.any(String) },
    });
  });

  it('a folder is its PDF and image files, recursively, --jobs 2 of them at once', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'eu-002.pdf'), readFileSync(PDF));
    writeFileSync(join(folder, 'sub', 'eu-003.pdf'), readFileSync(join(ICDAR_DIR, 'eu-003.pdf')));
    writeFileSync(join(folder, 'readme.txt'), 'not a document');
    const out = join(dir, 'folder-out');
    const { code, stderr } = await cli(['--jobs', '2', '--out', out, folder]);
    expect(code, stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['eu-002.json', 'eu-003.json']);
    expect(JSON.parse(readFileSync(join(out, 'eu-003.json'), 'utf8')).tables.length).toBeGreaterThanOrEqual(1);
  });

  it('explains itself with --help and refuses several files without --out', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('processing_error');
    const usage = await cli([PDF, PDF]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--out');
  });

  it('hostile PDFs end as processing_error inside the time limit, every process under the memory bound', async () => {
    const files = { 'bomb.pdf': await compressionBombPdf(), 'image-bomb.pdf': await imageBombPdf(), 'slow-scan.pdf': await scannedPdf(30) };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    const out = join(dir, 'hostile');
    // The scan's child grows to about 600 MB in the 30 s it reads (597 MB at 2591479, 609 at
    // 93b8542 on a quiet machine: the second look's line crops), so the bound the bombs must stay
    // under sits above what a reading child needs.
    const maxRssMb = 700;
    // Long enough that a loaded machine still refuses the bombs by their bounds first (~1 s idle);
    // 30 scanned pages take minutes of OCR, so the scan meets the limit.
    const timeoutMs = 30_000;
    const started = Date.now();
    const proc = spawn(process.execPath, [BIN, 'extract', '--out', out, '--jobs', '2', '--timeout-ms', String(timeoutMs), ...Object.keys(files).map((n) => join(dir, n))], {
      env: { ...process.env, TABLEMILL_WORKER_MAX_RSS_MB: String(maxRssMb) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolveExit) => {
      const peaks = new Map<number, number>();
      const timer = setInterval(() => {
        for (const [pid, rss] of treeRss(proc.pid!)) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, rss));
      }, 25);
      proc.once('exit', (c) => {
        clearInterval(timer);
        const children = [...peaks].filter(([pid]) => pid !== proc.pid).map(([, mb]) => mb);
        const seconds = (Date.now() - started) / 1000;
        console.log(`extract of 3 hostile PDFs: ${seconds.toFixed(1)} s; peak RSS: CLI ${peaks.get(proc.pid!)?.toFixed(0)} MB, children ${children.map((m) => m.toFixed(0)).join(', ')} MB`);
        for (const mb of children) expect(mb).toBeLessThan(maxRssMb + 100); // one 50 ms poll of growth past the bound at most
        expect(peaks.get(proc.pid!)).toBeLessThan(400);
        // Two jobs: the scan's limit, plus the children's start and the bombs' refusal.
        expect(seconds).toBeLessThan(timeoutMs / 1000 + 30);
        resolveExit(c);
      });
    });
    expect(code, stderr).toBe(1);
    const error = (name: string) => JSON.parse(readFileSync(join(out, name.replace('.pdf', '.json')), 'utf8')).processing_error;
    expect(error('bomb.pdf').code).toBe('resource_limit');
    expect(error('image-bomb.pdf').code).toBe('resource_limit');
    expect(error('slow-scan.pdf')).toEqual({ code: 'timeout', message: `extraction exceeded the ${timeoutMs} ms time limit` });
  }, 180_000);
});

/** RSS in MB of `root` and every process below it (from /proc; Linux). */
function treeRss(root: number): Map<number, number> {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      if (kb) rss.set(Number(name), Number(kb[1]) / 1024);
    } catch {
      // The process ended while we read it.
    }
  }
  const inTree = (pid: number): boolean => pid === root || (parent.has(pid) && pid > 1 && inTree(parent.get(pid)!));
  return new Map([...rss].filter(([pid]) => inTree(pid)));
}

/** `tablemill extract` as a user runs it: a real process on real PDFs. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ICDAR_DIR } from '../paths.js';

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

  it('writes DIR/NAME.json per input with --out; a bad file gets processing_error and exit code 3', async () => {
    const bad = join(dir, 'broken.pdf');
    writeFileSync(bad, '%PDF-1.4\nthis is not really a pdf\n');
    const out = join(dir, 'out');
    const { code, stderr } = await cli(['--out', out, PDF, bad]);
    expect(code).toBe(3);
    expect(stderr).toContain('broken.pdf: corrupt_file');
    expect(JSON.parse(readFileSync(join(out, 'eu-002.json'), 'utf8')).page_count).toBe(1);
    expect(JSON.parse(readFileSync(join(out, 'broken.json'), 'utf8'))).toEqual({
      processing_error: { code: 'corrupt_file', message: expect.any(String) },
    });
  });

  it('explains itself with --help and refuses several files without --out', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('processing_error');
    const usage = await cli([PDF, PDF]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--out');
  });
});

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/store.js';

const dir = mkdtempSync(join(tmpdir(), 'tablemill-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = fileURLToPath(new URL('../..', import.meta.url));

it('an upload that resolved survives kill -9 of its process (row and blob)', async () => {
  const child = spawn(process.execPath, [join(root, 'bin/run-ts.js'), join(root, 'test/store/kill-child.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const got = JSON.parse(line) as { account: string; id: string; key: string; sha256: string };

  const store = new SqliteStore(join(dir, 'tablemill.db'));
  try {
    const doc = await store.getDocument(got.account, got.id);
    expect(doc).toMatchObject({ state: 'uploaded', blob_key: got.key, sha256: got.sha256 });
    expect((await store.getBatch(got.account, 'b'))?.counts.queued).toBe(1);
    const bytes = await store.blobs.get(got.key);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(got.sha256);
  } finally {
    await store.close();
  }
});

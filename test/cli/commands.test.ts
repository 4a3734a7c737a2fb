// The serve / worker / keys commands as a user runs them: exit codes, messages, and cluster mode
// (`serve --no-workers` + `worker` on one database).
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TablemillClient } from '../../src/client/index.js';
import { icdarPdf } from '../e2e/fixtures.js';
import { BIN, childEnv, createKeyCli, serve, tempDataDir } from '../e2e/server.js';

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...args], { env: childEnv(env), encoding: 'utf8', timeout: 60_000 });
}

describe('tablemill keys', () => {
  it('create prints the key alone on the last line; keys are distinct', () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir() };
    const a = cli(['keys', 'create', '--account', 'acme'], env);
    expect(a.status).toBe(0);
    const last = a.stdout.trimEnd().split('\n').at(-1);
    expect(last).toMatch(/^tm_[A-Za-z0-9_-]{43}$/);
    expect(createKeyCli(env, 'acme')).not.toBe(last);
  });

  it('bad usage exits 2 with the usage line', () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir() };
    for (const args of [['keys', 'create'], ['keys', 'delete', '--account', 'a']]) {
      const r = cli(args, env);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('usage: tablemill keys create --account NAME');
    }
  });
});

describe('tablemill serve / worker', () => {
  it('bad configuration fails at start naming the setting; unknown flags are refused', () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir() };
    const port = cli(['serve'], { ...env, PORT: 'eighty' });
    expect(port.status).toBe(78);
    expect(port.stderr).toContain('PORT');
    const flag = cli(['serve', '--prot', '80'], env);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('unknown flag --prot');
  });

  it('cluster mode: serve --no-workers only queues; a separate worker process does the work', async () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_POLL_MS: '200' };
    const key = createKeyCli(env, 'acme');
    const api = await serve(env, ['--no-workers']);
    expect(api.output()).toContain('no workers');
    const client = new TablemillClient(api.url, key);
    await client.upload('c1', [{ filename: 'eu-005.pdf', data: icdarPdf('eu-005') }]);
    await client.process('c1');
    await new Promise((r) => setTimeout(r, 1500));
    expect((await client.getBatch('c1')).counts.queued).toBe(1);

    const worker = spawn(process.execPath, [BIN, 'worker'], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    worker.stdout.on('data', (d) => (out += d));
    worker.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => worker.once('exit', r));
    try {
      const done = await client.waitUntilDone('c1', { timeoutMs: 90_000 });
      expect(done).toMatchObject({ status: 'succeeded', counts: { succeeded: 1 } });
      expect(out).toContain('tablemill worker running 1 threads');
    } finally {
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await api.stop()).toBe(0);
    }
  }, 150_000);
});

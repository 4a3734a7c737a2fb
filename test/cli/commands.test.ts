// The serve / worker / keys commands as a user runs them: exit codes, messages, and cluster mode
// (`serve --no-workers` + `worker` on one database).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TablemillClient } from '@tablemill/client';
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

  it('bad usage exits 2 naming what is wrong', () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir() };
    const cases: [string[], string][] = [
      [['keys', 'create'], "required option '--account <name>'"],
      [['keys', 'delete', '--account', 'a'], "unknown command 'delete'"],
      [['keys', 'create', '--account', 'no spaces'], '--account needs a name'],
      [['keys', 'revoke'], "missing required argument 'key_id'"],
    ];
    for (const [args, message] of cases) {
      const r = cli(args, env);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('list shows ids and dates, never a key; revoke makes the key answer 401 at once on every API process', async () => {
    const dataDir = tempDataDir();
    const env = { TABLEMILL_DATA_DIR: dataDir };
    const created = cli(['keys', 'create', '--account', 'acme'], env);
    const key = created.stdout.trimEnd().split('\n').at(-1)!;
    const keyId = /created key (key_[0-9a-f]+)/.exec(created.stdout)![1];
    const other = createKeyCli(env, 'acme');
    const apis = await Promise.all([serve(env, ['--no-workers']), serve(env, ['--no-workers'])]);
    try {
      for (const api of apis) expect((await new TablemillClient(api.url, key).listBatches()).batches).toEqual([]);
      const listed = cli(['keys', 'list', '--account', 'acme', '--json'], env);
      expect(listed.status).toBe(0);
      expect(listed.stdout).not.toContain(key.slice(3));
      const rows = JSON.parse(listed.stdout) as { id: string; last_used_at: number | null; revoked_at: number | null }[];
      expect(rows.map((r) => r.id)).toContain(keyId);
      expect(rows.find((r) => r.id === keyId)!.last_used_at).toEqual(expect.any(Number));
      expect(cli(['keys', 'list'], env).stdout).toMatch(new RegExp(`^${keyId}\\s+acme\\s+\\d{4}-`, 'm'));

      const revoked = cli(['keys', 'revoke', keyId], env);
      expect(revoked.status, revoked.stderr).toBe(0);
      for (const api of apis) {
        const res = await fetch(`${api.url}/v1/batches`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
        expect((await new TablemillClient(api.url, other).listBatches()).batches).toEqual([]);
      }
      expect(cli(['keys', 'revoke', keyId], env).status).toBe(1);
      expect((JSON.parse(cli(['keys', 'list', '--json'], env).stdout) as { id: string; revoked_at: number | null }[]).find((r) => r.id === keyId)!.revoked_at).toEqual(expect.any(Number));
    } finally {
      await Promise.all(apis.map((a) => a.stop()));
    }
  }, 120_000);
});

describe('tablemill --help and --version', () => {
  it('every command answers --help on stdout with exit 0 and does nothing else', () => {
    const dataDir = tempDataDir();
    const env = { TABLEMILL_DATA_DIR: dataDir };
    const commands = [[], ['serve'], ['worker'], ['migrate'], ['keys'], ['keys', 'create'], ['keys', 'list'], ['keys', 'revoke'], ['extract'],
      ['upload'], ['process'], ['status'], ['results'], ['convert']];
    for (const c of commands) {
      const r = cli([...c, '--help'], env);
      expect(r.status, c.join(' ')).toBe(0);
      expect(r.stdout, c.join(' ')).toContain(`Usage: tablemill ${c.join(' ')}`.trimEnd());
    }
    expect(readdirSync(dataDir)).toEqual([]);
    const top = cli(['--help'], env).stdout;
    expect(top).toContain('Exit codes:');
    expect(top).toContain('130');
  });

  it('--version prints the package version; no command prints the help on stderr and exits 2', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(cli(['--version'], {}).stdout.trim()).toBe(pkg.version);
    const none = cli([], {});
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('Usage: tablemill');
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
    expect(flag.stderr).toContain("unknown option '--prot'");
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

    // Info level and a metrics port of its own: the worker's log lines and /metrics are checked below.
    const worker = spawn(process.execPath, [BIN, 'worker'], { env: childEnv({ ...env, TABLEMILL_LOG_LEVEL: 'info', TABLEMILL_METRICS_PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    worker.stdout.on('data', (d) => (out += d));
    worker.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => worker.once('exit', r));
    try {
      const done = await client.waitUntilDone('c1', { timeoutMs: 90_000 });
      expect(done).toMatchObject({ status: 'succeeded', counts: { succeeded: 1 } });
      expect(out).toContain('tablemill worker running 1 extraction processes');
      // One JSON log line as the document is claimed, one as it finishes (written just after the
      // outcome is committed, so it may follow the batch's all_done by a moment).
      for (let i = 0; i < 100 && !out.includes('"document finished"'); i++) await new Promise((r) => setTimeout(r, 50));
      const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l.msg === 'document claimed')).toMatchObject({ level: 30, attempt: 1 });
      const finished = lines.find((l) => l.msg === 'document finished');
      expect(finished).toMatchObject({ outcome: 'succeeded', pages: 2, kind: 'pdf', engine: 'text', attempt: 1 });
      expect(finished!.duration_ms).toBeGreaterThan(0);
      const metricsUrl = /metrics on (\S+)/.exec(out)![1];
      const metrics = await (await fetch(metricsUrl)).text();
      expect(metrics).toMatch(/^tablemill_extraction_duration_seconds_count\{kind="pdf",outcome="succeeded"\} 1$/m);
      expect(metrics).toMatch(/^tablemill_documents_processed_total\{status="succeeded"\} 1$/m);
      expect(metrics).toMatch(/^process_resident_memory_bytes \d+$/m);
      expect(metrics).toMatch(/^tablemill_extraction_child_resident_memory_bytes\{slot="0"\} \d+$/m);
    } finally {
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await api.stop()).toBe(0);
    }
  }, 150_000);
});

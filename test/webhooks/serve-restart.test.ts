import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, removeDir, startServe, until } from './harness.js';
import { startReceiver, verifyStandardWebhook } from './receiver.js';

const PDF = readFileSync(new URL('../fixtures/invoices/en-ruled-invoice.pdf', import.meta.url));

describe('bin/tablemill serve: kill -9 during the retries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-wr-'));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    removeDir(dir);
  });

  it('a real PDF processed by the real workers is announced, and the retry survives kill -9', async () => {
    const rx = await startReceiver();
    try {
      rx.plan('/hook', [500, 200]);
      const env = {
        ...process.env,
        TABLEMILL_DATA_DIR: dir,
        TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1',
        TABLEMILL_WEBHOOK_RETRY_SCHEDULE: '3s',
        TABLEMILL_WORKER_CONCURRENCY: '1',
        TABLEMILL_LOG_LEVEL: 'warn',
      };
      delete (env as Record<string, unknown>).DATABASE_URL;
      const keyRun = spawnSync(process.execPath, [BIN, 'keys', 'create', '--account', 'acme'], { env, encoding: 'utf8' });
      expect(keyRun.status, keyRun.stderr).toBe(0);
      const key = keyRun.stdout.trim().split('\n').at(-1)!;
      const auth = { authorization: `Bearer ${key}` };
      const first = await startServe(env, []);
      children.push(first.child);

      const form = new FormData();
      form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'en-ruled-invoice.pdf');
      expect((await fetch(`${first.url}/v1/batches/r/documents`, { method: 'POST', headers: auth, body: form })).status).toBe(201);
      const put = await fetch(`${first.url}/v1/batches/r/webhook`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${rx.base}/hook` }) });
      const { secret } = (await put.json()) as { secret: string };
      expect((await fetch(`${first.url}/v1/batches/r/process`, { method: 'POST', headers: auth })).status).toBe(202);

      const t0 = Date.now();
      await until(() => rx.on('/hook').length === 1, 60_000, 100);
      console.log(`process → first webhook attempt: ${Date.now() - t0} ms`);
      const deliveries = async (url: string) => ((await (await fetch(`${url}/v1/batches/r/webhook/deliveries`, { headers: auth })).json()) as any).deliveries;
      await until(async () => (await deliveries(first.url)).length === 2, 5000);
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      const whileDown = rx.on('/hook').length;

      const second = await startServe(env, ['--no-workers']);
      children.push(second.child);
      await until(() => rx.on('/hook').length === 2, 15_000, 100);
      expect(whileDown).toBe(1);
      const [a, b] = rx.on('/hook');
      expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
      const body = verifyStandardWebhook(secret, b);
      expect(body.data.batch).toMatchObject({ batch_name: 'r', status: 'succeeded', all_done: true });
      expect(b.at - a.at).toBeGreaterThanOrEqual(2500);
      await until(async () => (await deliveries(second.url))[0].status === 'delivered', 5000);
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    } finally {
      await rx.close();
    }
  }, 180_000);
});

// Issue 25 §6: PostgreSQL goes away for 3 s during a batch of 50. The restart is played by a TCP
// proxy in front of the shared test server (restarting that server would break every other
// test using it): every connection through the proxy is cut and new ones are refused, then it
// listens again. Meanwhile the API answers 503 unavailable with Retry-After, never 500, and
// /readyz 503 with details.reason "database" and Retry-After; every
// document succeeds, and none is claimed or extracted twice (counted in the log).
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { pgSchema } from '../webhooks/harness.js';
import { smallPdf } from './fixtures.js';

const pgs = pgSchema('tm_outage');

/** A TCP proxy to `host:port` that can play a database restart. */
class Proxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly host: string,
    private readonly target: number,
  ) {}

  async listen(port = 0): Promise<void> {
    const server = createServer((client) => {
      const up = connect(this.target, this.host);
      for (const s of [client, up]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => {
          this.sockets.delete(s);
          client.destroy();
          up.destroy();
        });
      }
      client.pipe(up);
      up.pipe(client);
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Cuts every connection and refuses new ones for `ms`, then accepts again on the same port. */
  async restart(ms: number): Promise<void> {
    const closed = new Promise<void>((r) => this.server!.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await closed;
    await new Promise((r) => setTimeout(r, ms));
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

describe.skipIf(!pgs)('PostgreSQL restart during a batch of 50', () => {
  let server: RunningServer | null = null;
  let proxy: Proxy | null = null;
  const logs: string[] = [];
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await pgs?.drop();
  });

  it('no 500, 503 with Retry-After meanwhile, every document succeeds, none claimed or extracted twice', async () => {
    const target = new URL(pgs!.url);
    proxy = new Proxy(target.hostname, Number(target.port || 5432));
    await proxy.listen();
    const viaProxy = new URL(pgs!.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const config = loadConfig({
      DATABASE_URL: viaProxy.toString(),
      TABLEMILL_DB_SCHEMA: pgs!.schema,
      PORT: '0',
      TABLEMILL_WORKER_CONCURRENCY: '2',
      TABLEMILL_POLL_MS: '200',
      TABLEMILL_RATE_LIMITS: '0',
    });
    server = await startServer(config, { workers: true, logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } }, graceMs: 2000 });
    const key = (await createKey(server.deps.store, 'acme', Date.now())).key;
    const auth = { authorization: `Bearer ${key}` };
    const url = server.url;

    const ids: string[] = [];
    for (let chunk = 0; chunk < 50; chunk += 25) {
      const form = new FormData();
      for (let i = chunk; i < chunk + 25; i++) form.append('file', new Blob([await smallPdf(i)], { type: 'application/pdf' }), `doc-${i}.pdf`);
      const res = await fetch(`${url}/v1/batches/b/documents`, { method: 'POST', body: form, headers: auth });
      expect(res.status).toBe(201);
      ids.push(...((await res.json()) as { documents: { id: string }[] }).documents.map((d) => d.id));
    }
    expect((await fetch(`${url}/v1/batches/b/process`, { method: 'POST', headers: auth })).status).toBe(202);

    // Status requests all along; the restart once a few documents are done.
    const answers: Array<{ status: number; retryAfter: string | null; code?: string }> = [];
    const ready: Array<{ status: number; retryAfter: string | null; reason?: string }> = [];
    let polling = true;
    const poller = (async () => {
      for (let i = 0; polling; i++) {
        if (i % 4 === 0) {
          const res = await fetch(`${url}/readyz`).catch(() => null);
          const body = res && ((await res.json().catch(() => null)) as { error?: { details?: { reason?: string } } } | null);
          if (res) ready.push({ status: res.status, retryAfter: res.headers.get('retry-after'), reason: body?.error?.details?.reason });
        }
        const path = i % 2 ? `/v1/documents/${ids[i % ids.length]}` : '/v1/batches/b';
        const res = await fetch(url + path, { headers: auth }).catch(() => null);
        if (res) {
          const body = (await res.json().catch(() => null)) as { error?: { code: string } } | null;
          answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), code: body?.error?.code });
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const succeeded = async () => {
      const res = await fetch(`${url}/v1/batches/b`, { headers: auth });
      return res.status === 200 ? ((await res.json()) as { counts: { succeeded: number }; all_done: boolean }) : null;
    };
    const t0 = Date.now();
    while (((await succeeded())?.counts.succeeded ?? 0) < 5 && Date.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 200));
    const restartedAt = Date.now();
    await proxy.restart(3000);
    let batch = await succeeded();
    while (!batch?.all_done && Date.now() - t0 < 240_000) {
      await new Promise((r) => setTimeout(r, 300));
      batch = await succeeded();
    }
    polling = false;
    await poller;
    // The worker logs a document's end after its write commits, so a status read can see the
    // batch done a moment before the last line is written.
    const ended = () => logs.filter((l) => l.includes('"document finished"')).length;
    for (const until = Date.now() + 5000; ended() < 50 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));

    const parsed = logs.map((l) => JSON.parse(l) as { msg: string; document_id?: string });
    const claimed = parsed.filter((l) => l.msg === 'document claimed').map((l) => l.document_id);
    const finished = parsed.filter((l) => l.msg === 'document finished').map((l) => l.document_id);
    const statuses = answers.map((a) => a.status);
    const unavailable = answers.filter((a) => a.status === 503);
    console.log(
      `restart ${restartedAt - t0} ms in; all done ${Date.now() - restartedAt} ms after it; answers: ${statuses.filter((s) => s === 200).length}×200, ` +
        `${unavailable.length}×503 (${[...new Set(unavailable.map((a) => a.code))].join(',')}), others ${statuses.filter((s) => s !== 200 && s !== 503).join(',') || 'none'}; ` +
        `claimed ${claimed.length}, finished ${finished.length}; retried writes: ${parsed.filter((l) => / after a fault$/.test(l.msg)).length}`,
    );
    expect(batch).toMatchObject({ all_done: true, counts: { succeeded: 50 } });
    expect(statuses).not.toContain(500);
    expect(statuses.every((s) => s === 200 || s === 304 || s === 503)).toBe(true);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.every((a) => a.code === 'unavailable' && a.retryAfter !== null)).toBe(true);
    // /readyz says why, and when to ask again, while the database is away.
    const notReady = ready.filter((r) => r.status === 503);
    expect(notReady.length).toBeGreaterThan(0);
    expect(notReady.every((r) => r.reason === 'database' && r.retryAfter === '2')).toBe(true);
    expect(new Set(claimed).size).toBe(50);
    expect(claimed).toHaveLength(50);
    expect(finished).toHaveLength(50);
  }, 300_000);
});

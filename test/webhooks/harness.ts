/**
 * A real app over real HTTP on a temp SQLite file (or a fresh PostgreSQL schema), a key, a real
 * PDF upload, and a "worker" that drives documents through the store's own claim → complete
 * (the extraction itself is not what these tests are about, so it is not run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/api/app.js';
import { createKey } from '../../src/api/auth.js';
import type { AppDeps } from '../../src/api/deps.js';
import { Metrics } from '../../src/metrics/index.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { ICDAR_DIR } from '../paths.js';

export const PDF = readFileSync(join(ICDAR_DIR, 'eu-005.pdf'));

export interface Harness {
  url: string;
  app: FastifyInstance;
  deps: AppDeps;
  store: Store;
  config: Config;
  key: string;
  dir: string;
  env: Record<string, string>;
  /** Closes app and store (the data stays: `open(h.env)` again is a restart). */
  close(): Promise<void>;
}

/** A fresh PostgreSQL schema name and a dropper, or null when TABLEMILL_TEST_DATABASE_URL is unset. */
export function pgSchema(prefix: string): { url: string; schema: string; drop(): Promise<void> } | null {
  const url = process.env.TABLEMILL_TEST_DATABASE_URL;
  if (!url) return null;
  const schema = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  return {
    url,
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

/** Starts the app; `env` adds settings (a retry schedule, allowPrivate, a database URL …). */
export async function open(env: Record<string, string>, reuseKey?: string): Promise<Harness> {
  const dir = env.TABLEMILL_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'tm-w-'));
  const fullEnv = { TABLEMILL_DATA_DIR: dir, TABLEMILL_WORKER_CONCURRENCY: '0', ...env };
  const config = loadConfig(fullEnv);
  const store = await openStore(config);
  await store.migrate();
  const deps: AppDeps = { config, store, blobs: store.blobs, metrics: new Metrics(), exporters: {}, now: Date.now };
  const app = await buildApp(deps);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const key = reuseKey ?? (await createKey(store, 'acme', Date.now())).key;
  return {
    url,
    app,
    deps,
    store,
    config,
    key,
    dir,
    env: fullEnv,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A fetch Response whose `json()` is untyped, for terse assertions. */
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

/** A JSON request with the harness key. */
export async function api(h: Harness, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  return fetch(h.url + path, {
    method,
    headers: { authorization: `Bearer ${h.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Uploads `count` copies of the PDF (multipart, real HTTP). */
export async function upload(h: Harness, batch: string, count = 1, headers: Record<string, string> = {}, bytes: Buffer = PDF): Promise<JsonResponse> {
  const form = new FormData();
  for (let i = 0; i < count; i++) form.append('file', new Blob([bytes], { type: 'application/pdf' }), `doc-${i}.pdf`);
  return fetch(`${h.url}/v1/batches/${batch}/documents`, { method: 'POST', headers: { authorization: `Bearer ${h.key}`, ...headers }, body: form });
}

/** Plays the worker: claims every pending document and completes it as succeeded. */
export async function completeAll(store: Store, result: unknown = { page_count: 1, tables: [], line_items: [], totals: null }): Promise<number> {
  let n = 0;
  for (;;) {
    const claimed = await store.claimDocuments(50, 30_000, Date.now());
    if (!claimed.length) return n;
    for (const c of claimed) {
      await store.completeDocument(c.id, c.attempt, { status: 'succeeded', page_count: 1, result_json: JSON.stringify(result) }, Date.now());
      n++;
    }
  }
}

/** Polls `fn` until it returns a truthy value or `ms` pass. */
export async function until<T>(fn: () => Promise<T> | T, ms = 10_000, step = 50): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, step));
  }
}

/** The CLI entry point, for tests that run real processes. */
export const BIN = new URL('../../bin/tablemill', import.meta.url).pathname;

/** A port free right now on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** Starts `bin/tablemill serve ARGS` on a free port; resolves with its URL from the startup line. */
export async function startServe(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, url };
}

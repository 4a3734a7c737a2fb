/**
 * Composition of a Tablemill process: config → store (migrated) → blobs → HTTP app → workers.
 * `startServer` is `tablemill serve`; `startWorkerProcess` is `tablemill worker`.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './api/app.js';
import type { AppDeps } from './api/deps.js';
import { Metrics } from './api/metrics.js';
import type { Config } from './config.js';
import { openStore } from './store/index.js';
import type { BlobStore, Store } from './store/index.js';
import { startTempSweep, type TempSweep } from './blobs/sweep.js';
import { startWorkers, type Workers } from './worker/loop.js';
import { startWebhookDispatcher } from './webhooks/plugin.js';

export interface RunningServer {
  /** `http://host:port` actually bound (port 0 picks a free one). */
  url: string;
  app: FastifyInstance;
  deps: AppDeps;
  workers: Workers | null;
  /** Stops accepting requests, drains them, stops the workers (bounded), closes the store. */
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Run extraction workers in this process (`serve --no-workers` turns them off). */
  workers: boolean;
  logger?: FastifyServerOptions['logger'];
  /** How long in-flight documents may run on after a shutdown signal. */
  graceMs?: number;
}

/** Opens and migrates the store of `config`; `blobs` is the store's. */
export async function openStorage(config: Config): Promise<{ store: Store; blobs: BlobStore }> {
  const store = await openStore(config);
  try {
    await store.migrate();
    return { store, blobs: store.blobs };
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
}

function workerLog(app: FastifyInstance | null) {
  return (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => {
    if (app) app.log[level](extra ?? {}, msg);
    else if (level !== 'info') process.stderr.write(`${level}: ${msg} ${extra ? JSON.stringify(extra) : ''}\n`);
  };
}

/** Starts the API (and, unless disabled, the workers) and listens on `config.host:config.port`. */
export async function startServer(config: Config, opts: ServeOptions): Promise<RunningServer> {
  const { store, blobs } = await openStorage(config);
  const metrics = new Metrics();
  const deps: AppDeps = { config, store, blobs, metrics, exporters: {}, stats: () => store.documentStats(), now: Date.now };
  let app: FastifyInstance | null = null;
  let workers: Workers | null = null;
  let sweep: TempSweep | null = null;
  try {
    app = await buildApp(deps, { logger: opts.logger });
    const log = app.log;
    // Before listening: no upload of this process can be in flight yet.
    sweep = startTempSweep(blobs, (removed) => log.info({ removed }, 'removed stale upload temp files'), (err) => log.error({ err }, 'temp file sweep failed'));
    await sweep.first;
    if (opts.workers && config.worker.concurrency > 0) {
      workers = await startWorkers({ config, store, blobs, onOutcome: (s) => metrics.documentProcessed(s), log: workerLog(app) });
    }
    const address = await app.listen({ port: config.port, host: config.host });
    const theApp = app;
    return {
      url: address,
      app: theApp,
      deps,
      workers,
      async close() {
        sweep?.stop();
        await theApp.close();
        await workers?.stop(opts.graceMs);
        await store.close();
      },
    };
  } catch (err) {
    sweep?.stop();
    await app?.close().catch(() => {});
    await workers?.stop(0).catch(() => {});
    await store.close().catch(() => {});
    throw err;
  }
}

/** Workers only, against the configured database (cluster mode). */
export async function startWorkerProcess(config: Config, opts: { graceMs?: number } = {}): Promise<{ workers: Workers; close(): Promise<void> }> {
  const { store, blobs } = await openStorage(config);
  try {
    const workers = await startWorkers({ config, store, blobs, log: workerLog(null) });
    const webhooks = startWebhookDispatcher(config, store, (err) => workerLog(null)('error', 'webhook dispatcher', { err: String(err) }));
    return {
      workers,
      async close() {
        await webhooks.stop();
        await workers.stop(opts.graceMs);
        await store.close();
      },
    };
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
}

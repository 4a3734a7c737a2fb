/**
 * Composition of a Tablemill process: config → store (migrated) → blobs → HTTP app → workers.
 * `startServer` is `tablemill serve`; `startWorkerProcess` is `tablemill worker`.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './api/app.js';
import type { AppDeps } from './api/deps.js';
import { Metrics } from './metrics/index.js';
import type { Config } from './config.js';
import { openStore } from './store/index.js';
import type { BlobStore, Store } from './store/index.js';
import { startTempSweep, type TempSweep } from './blobs/sweep.js';
import { startRetentionSweep, type RetentionSweep } from './retention/sweep.js';
import { startWorkers, type Workers } from './worker/loop.js';
import { startWebhookDispatcher, type AttemptLogger } from './webhooks/plugin.js';
import { startMetricsServer, type MetricsServer } from './metrics/server.js';
import { pino, type Logger } from 'pino';
import { sleep } from './domain/time.js';

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

/** The worker loop's log function on a pino logger (the app's, or the worker process's own). */
function workerLog(logger: AttemptLogger) {
  return (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => logger[level](extra ?? {}, msg);
}

/** The retention sweep of a serve or worker process, logging what it purged. */
function startRetention(config: Config, store: Store, blobs: BlobStore, log: AttemptLogger): RetentionSweep {
  return startRetentionSweep(
    store,
    blobs,
    config.retentionDays,
    (purged) => log.info(purged, 'retention purged'),
    (err) => log.error({ err }, 'retention sweep failed'),
  );
}

/** In-flight requests get this long at shutdown; then their connections are cut. */
const REQUEST_DRAIN_MS = 2000;

/** Counts the requests in flight on `app`'s server (an answered or abandoned one ends). */
function countRequests(app: FastifyInstance): () => number {
  let active = 0;
  app.server.on('request', (_req, res: import('node:http').ServerResponse) => {
    active++;
    res.once('close', () => active--);
  });
  return () => active;
}

/**
 * Closes the app: lets requests finish for up to `REQUEST_DRAIN_MS` while still listening, then
 * cuts what is left and releases the port, right before the process exits.
 */
async function closeApp(app: FastifyInstance, active: () => number): Promise<void> {
  const until = Date.now() + REQUEST_DRAIN_MS;
  while (active() > 0 && Date.now() < until) await sleep(50);
  const timer = setTimeout(() => app.server.closeAllConnections(), 100);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the API (and, unless disabled, the workers) and listens on `config.host:config.port`. */
export async function startServer(config: Config, opts: ServeOptions): Promise<RunningServer> {
  const { store, blobs } = await openStorage(config);
  const metrics = new Metrics();
  const stopping = new AbortController();
  const deps: AppDeps = { config, store, blobs, metrics, exporters: {}, stats: () => store.documentStats(), now: Date.now, stopping: stopping.signal };
  let app: FastifyInstance | null = null;
  let workers: Workers | null = null;
  let sweep: TempSweep | null = null;
  let retention: RetentionSweep | null = null;
  try {
    app = await buildApp(deps, { logger: opts.logger });
    const log = app.log;
    // Before listening: no upload of this process can be in flight yet.
    sweep = startTempSweep(blobs, (removed) => log.info({ removed }, 'removed stale upload temp files'), (err) => log.error({ err }, 'temp file sweep failed'));
    await sweep.first;
    retention = startRetention(config, store, blobs, log);
    const active = countRequests(app);
    const address = await app.listen({ port: config.port, host: config.host });
    // In the background: a start is not held up by 256 mkdirs, and a put meeting a folder not yet made makes it.
    blobs.createFolders?.().catch((err) => log.warn({ err }, 'could not create the blob folders ahead of uploads'));
    // After listening: warming the extraction children (spawn, load pdf.js, one small PDF) took
    // most of the time to /healthz, and uploads and status requests do not need them.
    if (opts.workers && config.worker.concurrency > 0) {
      workers = await startWorkers({ config, store, blobs, metrics, onOutcome: (s) => metrics.documentProcessed(s), log: workerLog(app.log) });
    }
    const theApp = app;
    return {
      url: address,
      app: theApp,
      deps,
      workers,
      async close() {
        // The port stays bound while documents finish (readiness fails meanwhile), so it is
        // released only once this process is about to exit: another server bound to it never
        // runs beside this one.
        stopping.abort();
        sweep?.stop();
        await workers?.stop(opts.graceMs);
        await closeApp(theApp, active);
        await retention?.stop();
        await store.close();
      },
    };
  } catch (err) {
    sweep?.stop();
    await retention?.stop();
    await app?.close().catch(() => {});
    await workers?.stop(0).catch(() => {});
    await store.close().catch(() => {});
    throw err;
  }
}

/** Workers only, against the configured database (cluster mode). */
export async function startWorkerProcess(
  config: Config,
  opts: { graceMs?: number; logger?: Logger } = {},
): Promise<{ workers: Workers; metricsUrl: string | null; close(): Promise<void> }> {
  const { store, blobs } = await openStorage(config);
  // JSON lines on stdout at `TABLEMILL_LOG_LEVEL`, as `serve` writes through Fastify.
  const logger = opts.logger ?? pino({ level: config.logLevel });
  const metrics = new Metrics();
  let metricsServer: MetricsServer | null = null;
  try {
    const workers = await startWorkers({ config, store, blobs, metrics, onOutcome: (s) => metrics.documentProcessed(s), log: workerLog(logger) });
    const webhooks = startWebhookDispatcher(config, store, logger, metrics);
    const retention = startRetention(config, store, blobs, logger);
    if (config.metricsPort !== null) metricsServer = await startMetricsServer(metrics, config.metricsPort, config.host);
    const served = metricsServer;
    return {
      workers,
      metricsUrl: served ? `${served.url}/metrics` : null,
      async close() {
        await served?.close();
        await webhooks.stop();
        await workers.stop(opts.graceMs);
        await retention.stop();
        await store.close();
      },
    };
  } catch (err) {
    await metricsServer?.close().catch(() => {});
    await store.close().catch(() => {});
    throw err;
  }
}

/**
 * Runs the webhook dispatcher for the life of a Fastify app (the serve process): started when
 * the app is ready, stopped (attempts in flight finished) when it closes. Worker processes
 * start one with `startWebhookDispatcher` instead.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import type { Metrics } from '../metrics/index.js';
import { startDispatcher, type AttemptReport, type Dispatcher } from './dispatcher.js';

/** A logger in pino's shape (Fastify's `app.log`, or the worker's own). */
export interface AttemptLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A log line per attempt (warn when it failed) and the attempt histogram. */
function observeAttempts(log: AttemptLogger, metrics?: Metrics): (a: AttemptReport) => void {
  return (a) => {
    if (a.outcome === 'delivered') log.info(a, 'webhook attempt');
    else log.warn(a, 'webhook attempt');
    metrics?.webhookAttempt(a.outcome, a.duration_ms / 1000);
  };
}

/** Starts a dispatcher on `store`'s webhook tables; errors are logged (the loop goes on). */
export function startWebhookDispatcher(config: Config, store: Store, log: AttemptLogger, metrics?: Metrics): Dispatcher {
  return startDispatcher({
    config,
    webhooks: store.webhooks,
    changes: store.changes,
    onError: (err) => log.error({ err }, 'webhook dispatcher'),
    onAttempt: observeAttempts(log, metrics),
  });
}

/** Adds the dispatcher to `app`'s lifecycle (`app.ready()` starts it, `app.close()` stops it). */
export function webhookDispatcherHooks(app: FastifyInstance, deps: { config: Config; store: Store; metrics?: Metrics }): void {
  let dispatcher: Dispatcher | null = null;
  app.addHook('onReady', async () => {
    dispatcher = startWebhookDispatcher(deps.config, deps.store, app.log, deps.metrics);
  });
  app.addHook('onClose', async () => {
    await dispatcher?.stop();
  });
}

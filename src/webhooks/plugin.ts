/**
 * Runs the webhook dispatcher for the life of a Fastify app (the serve process): started when
 * the app is ready, stopped (attempts in flight finished) when it closes. Worker processes
 * start one with `startWebhookDispatcher` instead.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import { startDispatcher, type Dispatcher } from './dispatcher.js';

/** Starts a dispatcher on `store`'s webhook tables; errors go to `onError` (the loop goes on). */
export function startWebhookDispatcher(config: Config, store: Store, onError?: (err: unknown) => void): Dispatcher {
  return startDispatcher({ config, webhooks: store.webhooks, changes: store.changes, onError });
}

/** Adds the dispatcher to `app`'s lifecycle (`app.ready()` starts it, `app.close()` stops it). */
export function webhookDispatcherHooks(app: FastifyInstance, deps: { config: Config; store: Store }): void {
  let dispatcher: Dispatcher | null = null;
  app.addHook('onReady', async () => {
    dispatcher = startWebhookDispatcher(deps.config, deps.store, (err) => app.log.error({ err }, 'webhook dispatcher'));
  });
  app.addHook('onClose', async () => {
    await dispatcher?.stop();
  });
}

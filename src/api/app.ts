/**
 * `buildApp(deps)`: the Fastify app of API.md §3, from one plugin per resource. Features built on
 * top (webhooks, rate limits, long-poll, exports) register here with one line each.
 */
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { KeyCache } from './key-cache.js';
import { AuthFailureLimit, authHook } from './auth.js';
import type { AppDeps } from './deps.js';
import { frameworkErrorHandler, MAX_PARAM_LENGTH, registerErrorHandling } from './errors.js';
import { noStore, registerPageHeaders } from './headers.js';
import { batchRoutes } from './routes/batches.js';
import { docsRoutes } from './routes/docs.js';
import { documentRoutes } from './routes/documents.js';
import { healthRoutes } from './routes/health.js';
import { pageRoutes } from './routes/pages.js';
import { reviewRoutes } from './routes/review.js';
import { uploadRoutes } from './routes/upload.js';
import { webhookRoutes } from './routes/webhooks.js';
import { webappRoutes } from './routes/webapp.js';
import { limiterFaults, rateLimitHook } from './rate-limit.js';
import { registerLongPoll } from './long-poll.js';
import { registerIdempotency } from './idempotency.js';
import { bodyValidation, registerJsonBody } from './json-body.js';
import { registerExporters } from './exports/index.js';
import { finishOpenApi } from './openapi.js';
import { createRequire } from 'node:module';
import { webhookDispatcherHooks } from '../webhooks/plugin.js';

/**
 * Request ids: a random per-app prefix and a counter (`req_` + 32 hex). They need to be unique,
 * not unguessable, and 16 random bytes per request cost 2.6% of the status endpoint's CPU.
 */
function requestIds(): () => string {
  const prefix = randomBytes(8).toString('hex');
  let n = 0;
  return () => `req_${prefix}${(++n).toString(16).padStart(16, '0')}`;
}

/** Builds the app (not listening). `logger` is Fastify's logger option. */
export async function buildApp(deps: AppDeps, opts: { logger?: FastifyServerOptions['logger'] } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    genReqId: requestIds(),
    // Ids are ours: a client-chosen id would let one request pose as another in the logs.
    requestIdHeader: false,
    // A log line per request would cost more than the 5 ms status budget at 5,000 req/s; 5xx are logged.
    logController: new LogController({ disableRequestLogging: true }),
    // JSON bodies are small (webhook registration); uploads are multipart and streamed.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Batch names of up to 128 characters are valid; the default limit (100) answered 414. Under
    // routerOptions: the top-level option is deprecated in Fastify 5 (FSTDEP022 at every start).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    // `request.ip` (limits, logs) is the right-most address of X-Forwarded-For that is not one of
    // these proxies, and the peer itself when it is not one: a client can prepend what it likes.
    trustProxy: deps.config.trustedProxies.length ? deps.config.trustedProxies : false,
    schemaController: bodyValidation(),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Every answer, errors included: an uploaded file served by /file must never be sniffed as HTML.
    reply.header('x-content-type-options', 'nosniff');
  });
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  registerErrorHandling(app, (fault) => deps.metrics.storeFault(fault, 'api'));
  registerPageHeaders(app);

  registerJsonBody(app);
  // Multipart bodies are left unread here: the upload route streams them (./multipart.ts).
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tablemill API',
        // One version: the package's, as `tablemill --version` prints it.
        version: (createRequire(import.meta.url)('../../package.json') as { version: string }).version,
        description: 'Image-to-table: upload PDFs and images into batches, process them, read tables and line items.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'an API key from `tablemill keys create`' } } },
      tags: [{ name: 'batches' }, { name: 'documents' }, { name: 'operations' }],
    },
    transformObject: (input) => finishOpenApi((input as { openapiObject: Record<string, any> }).openapiObject) as any,
  });

  webhookDispatcherHooks(app, deps);
  registerExporters(deps);
  await app.register(healthRoutes(deps));
  await app.register(docsRoutes());
  await app.register(webappRoutes());
  await app.register(
    async (v1) => {
      const keys = new KeyCache(deps.store.changes, deps.now);
      v1.addHook('onClose', async () => keys.close());
      // Not behind TABLEMILL_RATE_LIMITS: turning the per-key limits off for a benchmark must not
      // open key guessing.
      const { authFailuresPerMinute } = deps.config.rateLimits;
      const failures = authFailuresPerMinute > 0 ? new AuthFailureLimit(deps.store, authFailuresPerMinute, limiterFaults(deps, v1.log)) : undefined;
      const authenticate = authHook(deps.store, deps.now, keys, failures);
      const rateLimit = rateLimitHook(deps, v1.log);
      // The counts' last points reach the store before it closes.
      v1.addHook('onClose', async () => {
        await Promise.all([failures?.close(), rateLimit?.close()]);
      });
      // One hook for the three steps, in this order: every hook is a dispatch on every /v1
      // request, the status endpoint's included. A key already verified and far from its limit
      // passes with no promise at all.
      async function checks(request: FastifyRequest, reply: FastifyReply): Promise<void> {
        await authenticate.verify(request, reply);
        if (rateLimit && !reply.sent) await rateLimit(request, reply);
      }
      v1.addHook('onRequest', (request, reply, done) => {
        noStore(reply);
        if (authenticate.cached(request)) {
          const limited = rateLimit?.(request, reply);
          if (!limited) return done();
          limited.then(() => done(), done);
          return;
        }
        checks(request, reply).then(() => done(), done);
      });
      registerLongPoll(v1, deps);
      registerIdempotency(v1, deps);
      await v1.register(uploadRoutes(deps));
      await v1.register(batchRoutes(deps));
      await v1.register(documentRoutes(deps));
      await v1.register(pageRoutes(deps));
      await v1.register(reviewRoutes(deps));
      await v1.register(webhookRoutes(deps));
    },
    { prefix: '/v1' },
  );
  return app;
}

/** Unauthenticated operations routes: liveness, readiness (the database answers), Prometheus metrics. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { ErrorSchema } from '../../contract/schemas.js';

/** Readiness fails after 2 s: a load balancer's probe usually times out at 5 s. */
const READY_TIMEOUT_MS = 2000;

/** Registers /healthz, /readyz and /metrics. */
export function healthRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/healthz',
      { schema: { tags: ['operations'], summary: 'Liveness: the process answers', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags: ['operations'],
          summary: 'Readiness: the database is reachable',
          response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: ErrorSchema },
        },
      },
      async () => {
        // A stopping process still answers until it exits; a load balancer should send it nothing new.
        if (deps.stopping?.aborted) throw new ApiError(503, 'unavailable', 'the server is shutting down', undefined, { 'retry-after': '1' });
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
        });
        try {
          await Promise.race([deps.store.ping(), timeout]);
        } catch (err) {
          throw new ApiError(503, 'unavailable', `database not reachable: ${(err as Error).message}`);
        } finally {
          clearTimeout(timer);
        }
        return { status: 'ready' as const };
      },
    );

    app.get(
      '/metrics',
      {
        schema: {
          tags: ['operations'],
          summary: 'Prometheus metrics (text exposition format 0.0.4)',
          produces: ['text/plain'],
          response: { 200: Type.String() },
        },
      },
      async (_request, reply) => {
        const stats = deps.stats ? await deps.stats().catch(() => null) : null;
        const text = await deps.metrics.render({
          documentsByStatus: stats?.documentsByStatus ?? null,
          queueDepth: stats?.queueDepth ?? null,
        });
        return reply.type('text/plain; version=0.0.4; charset=utf-8').send(text);
      },
    );
  };
}

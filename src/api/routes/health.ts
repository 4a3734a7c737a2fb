/** Unauthenticated operations routes: liveness, readiness (the database answers, storage has room), Prometheus metrics. */
import { statfs } from 'node:fs/promises';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { ErrorSchema } from '../../contract/schemas.js';

/** Readiness fails after 2 s: a load balancer's probe usually times out at 5 s. */
const READY_TIMEOUT_MS = 2000;

/** Free space under which the data folder counts as full whatever happened. */
const MIN_FREE_BYTES = 1024 * 1024;

/** How long a full disk met by a write is reported when nothing is stored after it. */
const FULL_REPORTED_MS = 60_000;

/**
 * Whether storage is full now: a write met a full disk or blob store recently and nothing was
 * stored since, or (embedded mode, files under the data folder) the folder's file system has
 * less than 1 MiB free — or less than a file's limit after such a write. Space freed shows at
 * the next probe.
 */
async function storageFull(deps: AppDeps): Promise<boolean> {
  const recent = deps.metrics.storageFullRecently(deps.now(), FULL_REPORTED_MS);
  if (deps.config.databaseUrl || deps.config.blobs) return recent;
  const st = await statfs(deps.config.dataDir).catch(() => null);
  if (!st) return recent;
  const free = st.bavail * st.bsize;
  return free < MIN_FREE_BYTES || (recent && free < deps.config.limits.maxFileBytes);
}

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
          summary: 'Readiness: the database is reachable and storage is not full',
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
          // The retry the API's other answers give during an outage (`storeFault` → 503, 2 s).
          throw new ApiError(503, 'unavailable', `database not reachable: ${(err as Error).message}`, { reason: 'database' }, { 'retry-after': '2' });
        } finally {
          clearTimeout(timer);
        }
        if (await storageFull(deps)) {
          throw new ApiError(503, 'unavailable', 'storage is full: uploads answer 507 until space is freed', { reason: 'storage_full' }, { 'retry-after': '30' });
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

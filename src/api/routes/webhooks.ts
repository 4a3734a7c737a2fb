/**
 * Webhook routes of API.md §3 and §7: register/replace, read (secret masked), remove, the
 * delivery log (newest first) and redelivery of an event (same event id).
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, batchNotFound, conflict, invalidRequest } from '../../domain/errors.js';
import type { DeliveryRow, WebhookRow } from '../../store/webhooks.js';
import { literalHostReason, parseCallbackUrl } from '../../webhooks/address-guard.js';
import { maskSecret, newWebhookSecret, secretKey } from '../../webhooks/signing.js';
import type { AppDeps } from '../deps.js';
import { BatchNameParams, ErrorSchema, errorResponses } from '../../contract/schemas.js';
import { DeliverySchema, WebhookSchema, type Delivery, type Webhook } from '../../contract/webhooks.js';
import { iso } from '../../contract/views.js';

const security = [{ bearer: [] }];
const PutBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    secret: Type.Optional(Type.String({ maxLength: 256, description: 'whsec_ + base64 of 24–64 bytes; generated when absent' })),
  },
  { additionalProperties: false },
);

function webhookView(batchName: string, w: WebhookRow, showSecret: boolean): Webhook {
  return { batch_name: batchName, url: w.url, secret: showSecret ? w.secret : maskSecret(w.secret), created_at: iso(w.created_at) as string, disabled_at: iso(w.disabled_at) };
}

/** The `Delivery` shape. */
export function deliveryView(d: DeliveryRow): Delivery {
  return {
    id: d.id,
    event_id: d.event_id,
    attempt: d.attempt,
    status: d.status,
    response_status: d.response_status,
    error: d.error,
    created_at: iso(d.created_at) as string,
    next_attempt_at: iso(d.next_attempt_at),
  };
}

/** Registers the webhook routes under /v1. */
export function webhookRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const { store, config } = deps;
  const { webhooks } = store;
  return async (app) => {
    const liveBatch = async (accountId: string, name: string) => {
      const b = await store.getBatch(accountId, name);
      if (!b) throw batchNotFound(name);
      return b;
    };

    app.put(
      '/batches/:batch_name/webhook',
      {
        schema: {
          tags: ['batches'],
          summary: "Register or replace the batch's callback (the secret is shown once)",
          security,
          params: BatchNameParams,
          body: PutBody,
          response: { 200: WebhookSchema, ...errorResponses },
        },
      },
      async (request) => {
        const batch = await liveBatch(request.account.id, request.params.batch_name);
        let url: URL;
        try {
          url = parseCallbackUrl(request.body.url);
        } catch (err) {
          throw invalidRequest((err as Error).message, { field: 'url' });
        }
        const reason = literalHostReason(url, config.webhooks.allowPrivate);
        if (reason) throw invalidRequest(`url points at a ${reason} address, which webhooks may not reach`, { field: 'url', reason });
        const secret = request.body.secret ?? newWebhookSecret();
        if (!secretKey(secret)) throw invalidRequest('secret must be whsec_ followed by base64 of 24 to 64 bytes', { field: 'secret' });
        const row = await webhooks.putWebhook(request.account.id, batch.id, url.href, secret, deps.now());
        return webhookView(batch.name, row, true);
      },
    );

    app.get(
      '/batches/:batch_name/webhook',
      { schema: { tags: ['batches'], summary: 'The current callback (secret masked)', security, params: BatchNameParams, response: { 200: WebhookSchema, ...errorResponses } } },
      async (request) => {
        const batch = await liveBatch(request.account.id, request.params.batch_name);
        const row = await webhooks.getWebhook(batch.id);
        if (!row) throw new ApiError(404, 'not_found', `batch ${batch.name} has no webhook`);
        return webhookView(batch.name, row, false);
      },
    );

    app.delete(
      '/batches/:batch_name/webhook',
      { schema: { tags: ['batches'], summary: 'Remove the callback', security, params: BatchNameParams, response: { 204: Type.Null(), ...errorResponses } } },
      async (request, reply) => {
        const batch = await liveBatch(request.account.id, request.params.batch_name);
        if (!(await webhooks.deleteWebhook(batch.id, deps.now()))) throw new ApiError(404, 'not_found', `batch ${batch.name} has no webhook`);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/batches/:batch_name/webhook/deliveries',
      {
        schema: {
          tags: ['batches'],
          summary: 'Delivery attempts, newest first',
          security,
          params: BatchNameParams,
          querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 100 }) }),
          response: { 200: Type.Object({ deliveries: Type.Array(DeliverySchema) }), ...errorResponses },
        },
      },
      async (request) => {
        const batch = await liveBatch(request.account.id, request.params.batch_name);
        return { deliveries: (await webhooks.listDeliveries(batch.id, request.query.limit)).map(deliveryView) };
      },
    );

    app.post(
      '/batches/:batch_name/webhook/deliveries/:id/redeliver',
      {
        schema: {
          tags: ['batches'],
          summary: 'Send that event again now (same event id)',
          security,
          params: Type.Intersect([BatchNameParams, Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })]),
          response: { 202: DeliverySchema, 409: ErrorSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const batch = await liveBatch(request.account.id, request.params.batch_name);
        const hook = await webhooks.getWebhook(batch.id);
        if (!hook) throw conflict(`batch ${batch.name} has no webhook; PUT one first`);
        if (hook.disabled_at !== null) throw conflict(`the webhook of ${batch.name} was disabled (${hook.disabled_reason}); PUT it again to re-enable`);
        const row = await webhooks.redeliver(batch.id, request.params.id, deps.now());
        if (!row) throw new ApiError(404, 'not_found', `delivery ${request.params.id} not found`);
        return reply.code(202).send(deliveryView(row));
      },
    );
  };
}

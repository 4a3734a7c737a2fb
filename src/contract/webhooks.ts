/** TypeBox schemas of the webhook shapes (API.md §7), and the TypeScript types derived from them. */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { BatchSchema } from './schemas.js';

const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
const NullableInt = Type.Unsafe<number | null>({ type: ['integer', 'null'] });
const NullableTime = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' });

export const WebhookSchema = Type.Object(
  {
    batch_name: Type.String(),
    url: Type.String(),
    secret: Type.String({ description: 'whsec_…; shown in full only in the PUT answer' }),
    created_at: Type.String({ format: 'date-time' }),
    disabled_at: NullableTime,
  },
  { title: 'Webhook' },
);

export const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    event_id: Type.String({ description: 'the webhook-id header; stable across attempts' }),
    attempt: Type.Integer(),
    status: Type.Unsafe<'pending' | 'delivered' | 'failed'>({ type: 'string', enum: ['pending', 'delivered', 'failed'] }),
    response_status: NullableInt,
    error: NullableString,
    created_at: Type.String({ format: 'date-time' }),
    next_attempt_at: NullableTime,
  },
  { title: 'Delivery' },
);

/** The body of a `batch.completed` event: the same bytes on every attempt. */
export const BatchCompletedEventSchema = Type.Object(
  {
    id: Type.String({ description: 'the webhook-id header; stable across attempts' }),
    type: Type.Literal('batch.completed'),
    created_at: Type.String({ format: 'date-time' }),
    data: Type.Object({ batch: BatchSchema }),
  },
  { title: 'BatchCompletedEvent' },
);

export type Webhook = Static<typeof WebhookSchema>;
export type Delivery = Static<typeof DeliverySchema>;
export type BatchCompletedEvent = Static<typeof BatchCompletedEventSchema>;

/**
 * The NOTIFY channels, sent inside the transaction that makes the change (delivered at commit).
 * Only latency hints: every listener also polls.
 */
import type { ChangeKind } from '../changes.js';
import type { Q } from './pool.js';

/** Idle workers wait on it: documents became pending. The payload is the schema. */
export const WORK_CHANNEL = 'tablemill_work';
/** The Store's change stream; the payload is `schema:kind` (`ChangeKind`). */
export const CHANGES_CHANNEL = 'tablemill_changes';

/**
 * SQL for a payload naming the sender's schema: channels are database-wide, and instances in
 * other schemas of one database (TABLEMILL_DB_SCHEMA) must not wake each other.
 */
export const schemaPayload = (kind: ChangeKind | null): string => (kind ? `current_schema() || ':${kind}'` : 'current_schema()');

export async function notifyWork(q: Q): Promise<void> {
  await q.query(`SELECT pg_notify($1, ${schemaPayload(null)})`, [WORK_CHANNEL]);
}

export async function notifyChange(q: Q, kind: ChangeKind): Promise<void> {
  await q.query(`SELECT pg_notify($1, ${schemaPayload(kind)})`, [CHANGES_CHANNEL]);
}

/** What a listener in `schema` makes of a notification: 'work', a change kind, or null (another schema's). */
export function heard(schema: string, channel: string, payload: string | undefined): string | null {
  if (channel === WORK_CHANNEL) return payload === schema ? 'work' : null;
  const p = payload ?? '';
  return p.startsWith(`${schema}:`) ? p.slice(schema.length + 1) : null;
}

/**
 * One dedicated connection per Store that LISTENs for work and for changes, and wakes local
 * waiters and subscribers.
 */
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { nextEvent, type ChangeKind, type ChangeStream } from '../changes.js';
import { CHANGES_CHANNEL, WORK_CHANNEL, heard } from './notify.js';

/** A dropped connection with subscribers left is re-opened after this long. */
const RECONNECT_MS = 1000;

/**
 * Connects lazily, on the first wait or subscription. A dropped connection is not an error for
 * anyone: waiters and subscribers fall back to their polls until it is re-opened.
 */
export class Listener implements ChangeStream {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly events = new EventEmitter();
  private closed = false;
  private subscribers = 0;
  /** Connections opened so far: a new one may have missed notifications sent in between. */
  private generation = 0;

  constructor(private readonly config: pg.ClientConfig) {
    this.events.setMaxListeners(0);
  }

  /** Resolves on a work notification, after `ms`, or when `signal` aborts. */
  async wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.closed) return;
    const woken = nextEvent(this.events, 'work', ms, signal);
    this.ensure().catch(() => {});
    await woken;
  }

  subscribe(kind: ChangeKind, fn: () => void): () => void {
    this.events.on(kind, fn);
    this.subscribers++;
    this.ensure().catch(() => {});
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      this.subscribers--;
      this.events.off(kind, fn);
    };
  }

  /** The connection's generation while it listens; -1 while it does not (notifications may be lost). */
  epoch(): number {
    return this.client ? this.generation : -1;
  }

  /** Wakes local waiters without a round-trip (this process just made work available). */
  wake(): void {
    this.events.emit('work');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.events.emit('work');
    const c = this.client;
    this.client = null;
    await this.connecting?.catch(() => {});
    await (c ?? this.client)?.end().catch(() => {});
  }

  private ensure(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    if (this.connecting) return this.connecting;
    const c = new pg.Client(this.config);
    this.connecting = (async () => {
      let schema: string | null = null;
      c.on('notification', (n) => {
        const event = schema === null ? null : heard(schema, n.channel, n.payload);
        if (event) this.events.emit(event);
      });
      c.on('error', () => {
        if (this.client === c) this.client = null;
        c.end().catch(() => {});
        if (this.subscribers > 0 && !this.closed) setTimeout(() => this.ensure().catch(() => {}), RECONNECT_MS).unref();
      });
      await c.connect();
      // The schema the senders' current_schema() names (same search_path as the pool's).
      schema = (await c.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
      await c.query(`LISTEN ${WORK_CHANNEL}`);
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (this.closed) await c.end();
      else {
        this.generation++;
        this.client = c;
      }
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }
}

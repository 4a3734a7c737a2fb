/** One dedicated connection per process that LISTENs for work and wakes local waiters. */
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { WORK_CHANNEL } from './queue.js';

/**
 * Connects lazily on the first wait. A dropped connection is not an error for anyone: waiters
 * fall back to their poll timeout, and the next wait reconnects.
 */
export class WorkListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly events = new EventEmitter();
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {
    this.events.setMaxListeners(0);
  }

  /** Resolves on a notification, after `ms`, or when `signal` aborts. */
  async wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.closed) return;
    const woken = new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.events.off('work', done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.events.on('work', done);
      signal?.addEventListener('abort', done, { once: true });
    });
    this.ensure().catch(() => {});
    await woken;
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
      c.on('notification', () => this.events.emit('work'));
      c.on('error', () => {
        if (this.client === c) this.client = null;
        c.end().catch(() => {});
      });
      await c.connect();
      await c.query(`LISTEN ${WORK_CHANNEL}`);
      if (this.closed) await c.end();
      else this.client = c;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }
}

/**
 * The Store's change stream: long-poll waits on `documents`, the webhook dispatcher on
 * `webhooks`. A hint to look again, never the data itself: a subscriber re-reads what it
 * watches, and keeps a poll for changes the stream cannot carry (SQLite files written by
 * another process; a PostgreSQL listener that is reconnecting).
 */
import { EventEmitter } from 'node:events';

/**
 * `documents`: a document's or a batch's status moved (upload, submit, claim, completion,
 * cancel, delete, reap). `webhooks`: the outbox has something to send now (a batch event was
 * written, a redelivery was asked for).
 */
export type ChangeKind = 'documents' | 'webhooks';

export interface ChangeStream {
  /** Calls `fn` after each committed change of `kind`; returns the unsubscribe function. */
  subscribe(kind: ChangeKind, fn: () => void): () => void;
}

/** A change stream within one process: what the process's own writes emit. */
export class LocalChanges implements ChangeStream {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  subscribe(kind: ChangeKind, fn: () => void): () => void {
    this.emitter.on(kind, fn);
    return () => this.emitter.off(kind, fn);
  }

  emit(kind: ChangeKind): void {
    this.emitter.emit(kind);
  }
}

/** Resolves on the first `event` of `emitter`, after `ms`, or when `signal` aborts. */
export function nextEvent(emitter: EventEmitter, event: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      emitter.off(event, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    emitter.on(event, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

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
 * written, a redelivery was asked for). `keys`: an API key was revoked (caches of verified keys
 * drop their entries).
 */
export type ChangeKind = 'documents' | 'webhooks' | 'keys';

export interface ChangeStream {
  /** Calls `fn` after each committed change of `kind`; returns the unsubscribe function. */
  subscribe(kind: ChangeKind, fn: () => void): () => void;
  /**
   * A number that moves whenever this process may have missed a notification, and -1 while it
   * cannot hear any: what a cache kept in step by the stream checks before trusting an entry.
   * PostgreSQL: the LISTEN connection's generation (-1 while it is down); SQLite: the
   * database's `data_version` (moves on each commit by another process, such as the CLI).
   */
  epoch(): number;
}

/** A change stream within one process: what the process's own writes emit. */
export class LocalChanges implements ChangeStream {
  /** `epoch`: by default nothing is ever missed (one process owns the data). */
  constructor(
    private readonly emitter = new EventEmitter(),
    readonly epoch: () => number = () => 0,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** The same subscribers and emits, with its own `epoch` (each SQLite connection reads its own). */
  withEpoch(epoch: () => number): LocalChanges {
    return new LocalChanges(this.emitter, epoch);
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

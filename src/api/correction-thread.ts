/**
 * Corrections applied (`src/review/apply.ts`) in a thread of their own, so they never hold the
 * API's event loop: a probe's correction of 450 long values had held every request of every
 * account for 105 s, three PUTs of 10,000 cells 17 s. One job at a time, accounts in turns. A job
 * keeps to its own learning budget; one that runs past `APPLY_LIMIT_MS` all the same ends its
 * thread (a new one takes the next job) and its correction is refused with a 503, nothing stored.
 * The thread starts with the first job and stays for the next.
 */
import { Worker } from 'node:worker_threads';
import { ApiError } from '../domain/errors.js';
import type { ApplyAnswer, ApplyJob } from '../review/apply.js';
import type { ApplyReply, ApplyRequest } from '../review/apply-thread.js';
import { scriptEntry } from '../worker/entry.js';
import { FairQueue } from './fair-queue.js';

/** A job's time in the thread at most: five times its learning budget (`LEARN_BUDGET_MS`). */
export const APPLY_LIMIT_MS = 10_000;
/** Jobs waiting, all accounts together, and one account's: past either, a correction is refused (503). */
const MAX_WAITING = 64;
const MAX_WAITING_PER_ACCOUNT = 8;
/** The thread's heap: a job holds a document's result, its words and the account's memories (≤ 500 of ≤ 8 KB). */
const HEAP_MB = 256;

interface Job {
  account: string;
  job: ApplyJob;
  resolve(answer: ApplyAnswer): void;
  reject(err: Error): void;
}

const busy = (why: string) => new ApiError(503, 'unavailable', `${why}; try again shortly`, { reason: 'corrections' }, { 'retry-after': '1' });

/** The corrections thread and its per-account queues. */
export class CorrectionThread {
  private thread: Promise<Worker> | null = null;
  private readonly queue = new FairQueue<Job>();
  private running = false;
  private closed = false;
  private ids = 0;

  constructor(private readonly limitMs = APPLY_LIMIT_MS) {}

  /** Applies `job` for `account` when its turn comes; 503 when too many wait or it runs past the limit. */
  run(account: string, job: ApplyJob): Promise<ApplyAnswer> {
    if (this.closed) return Promise.reject(busy('the server is shutting down'));
    if (this.queue.size >= MAX_WAITING || this.queue.waitingOf(account) >= MAX_WAITING_PER_ACCOUNT) return Promise.reject(busy('too many corrections are waiting'));
    return new Promise((resolve, reject) => {
      this.queue.push({ account, job, resolve, reject });
      this.pump();
    });
  }

  /** Ends the thread; waiting jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.drain()) j.reject(busy('the server is shutting down'));
    const thread = this.thread;
    this.thread = null;
    if (thread) await (await thread.catch(() => null))?.terminate();
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const next = this.queue.next();
    if (!next) return;
    this.running = true;
    void this.execute(next)
      .then(next.resolve, next.reject)
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  private start(): Promise<Worker> {
    if (this.thread) return this.thread;
    const started: Promise<Worker> = scriptEntry(new URL('../review/apply-thread.js', import.meta.url)).then(
      (file) =>
        new Promise<Worker>((resolve, reject) => {
          const w = new Worker(file, { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
          w.unref();
          w.once('message', () => resolve(w));
          w.once('error', reject);
          w.once('exit', () => {
            if (this.thread === started) this.thread = null;
          });
        }),
    );
    started.catch(() => {
      if (this.thread === started) this.thread = null;
    });
    return (this.thread = started);
  }

  private async execute({ job }: Job): Promise<ApplyAnswer> {
    const thread = await this.start();
    const id = ++this.ids;
    const reply = await new Promise<ApplyReply | 'timeout' | 'exit'>((resolve) => {
      const done = (r: ApplyReply | 'timeout' | 'exit') => {
        clearTimeout(timer);
        thread.off('message', onMessage).off('exit', onExit).off('error', onExit);
        resolve(r);
      };
      const onMessage = (m: ApplyReply) => 'id' in m && m.id === id && done(m);
      const onExit = () => done('exit');
      const timer = setTimeout(() => done('timeout'), this.limitMs);
      thread.on('message', onMessage).on('exit', onExit).on('error', onExit);
      thread.postMessage({ id, job } satisfies ApplyRequest);
    });
    if (reply === 'timeout' || reply === 'exit') {
      // The thread is mid-job or dead: a new one takes the next job.
      this.thread = null;
      void thread.terminate();
      throw busy(reply === 'timeout' ? `the correction took longer than ${this.limitMs} ms and was not stored` : 'the corrections thread stopped; the correction was not stored');
    }
    if ('error' in reply) throw new Error(`applying the correction failed: ${reply.error}`);
    if (!('answer' in reply)) throw new Error('the corrections thread answered out of turn');
    return reply.answer;
  }
}

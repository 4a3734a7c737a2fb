/**
 * Renders page images in extraction child processes (`worker/slot.ts`), under the limits a
 * document's extraction has: the inflation and pixel bounds inside the child, its heap, RSS and
 * time limits outside it. A hostile page costs one child, which is replaced, never the API
 * process. Renders wait in one queue per account, taken in turns, and one account holds at most
 * all children but one, so another account's page never waits behind its renders. A render whose
 * caller has gone (the client closed its connection) leaves the queue, or, running, costs its
 * child. Children start with the first render and stay for the next.
 */
import { childEntry } from '../../worker/entry.js';
import { runFailure, Slot, type SlotLimits, type SlotRun } from '../../worker/slot.js';
import type { RenderResult } from '../../worker/task.js';
import type { RenderLimits, RenderedPage } from '../../extract/render.js';
import { FairQueue } from '../fair-queue.js';

/**
 * Why a render did not give a page: `code` is a processing-error code (`resource_limit`,
 * `timeout`, `corrupt_file`, …) for the file's own fault, `busy` for a full queue or a stopping
 * server, `gone` for a caller that left.
 */
export class RenderError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}

interface Job {
  account: string;
  bytes: Uint8Array;
  page: number;
  width: number;
  signal?: AbortSignal;
  resolve(page: RenderedPage): void;
  reject(err: RenderError): void;
  onAbort?: () => void;
}

export interface RendererOptions {
  limits: RenderLimits;
  /** Heap, RSS and time limit of one render's child. */
  child: SlotLimits;
  /** Children rendering at once. */
  slots: number;
  /** Renders waiting beyond this, all accounts together, are refused (`busy`): each holds its document's bytes. */
  maxQueue: number;
}

/** What a run that gave no answer means for the page. */
function runError(run: Exclude<SlotRun<RenderResult>, { kind: 'done' }>, limits: SlotLimits): RenderError {
  if (run.kind === 'aborted') return new RenderError('gone', 'the client went away');
  const { code, message } = runFailure(run, limits, 'rendering');
  return new RenderError(code, message);
}

/** A small pool of rendering children and their per-account queues. */
export class PageRenderer {
  private readonly script = childEntry();
  private slots: Slot[] = [];
  private idle: Slot[] = [];
  private readonly queue = new FairQueue<Job>();
  private readonly running = new Map<string, number>();
  private closed = false;

  constructor(private readonly opts: RendererOptions) {
    this.script.catch(() => {});
  }

  /** Renders page `page` (1-based) of `bytes` at `width` pixels wide for `account`; `signal` aborts it. */
  render(account: string, bytes: Uint8Array, page: number, width: number, signal?: AbortSignal): Promise<RenderedPage> {
    if (this.closed) return Promise.reject(new RenderError('busy', 'the server is shutting down'));
    if (signal?.aborted) return Promise.reject(new RenderError('gone', 'the client went away'));
    if (this.queue.size >= this.opts.maxQueue) return Promise.reject(new RenderError('busy', 'too many page images are being rendered; try again shortly'));
    if (this.slots.length === 0) this.startSlots();
    return new Promise((resolve, reject) => {
      const job: Job = { account, bytes, page, width, signal, resolve, reject };
      job.onAbort = () => {
        if (this.queue.remove(job)) reject(new RenderError('gone', 'the client went away'));
      };
      signal?.addEventListener('abort', job.onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Renders waiting, all accounts together. */
  get queued(): number {
    return this.queue.size;
  }

  /** Process ids of the rendering children (tests). */
  get pids(): number[] {
    return this.slots.map((s) => s.pid ?? 0);
  }

  /** Ends the children; running and queued renders are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) {
      job.signal?.removeEventListener('abort', job.onAbort!);
      job.reject(new RenderError('busy', 'the server is shutting down'));
    }
    await Promise.all(this.slots.map((s) => s.close()));
  }

  private startSlots(): void {
    this.slots = Array.from({ length: Math.max(1, this.opts.slots) }, () => new Slot(this.script, this.opts.child));
    this.idle = [...this.slots];
  }

  /** The next job by turns among accounts, skipping an account that holds all children it may. */
  private next(): Job | null {
    const cap = Math.max(1, this.slots.length - 1);
    return this.queue.next((account) => (this.running.get(account) ?? 0) >= cap);
  }

  private pump(): void {
    while (!this.closed && this.idle.length > 0) {
      const job = this.next();
      if (!job) return;
      job.signal?.removeEventListener('abort', job.onAbort!);
      void this.run(this.idle.pop()!, job);
    }
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    this.running.set(job.account, (this.running.get(job.account) ?? 0) + 1);
    let keep = false;
    try {
      // A replacement child loads the engine first: that wait is not the render's time.
      try {
        await slot.ready;
      } catch (err) {
        if (this.closed) return job.reject(new RenderError('busy', 'the server is shutting down'));
        return job.reject(new RenderError('extraction_failed', `the rendering process did not start: ${(err as Error).message}`));
      }
      const run = await slot.render({ bytes: job.bytes, page: job.page, width: job.width, limits: this.opts.limits }, job.signal);
      if (run.kind !== 'done') return job.reject(this.closed ? new RenderError('busy', 'the server is shutting down') : runError(run, this.opts.child));
      keep = true;
      const res = run.result;
      if (!res.ok) return job.reject(new RenderError(res.error.code, res.error.message));
      const png = res.page.png as Uint8Array;
      job.resolve({ ...res.page, png: Buffer.from(png.buffer, png.byteOffset, png.byteLength) });
    } finally {
      const n = (this.running.get(job.account) ?? 1) - 1;
      if (n > 0) this.running.set(job.account, n);
      else this.running.delete(job.account);
      if (!this.closed) {
        this.idle.push(keep ? slot : this.replace(slot));
        this.pump();
      }
    }
  }

  /** Puts a fresh child in the place of `slot`'s dead one. */
  private replace(slot: Slot): Slot {
    void slot.close();
    const fresh = new Slot(this.script, this.opts.child);
    this.slots[this.slots.indexOf(slot)] = fresh;
    return fresh;
  }
}

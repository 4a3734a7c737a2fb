/**
 * Renders page images in one `node:worker_threads` thread of its own, so pdf.js (which parses on
 * the thread that calls it) never blocks the API's event loop. One render at a time, a heap limit
 * and a time limit: a page that runs over either costs the thread, which is replaced, never the
 * server. Renders queue behind each other; the queue is bounded.
 */
import { Worker } from 'node:worker_threads';
import type { RenderLimits, RenderedPage } from '../../extract/render.js';

const THREAD_FILE = new URL('./render-thread.js', import.meta.url);

/** Why a render did not give a page: `code` is a processing-error code, `timeout`, `resource_limit` or `busy`. */
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
  id: number;
  bytes: Uint8Array;
  page: number;
  width: number;
  resolve(page: RenderedPage): void;
  reject(err: RenderError): void;
  timer?: NodeJS.Timeout;
}

export interface RendererOptions {
  limits: RenderLimits;
  timeoutMs: number;
  heapMb: number;
  /** Renders waiting beyond this are refused (`busy`). */
  maxQueue: number;
}

/** One rendering thread and its queue. */
export class PageRenderer {
  private thread: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: Job[] = [];
  private running: Job | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: RendererOptions) {}

  /** Renders page `page` (1-based) of `bytes` at `width` pixels wide. */
  render(bytes: Uint8Array, page: number, width: number): Promise<RenderedPage> {
    if (this.closed) return Promise.reject(new RenderError('busy', 'the server is shutting down'));
    if (this.queue.length >= this.opts.maxQueue) return Promise.reject(new RenderError('busy', 'too many page images are being rendered; try again shortly'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, bytes, page, width, resolve, reject });
      void this.pump();
    });
  }

  /** Ends the thread; the running render and queued ones are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const running = this.running;
    this.running = null;
    for (const job of [...(running ? [running] : []), ...this.queue.splice(0)]) {
      clearTimeout(job.timer);
      job.reject(new RenderError('busy', 'the server is shutting down'));
    }
    const t = this.thread;
    this.thread = null;
    if (t) await t.terminate();
  }

  private start(): Promise<void> {
    const thread = new Worker(THREAD_FILE, { resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb } });
    this.thread = thread;
    thread.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      thread.once('message', () => resolve());
      thread.once('error', reject);
    });
    thread.on('message', (msg: { id?: number; page?: RenderedPage; error?: { code: string; message: string } }) => {
      const job = this.running;
      if (!job || msg.id !== job.id) return;
      clearTimeout(job.timer);
      this.running = null;
      if (msg.page) job.resolve({ ...msg.page, png: Buffer.from(msg.page.png.buffer, msg.page.png.byteOffset, msg.page.png.byteLength) });
      else job.reject(new RenderError(msg.error?.code ?? 'extraction_failed', msg.error?.message ?? 'the page could not be rendered'));
      void this.pump();
    });
    thread.on('error', (err: Error & { code?: string }) => this.lose(thread, err.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? new RenderError('resource_limit', `rendering the page needed more than ${this.opts.heapMb} MB`)
      : new RenderError('extraction_failed', `the rendering thread failed: ${err.message}`)));
    thread.on('exit', () => this.lose(thread, new RenderError('extraction_failed', 'the rendering thread stopped')));
    return this.ready;
  }

  /** The thread died or was ended: fail its job, start afresh for the next. */
  private lose(thread: Worker, err: RenderError): void {
    if (this.thread !== thread) return;
    this.thread = null;
    const job = this.running;
    this.running = null;
    if (job) {
      clearTimeout(job.timer);
      job.reject(err);
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    try {
      if (!this.thread) await this.start();
      else await this.ready;
    } catch (err) {
      // The thread's error handler may already have failed this job and moved on to the next.
      if (this.running !== job) return;
      this.running = null;
      job.reject(new RenderError('extraction_failed', `the rendering thread did not start: ${(err as Error).message}`));
      void this.pump();
      return;
    }
    if (this.running !== job || !this.thread) return;
    const thread = this.thread!;
    job.timer = setTimeout(() => {
      if (this.running !== job) return;
      this.lose(thread, new RenderError('timeout', `rendering the page took longer than ${this.opts.timeoutMs} ms`));
      void thread.terminate();
    }, this.opts.timeoutMs);
    job.timer.unref();
    thread.postMessage({ id: job.id, bytes: job.bytes, page: job.page, width: job.width, limits: this.opts.limits });
  }
}

/**
 * One extraction slot: a child process that runs one document at a time, so that the operating
 * system bounds its memory and takes all of it back when the child ends (the way Apache Tika
 * isolates its parsers). The parent polls the child's RSS while a document runs and kills the
 * child above the limit; a time limit or a shutdown kills it too. `pool.ts` replaces dead slots.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ExtractTask, RenderResult, RenderTask, TaskMessage, TaskRequest, TaskResult } from './task.js';
import { sleep } from '../domain/time.js';
import type { ProcessingError } from '../domain/errors.js';

/** How often the RSS of a busy child is read: a read of /proc costs ~20 µs. */
const RSS_POLL_MS = 50;
/** A child that has not loaded the engine by then is taken for hung (the load takes 1–5 s). */
const START_TIMEOUT_MS = 120_000;
/**
 * How much bytecode a function runs before V8 optimises it (V8's default is 66 KB). At the
 * default, pdf.js's content-stream and font parsers, functions of tens of KB, are optimised and
 * dropped again dozens of times a process (about 1,900 optimising compiles over 27 report PDFs),
 * which on one core costs about as much CPU as the extraction itself. At 4 MB only code that
 * stays hot is optimised: born-digital reports and invoices take about half the CPU (figures in
 * docs/benchmarks.md, "Where a PDF's time goes"); pages read by OCR cost the same.
 */
const INTERRUPT_BUDGET = 4 * 1024 * 1024;

export interface SlotLimits {
  /** V8 heap limit of the child (`--max-old-space-size`). */
  heapMb: number;
  /** RSS above which a running child is killed. */
  maxRssMb: number;
  /** Time limit of one document. */
  timeoutMs: number;
}

/** How one run ended. Every kind but `done` leaves the child dead. */
export type SlotRun<R = TaskResult> =
  | { kind: 'done'; result: R }
  | { kind: 'timeout' }
  | { kind: 'rss'; rssMb: number }
  | { kind: 'crashed'; outOfMemory: boolean; detail: string }
  | { kind: 'aborted' };

/**
 * What a run that gave no answer means, as a processing error (API.md §4) of `what` the child did
 * (`extraction`, `rendering`): the same limits and codes for a document's extraction and a page's
 * render.
 */
export function runFailure(run: Exclude<SlotRun<unknown>, { kind: 'done' } | { kind: 'aborted' }>, limits: SlotLimits, what: string): ProcessingError {
  switch (run.kind) {
    case 'timeout':
      return { code: 'timeout', message: `${what} exceeded the ${limits.timeoutMs} ms time limit` };
    case 'rss':
      return { code: 'resource_limit', message: `${what} used ${Math.round(run.rssMb)} MB of memory; the limit is ${limits.maxRssMb} MB` };
    case 'crashed':
      return run.outOfMemory
        ? { code: 'resource_limit', message: `${what} ran out of memory (heap limit ${limits.heapMb} MB; ${run.detail})` }
        : { code: 'extraction_failed', message: `the ${what} process died (${run.detail})` };
  }
}

/** Memory figures of a process in MB from /proc (Linux); null elsewhere or once it is gone. */
export function processMemory(pid: number): { rssMb: number; peakRssMb: number } | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  const rss = kb('VmRSS');
  if (!Number.isFinite(rss)) return null;
  return { rssMb: rss / 1024, peakRssMb: kb('VmHWM') / 1024 };
}

export class Slot {
  /** Resolves once the child has loaded the engine; rejects when it dies or hangs first. */
  readonly ready: Promise<void>;
  /** Documents this child has finished. */
  documents = 0;
  private child: ChildProcess | null = null;
  private exited = false;
  private nextId = 1;

  /** Starts a child running `script` (see `childEntry`) with `args`. */
  constructor(
    script: Promise<string>,
    private readonly limits: SlotLimits,
    private readonly args: string[] = [],
  ) {
    this.ready = script.then((file) => this.start(file));
    // Nobody may be waiting yet; the pool looks at `ready` before every run.
    this.ready.catch(() => {});
  }

  private start(script: string): Promise<void> {
    if (this.exited) return Promise.reject(new Error('the extraction process was ended before it started'));
    const child = fork(script, this.args, {
      execArgv: [`--max-old-space-size=${this.limits.heapMb}`, `--interrupt-budget=${INTERRUPT_BUDGET}`],
      // Buffers cross as bytes, not as JSON arrays of numbers.
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    child.once('exit', () => {
      this.exited = true;
    });
    // A failed spawn or send is an 'error' event, which would end this process unheard: the
    // child is taken for dead, and its run or start reports it.
    child.on('error', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new Error(`the extraction process did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      const onMessage = (msg: TaskMessage) => {
        if (msg.type !== 'ready') return;
        done();
        resolve();
      };
      const onExit = (code: number | null, signal: string | null) => {
        done();
        reject(new Error(`the extraction process exited while starting (${signal ?? `code ${code}`})`));
      };
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The child's memory now and at its peak, in MB (null once it is gone). */
  memory(): { rssMb: number; peakRssMb: number } | null {
    return this.child?.pid === undefined || this.exited ? null : processMemory(this.child.pid);
  }

  /** Runs one document; never rejects. Call only after `ready` resolved, one run at a time. */
  run(task: ExtractTask, signal?: AbortSignal): Promise<SlotRun> {
    return this.exchange<TaskResult>((id) => ({ id, task }), signal);
  }

  /** Renders one page image, under the same limits as a document; never rejects. */
  render(task: RenderTask, signal?: AbortSignal): Promise<SlotRun<RenderResult>> {
    return this.exchange<RenderResult>((id) => ({ id, render: task }), signal);
  }

  private exchange<R>(request: (id: number) => TaskRequest, signal?: AbortSignal): Promise<SlotRun<R>> {
    const id = this.nextId++;
    const child = this.child;
    if (!child) return Promise.resolve({ kind: 'crashed', outOfMemory: false, detail: 'not started' });
    return new Promise<SlotRun<R>>((resolve) => {
      let settled = false;
      const finish = (run: SlotRun<R>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(poll);
        signal?.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (run.kind !== 'done') this.kill();
        resolve(run);
      };
      const onMessage = (msg: TaskMessage) => {
        if (msg.type === 'result' && msg.id === id) finish({ kind: 'done', result: msg.result as R });
      };
      const onExit = (code: number | null, sig: string | null) => {
        // V8 aborts the process when the heap limit is reached (SIGABRT, or exit code 134 through
        // a shell); SIGKILL that we did not send is the kernel's OOM killer.
        const outOfMemory = sig === 'SIGABRT' || sig === 'SIGKILL' || code === 134;
        finish({ kind: 'crashed', outOfMemory, detail: sig ?? `exit code ${code}` });
      };
      const onAbort = () => finish({ kind: 'aborted' });
      const timer = setTimeout(() => finish({ kind: 'timeout' }), this.limits.timeoutMs);
      const poll = setInterval(() => {
        const mem = this.memory();
        if (mem && mem.rssMb > this.limits.maxRssMb) finish({ kind: 'rss', rssMb: mem.rssMb });
      }, RSS_POLL_MS);
      child.on('message', onMessage);
      child.on('exit', onExit);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.exited) return onExit(child.exitCode, child.signalCode);
      child.send(request(id), (err) => {
        if (err) finish({ kind: 'crashed', outOfMemory: false, detail: `send failed: ${err.message}` });
      });
    });
  }

  /** Ends the child at once: nothing it holds needs saving. */
  kill(): void {
    if (this.exited) return;
    if (this.child) this.child.kill('SIGKILL');
    else this.exited = true;
  }

  /** Ends the child and waits (at most `waitMs`) until it is gone. */
  async close(waitMs = 2000): Promise<void> {
    const child = this.child;
    if (this.exited || !child) return this.kill();
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.kill();
    const waited = new AbortController();
    await Promise.race([gone, sleep(waitMs, waited.signal)]);
    waited.abort();
  }
}

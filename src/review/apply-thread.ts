/**
 * The script of the thread that applies corrections (`applyCorrection`), one at a time: a job in,
 * its answer or its error out. Started by `src/api/correction-thread.ts`.
 */
import { parentPort } from 'node:worker_threads';
import { applyCorrection, warmUp, type ApplyAnswer, type ApplyJob } from './apply.js';

/** Parent → thread. */
export interface ApplyRequest {
  id: number;
  job: ApplyJob;
}

/** Thread → parent: `ready` once loaded, then the answer of each job, or the error that ended it. */
export type ApplyReply = { ready: true } | { id: number; answer: ApplyAnswer } | { id: number; error: string };

parentPort?.on('message', ({ id, job }: ApplyRequest) => {
  let reply: ApplyReply;
  try {
    reply = { id, answer: applyCorrection(job) };
  } catch (err) {
    reply = { id, error: String((err as Error)?.stack ?? err) };
  }
  parentPort!.postMessage(reply);
});

// Compiled before the first job, whose time limit is not the thread's start.
warmUp();
parentPort?.postMessage({ ready: true } satisfies ApplyReply);

/**
 * `tablemill status BATCH [--watch]` and `tablemill process BATCH`. With --watch the batch is
 * long-polled (`waitUntilDone`: `?wait`, Retry-After honoured) with a progress bar on stderr
 * until `all_done`; stdout gets the batch's JSON either way.
 */
import type { Batch, TablemillClient } from '@tablemill/client';
import { note, progressBar } from './progress.js';

const finished = (b: Batch) => b.counts.succeeded + b.counts.failed + b.counts.canceled;
const countsLine = (b: Batch) => `${finished(b)}/${b.document_count} done (${b.counts.succeeded} succeeded, ${b.counts.failed} failed, ${b.counts.processing} processing, ${b.counts.queued} queued)`;

/** Waits for `all_done`, showing progress: a bar on a terminal, a line per change otherwise. */
export async function watchBatch(client: TablemillClient, name: string): Promise<Batch> {
  let bar: ReturnType<typeof progressBar> | null = null;
  let lastLine = '';
  try {
    return await client.waitUntilDone(name, {
      onStatus: (b) => {
        bar ??= progressBar(`${name} {bar} {value}/{total} documents | {succeeded} succeeded, {failed} failed | {duration_formatted}`, b.document_count, { succeeded: 0, failed: 0 });
        bar.setTotal(b.document_count);
        bar.update(finished(b), { succeeded: b.counts.succeeded, failed: b.counts.failed });
        const line = countsLine(b);
        if (!process.stderr.isTTY && line !== lastLine) note(`${name}: ${line}`);
        lastLine = line;
      },
    });
  } finally {
    (bar as ReturnType<typeof progressBar> | null)?.stop();
  }
}

/** `status`: the batch JSON on stdout. */
export async function status(client: TablemillClient, name: string, watch: boolean): Promise<number> {
  const batch = watch ? await watchBatch(client, name) : await client.getBatch(name);
  process.stdout.write(JSON.stringify(batch) + '\n');
  return 0;
}

/** `process`: submits the batch; the answer's JSON on stdout. */
export async function submit(client: TablemillClient, name: string, embedded: 'use' | 'ignore' = 'use'): Promise<number> {
  const res = await client.process(name, embedded === 'ignore' ? { embedded } : {});
  process.stdout.write(JSON.stringify(res) + '\n');
  note(`submitted ${res.submitted} documents of batch ${name}`);
  return 0;
}

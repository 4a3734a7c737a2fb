/**
 * `tablemill convert PATH... --out FILE [--batch NAME]`: upload, process, wait and download in
 * one step. The format comes from FILE's extension. The exit code is 1, with the failed files
 * named on stderr, when any document failed; FILE is written either way.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import type { TablemillClient } from '@tablemill/client';
import { EXIT, UsageError } from './exit.js';
import { note } from './progress.js';
import { download, FORMATS, type Format } from './results.js';
import { watchBatch } from './status.js';
import { filesOf, uploadFiles } from './upload.js';

function formatOf(out: string): Format {
  const ext = extname(out).slice(1).toLowerCase();
  if (!(FORMATS as readonly string[]).includes(ext)) throw new UsageError(`--out must end in .${FORMATS.join(', .')} (the format), got ${JSON.stringify(out)}`);
  return ext as Format;
}

/**
 * A new batch's name after what is converted: the folder's or the first file's name (without its
 * extension, made a valid batch name), and 4 hex digits so a second run makes a second batch.
 */
export function batchNameFor(paths: string[]): string {
  const base = basename(resolve(paths[0] ?? '.')).replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const slug = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 60).replace(/[-.]+$/, '');
  return `${slug || 'convert'}-${randomBytes(2).toString('hex')}`;
}

export async function run(client: TablemillClient, paths: string[], opts: { out: string; batch?: string; embedded?: 'use' | 'ignore' }): Promise<number> {
  const format = formatOf(opts.out);
  const files = await filesOf(paths);
  const batch = opts.batch ?? batchNameFor(paths);
  await uploadFiles(client, batch, files);
  await client.process(batch, opts.embedded === 'ignore' ? { embedded: 'ignore' as const } : {});
  const done = await watchBatch(client, batch);
  await writeFile(opts.out, await download(client, batch, format));
  note(`batch ${batch}: ${done.counts.succeeded} succeeded, ${done.counts.failed} failed; wrote ${opts.out}`);
  if (done.counts.failed === 0) return EXIT.ok;
  const failed = (await client.results(batch)).filter((d) => d.status === 'failed');
  for (const d of failed) note(`failed: ${d.filename}: ${d.processing_error?.code}: ${d.processing_error?.message}`);
  return EXIT.documentsFailed;
}

/**
 * `tablemill convert PATH... --out FILE [--batch NAME]`: upload, process, wait and download in
 * one step. The format comes from FILE's extension. The exit code is 1, with the failed files
 * named on stderr, when any document failed; FILE is written either way.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
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

export async function run(client: TablemillClient, paths: string[], opts: { out: string; batch?: string }): Promise<number> {
  const format = formatOf(opts.out);
  const files = await filesOf(paths);
  const batch = opts.batch ?? `convert-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}-${randomBytes(3).toString('hex')}`;
  await uploadFiles(client, batch, files);
  await client.process(batch);
  const done = await watchBatch(client, batch);
  await writeFile(opts.out, await download(client, batch, format));
  note(`batch ${batch}: ${done.counts.succeeded} succeeded, ${done.counts.failed} failed; wrote ${opts.out}`);
  if (done.counts.failed === 0) return EXIT.ok;
  const failed = (await client.results(batch)).filter((d) => d.status === 'failed');
  for (const d of failed) note(`failed: ${d.filename}: ${d.processing_error?.code}: ${d.processing_error?.message}`);
  return EXIT.documentsFailed;
}

/**
 * `tablemill upload BATCH PATH...`: sends files and folders (recursively) to a batch, one file
 * per request, a few at once, with a progress bar of files and bytes on stderr. Each request
 * carries an `Idempotency-Key` made from the batch, the filename and the file's sha256, so a
 * re-run after an interruption replays the uploads that had landed instead of adding them twice.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { TablemillApiError, type Document, type TablemillClient } from '@tablemill/client';
import { collectFiles, noteSkipped, type LocalFile } from './collect.js';
import { UsageError } from './exit.js';
import { formatBytes, note, progressBar } from './progress.js';
import { backoffMs, sleep } from '../domain/time.js';

/** Requests in flight: enough to overlap the server's fsync with the next file's transfer. */
const PARALLEL = 4;
const ATTEMPTS = 6;

async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** The Idempotency-Key of one file's upload into a batch. */
export async function uploadKey(batch: string, file: LocalFile): Promise<string> {
  const digest = createHash('sha256').update(`${batch}\n${basename(file.path)}\n${await fileSha256(file.path)}`).digest('hex');
  return `tm-upload-${digest.slice(0, 48)}`;
}

/**
 * Uploads one file, retrying what a re-run can meet: 409 while a killed run's request still holds
 * the key, 429 (its Retry-After), 5xx and network errors, with growing pauses.
 */
async function uploadOne(client: TablemillClient, batch: string, file: LocalFile): Promise<Document> {
  const idempotencyKey = await uploadKey(batch, file);
  for (let attempt = 1; ; attempt++) {
    try {
      return (await client.upload(batch, [{ path: file.path }], { idempotencyKey })).documents[0];
    } catch (err) {
      const status = err instanceof TablemillApiError ? err.status : 0;
      const retry = err instanceof TypeError || status === 409 || status === 429 || status >= 500;
      if (!retry || attempt >= ATTEMPTS) throw err;
      const retryAfter = err instanceof TablemillApiError ? err.retryAfterS : null;
      await sleep(retryAfter !== null ? retryAfter * 1000 : backoffMs(attempt, 500));
    }
  }
}

/** Uploads `files` into `batch` with a progress bar; the documents in the files' order. */
export async function uploadFiles(client: TablemillClient, batch: string, files: LocalFile[]): Promise<Document[]> {
  const totalBytes = files.reduce((s, f) => s + f.size, 0);
  const bar = progressBar(`upload ${batch} {bar} {files} files | {sent} of {size} | {eta_formatted}`, totalBytes, { files: `0/${files.length}`, sent: '0 B', size: formatBytes(totalBytes) });
  const docs: Document[] = new Array(files.length);
  let next = 0;
  let done = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      docs[i] = await uploadOne(client, batch, files[i]);
      done++;
      bytes += files[i].size;
      bar.update(bytes, { files: `${done}/${files.length}`, sent: formatBytes(bytes) });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, files.length) }, worker));
  } finally {
    bar.stop();
  }
  note(`uploaded ${files.length} files (${formatBytes(totalBytes)}) to batch ${batch}`);
  return docs;
}

/** The files of `paths`, refusing an empty selection. */
export async function filesOf(paths: string[]): Promise<LocalFile[]> {
  const { files, skipped } = await collectFiles(paths).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? new UsageError(`no such file or folder: ${err.path}`) : err;
  });
  noteSkipped(skipped);
  if (files.length === 0) throw new UsageError('no PDF or image files found in the given paths');
  return files;
}

/** `upload`: prints `ID<TAB>PATH` per document on stdout. */
export async function run(client: TablemillClient, batch: string, paths: string[]): Promise<number> {
  const files = await filesOf(paths);
  const docs = await uploadFiles(client, batch, files);
  process.stdout.write(docs.map((d, i) => `${d.id}\t${files[i].path}\n`).join(''));
  return 0;
}

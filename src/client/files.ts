/**
 * What `upload` accepts: a path on disk, bytes, a Blob or a stream, each with a filename. A path
 * becomes a file-backed Blob (`fs.openAsBlob`), so large files are not read into memory first.
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';

export type UploadSource =
  /** A file on disk; the filename defaults to its base name. */
  | { path: string; filename?: string }
  | { filename: string; data: Uint8Array | Blob; contentType?: string }
  | { filename: string; stream: Readable | ReadableStream<Uint8Array>; contentType?: string };

/** One upload part, ready for FormData. */
export interface UploadPart {
  filename: string;
  blob: Blob;
}

async function streamBytes(stream: Readable | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as AsyncIterable<Uint8Array | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The part for one source. */
export async function toPart(src: UploadSource): Promise<UploadPart> {
  if ('path' in src) return { filename: src.filename ?? basename(src.path), blob: await openAsBlob(src.path) };
  const type = src.contentType ?? 'application/octet-stream';
  if ('stream' in src) return { filename: src.filename, blob: new Blob([await streamBytes(src.stream)], { type }) };
  return { filename: src.filename, blob: src.data instanceof Blob ? src.data : new Blob([src.data], { type }) };
}

/** The multipart body of an upload request (parts named `file`, API.md §3). */
export async function uploadForm(sources: UploadSource[]): Promise<FormData> {
  const form = new FormData();
  for (const src of sources) {
    const part = await toPart(src);
    form.append('file', part.blob, part.filename);
  }
  return form;
}

/**
 * Node's upload sources: a path on disk becomes a file-backed Blob (`fs.openAsBlob`), so large
 * files are not read into memory first; a Node `Readable` is read into one Blob.
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import type { UploadSource as CoreUploadSource } from './core.js';

/** What the Node client's `upload` accepts: a path, bytes, a Blob, or a Node or web stream. */
export type UploadSource =
  /** A file on disk; the filename defaults to its base name. */
  | { path: string; filename?: string }
  | CoreUploadSource
  | { filename: string; stream: Readable; contentType?: string };

async function streamBytes(stream: Readable): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as AsyncIterable<Uint8Array | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The same source in the form the core client uploads (bytes, a Blob or a web stream). */
export async function toCoreSource(src: UploadSource): Promise<CoreUploadSource> {
  if ('path' in src) return { filename: src.filename ?? basename(src.path), data: await openAsBlob(src.path) };
  if ('stream' in src && !(src.stream instanceof ReadableStream)) return { filename: src.filename, data: await streamBytes(src.stream), contentType: src.contentType };
  return src as CoreUploadSource;
}

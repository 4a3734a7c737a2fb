/**
 * `@tablemill/client` for Node (≥ 20): the core client (core.ts) plus uploads from paths and Node
 * streams, bytes answered as Buffers, and `verifyWebhook` (node:crypto). Browsers import
 * `@tablemill/client/core`, which has everything but these.
 */
import { TablemillClient as CoreClient, type ExportFormat, type RequestOptions } from './core.js';
import { toCoreSource, type UploadSource } from './files.js';
import type { UploadResponse } from './types.js';

export * from './core.js';
export type { UploadSource } from './files.js';
export { verifyWebhook, WebhookVerificationError } from './verify.js';
export type { Batch as BatchView, Document as DocumentView, DocumentResult as DocumentResultView } from './types.js';

const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A client bound to one server and one API key. */
export class TablemillClient extends CoreClient {
  /** Uploads files into a batch (created if needed); does not start processing. */
  override async upload(batchName: string, files: UploadSource[], opts: RequestOptions = {}): Promise<UploadResponse> {
    return super.upload(batchName, await Promise.all(files.map(toCoreSource)), opts);
  }

  /** The original bytes of a document. */
  override async documentFile(id: string): Promise<{ bytes: Buffer; contentType: string | null; disposition: string | null }> {
    const file = await super.documentFile(id);
    return { ...file, bytes: buffer(file.bytes) };
  }

  /** The whole batch exported as `csv`, `xlsx`, `ndjson` or `zip` (API.md §4a), as bytes. */
  override async export(batchName: string, format: ExportFormat): Promise<Buffer> {
    return buffer(await super.export(batchName, format));
  }
}

/**
 * Original uploads in an S3-compatible object store (AWS S3, MinIO, Ceph, s3rver), selected by
 * `TABLEMILL_BLOBS=s3://BUCKET/PREFIX`. The database keeps only rows; every API and worker
 * process reaches the same bucket, so hosts need no shared disk and PostgreSQL holds no bytes.
 */
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BlobNotFoundError, BlobUnavailableError, type BlobStore, type PutResult, type S3BlobsConfig } from './types.js';
import { PutTally, isBlobKey, newBlobKey } from './keys.js';

/**
 * 5 MiB parts (S3's minimum), two in flight: a 25 MB upload holds at most three parts in memory,
 * never the whole file, and a file under one part is a single PUT.
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** Socket errors and answers that mean "the store is not there now", not "this blob is bad". */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Maps an SDK error to ours: not found, unavailable (503 at the API), or itself. */
function classify(err: unknown, key: string): Error {
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; message?: string };
  const status = e?.$metadata?.httpStatusCode;
  if (e?.name === 'NoSuchKey' || e?.name === 'NotFound' || status === 404) {
    // A missing bucket is the operator's problem, not a missing file.
    if (e?.name === 'NoSuchBucket') return new BlobUnavailableError(`bucket not found: ${e.message ?? ''}`, err);
    return new BlobNotFoundError(key);
  }
  if (
    (status !== undefined && status >= 500) ||
    (e?.code && UNREACHABLE.has(e.code)) ||
    e?.name === 'TimeoutError' ||
    e?.name === 'NoSuchBucket'
  ) {
    return new BlobUnavailableError(`object store unreachable: ${e?.message ?? e?.code ?? String(err)}`, err);
  }
  return err as Error;
}

/** The SDK client for `cfg`: path-style whenever an endpoint is given (MinIO, Ceph, s3rver need it). */
export function s3Client(cfg: S3BlobsConfig): S3Client {
  const opts: S3ClientConfig = {
    region: cfg.region,
    forcePathStyle: cfg.endpoint !== null,
    // Checksums only where the API requires them: S3-compatible servers that predate the
    // SDK's default CRC32 trailers refuse those uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  };
  if (cfg.endpoint) opts.endpoint = cfg.endpoint;
  if (cfg.credentials) opts.credentials = cfg.credentials;
  return new S3Client(opts);
}

export class S3BlobStore implements BlobStore {
  private readonly prefix: string;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    prefix: string,
  ) {
    this.prefix = prefix === '' ? '' : `${prefix.replace(/\/+$/, '')}/`;
  }

  static fromConfig(cfg: S3BlobsConfig): S3BlobStore {
    return new S3BlobStore(s3Client(cfg), cfg.bucket, cfg.prefix);
  }

  /** The object key of blob `key`. */
  objectKey(key: string): string {
    return this.prefix + key;
  }

  async put(source: Readable | AsyncIterable<Uint8Array>, opts: { maxBytes?: number } = {}): Promise<PutResult> {
    const key = newBlobKey();
    const tally = new PutTally(opts.maxBytes);
    let sourceError: unknown = null;
    // Counting and hashing happen as the bytes pass on to the SDK; the limit throws inside the
    // body, so the SDK never completes the object (a multipart upload is aborted).
    const body = Readable.from(
      (async function* () {
        try {
          yield* tally.read(source as AsyncIterable<unknown>);
        } catch (err) {
          sourceError = err;
          throw err;
        }
      })(),
      { objectMode: false },
    );
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: body, ContentType: 'application/octet-stream' },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    await upload.done().catch(
      async (err: unknown) => {
        body.destroy();
        // A single PUT may have landed just before a later failure; a multipart one was aborted.
        await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })).catch(() => {});
        // Our refusal or the client's broken body, not whatever the SDK's clean-up then said
        // (a server without AbortMultipartUpload answers 405; its parts wait for the bucket's
        // lifecycle rule, and are never an object).
        if (sourceError) throw sourceError;
        throw classify(err, key);
      },
    );
    // The store must hold exactly the bytes that were hashed: a size mismatch is a failed put.
    const stored = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })).catch((err) => {
      throw classify(err, key);
    });
    if (stored.ContentLength !== tally.size) {
      await this.delete(key).catch(() => {});
      throw new Error(`object store kept ${stored.ContentLength} bytes of ${tally.size} for blob ${key}`);
    }
    return tally.result(key);
  }

  async get(key: string): Promise<Buffer> {
    const stream = await this.stream(key);
    const parts: Buffer[] = [];
    try {
      for await (const c of stream) parts.push(c as Buffer);
    } catch (err) {
      throw classify(err, key);
    }
    return Buffer.concat(parts);
  }

  async stream(key: string): Promise<Readable> {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    try {
      // Resolves once the headers are in, so a missing blob rejects here, not mid-response.
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      if (!(res.Body instanceof Readable)) throw new Error('object store answered without a body stream');
      return res.Body;
    } catch (err) {
      throw classify(err, key);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) return;
    // S3 answers 204 for a key that is not there: deleting twice is fine.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })).catch((err) => {
      throw classify(err, key);
    });
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

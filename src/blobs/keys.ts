/** Blob keys (128 random bits in hex, generated here, never taken from user input) and the tally every put keeps. */
import { createHash } from 'node:crypto';
import { randomHex } from '../domain/names.js';
import { BlobTooLargeError, type PutResult } from './types.js';

const KEY_RE = /^[0-9a-f]{32}$/;

/** A new, unguessable blob key. */
export function newBlobKey(): string {
  return randomHex(16);
}

/** True for keys `newBlobKey` could have made; anything else (`../x`) is treated as not found. */
export function isBlobKey(key: string): boolean {
  return KEY_RE.test(key);
}

/** Up to 4 KiB kept from the start of a put, for sniffing the type without a second read. */
export const HEAD_BYTES = 4096;

/** Collects the first `HEAD_BYTES` bytes seen of a stream. */
export class HeadCollector {
  private parts: Buffer[] = [];
  private size = 0;

  add(chunk: Buffer): void {
    if (this.size >= HEAD_BYTES) return;
    const part = chunk.subarray(0, HEAD_BYTES - this.size);
    this.parts.push(Buffer.from(part));
    this.size += part.length;
  }

  head(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }
}

/** Normalises stream chunks (strings from a text-mode stream included) to Buffers. */
export function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError('blob source must yield bytes');
}

/** Counts, hashes and keeps the head of the bytes of one put, refusing any past `maxBytes`. */
export class PutTally {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly head = new HeadCollector();

  constructor(private readonly maxBytes?: number) {}

  /** The chunks of `source` as Buffers, tallied; throws `BlobTooLargeError` past the limit. */
  async *read(source: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
    for await (const raw of source) yield this.add(raw);
  }

  /** One chunk of the source as a Buffer, tallied; throws `BlobTooLargeError` past the limit. */
  add(raw: unknown): Buffer {
    const chunk = toBuffer(raw);
    this.size += chunk.length;
    if (this.maxBytes !== undefined && this.size > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    this.hash.update(chunk);
    this.head.add(chunk);
    return chunk;
  }

  /** The put's result once `read` has finished. */
  result(key: string): PutResult {
    return { key, size: this.size, sha256: this.hash.digest('hex'), head: this.head.head() };
  }
}

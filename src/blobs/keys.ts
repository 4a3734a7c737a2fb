/** Blob keys: 128 random bits in hex, generated here and never taken from user input. */
import { randomBytes } from 'node:crypto';

const KEY_RE = /^[0-9a-f]{32}$/;

/** A new, unguessable blob key. */
export function newBlobKey(): string {
  return randomBytes(16).toString('hex');
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

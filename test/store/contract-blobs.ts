/** One BlobStore contract, run against the local folder and the PostgreSQL tables. */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobTooLargeError, type BlobStore } from '../../src/blobs/types.js';

export interface BlobHarness {
  open(): Promise<BlobStore>;
  /** How many blobs (and partial blobs or temp files) the backing storage holds. */
  leftovers(): Promise<number>;
}

/** A source yielding `data` in uneven chunks, as a socket would. */
function chunked(data: Buffer, sizes = [1, 7, 4095, 65_536, 1_000_003]): AsyncIterable<Uint8Array> {
  return (async function* () {
    let at = 0;
    for (let i = 0; at < data.length; i++) {
      const n = sizes[i % sizes.length];
      yield new Uint8Array(data.subarray(at, at + n));
      at += n;
    }
  })();
}

async function drain(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function blobContract(name: string, h: BlobHarness): void {
  describe(`BlobStore contract: ${name}`, () => {
    it('round-trips bytes exactly, with size, sha256 and head', async () => {
      const s = await h.open();
      const data = randomBytes(2.5 * 1024 * 1024 + 17); // crosses the PG store's 1 MiB chunks
      const put = await s.put(chunked(data), { maxBytes: data.length });
      expect(put.key).toMatch(/^[0-9a-f]{32}$/);
      expect(put.size).toBe(data.length);
      expect(put.sha256).toBe(sha(data));
      expect(put.head.equals(data.subarray(0, 4096))).toBe(true);
      expect((await s.get(put.key)).equals(data)).toBe(true);
      expect((await drain(await s.stream(put.key))).equals(data)).toBe(true);

      const small = await s.put(Readable.from([Buffer.from('%PDF-1.7 tiny')]));
      expect(small.head.toString()).toBe('%PDF-1.7 tiny');
      expect((await s.get(small.key)).toString()).toBe('%PDF-1.7 tiny');
      const empty = await s.put(Readable.from([]));
      expect(empty).toMatchObject({ size: 0, sha256: sha(Buffer.alloc(0)) });
      expect((await s.get(empty.key)).length).toBe(0);
      expect(await h.leftovers()).toBe(3);

      await s.delete(put.key);
      await s.delete(put.key); // idempotent
      await expect(s.get(put.key)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(s.stream(put.key)).rejects.toBeInstanceOf(BlobNotFoundError);
      for (const k of [small.key, empty.key]) await s.delete(k);
      expect(await h.leftovers()).toBe(0);
      await s.close();
    });

    it('refuses a blob over maxBytes while streaming and leaves nothing behind', async () => {
      const s = await h.open();
      const data = randomBytes(300_000);
      await expect(s.put(chunked(data), { maxBytes: 299_999 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await h.leftovers()).toBe(0);
      const exact = await s.put(chunked(data), { maxBytes: 300_000 });
      expect(exact.size).toBe(300_000);
      await s.delete(exact.key);
      await s.close();
    });

    it('a source that fails mid-way rejects and leaves nothing behind', async () => {
      const s = await h.open();
      const failing = (async function* () {
        yield new Uint8Array(randomBytes(10_000));
        throw new Error('client went away');
      })();
      await expect(s.put(failing)).rejects.toThrow('client went away');
      expect(await h.leftovers()).toBe(0);
      await s.close();
    });

    it('keys that are not ours are not found (no path tricks)', async () => {
      const s = await h.open();
      for (const k of ['../../etc/passwd', 'ab', '0'.repeat(32), '']) {
        await expect(s.get(k)).rejects.toBeInstanceOf(BlobNotFoundError);
      }
      await s.delete('../../etc/passwd');
      await s.close();
    });
  });
}

// The S3 blob store over real HTTP against s3rver: a 25 MB file through the API byte for byte
// (multipart upload, streamed download), a refused multipart upload leaving no object, and an
// unreachable store answering 503 `unavailable`.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/blobs/s3.js';
import { BlobNotFoundError, BlobTooLargeError, BlobUnavailableError } from '../../src/blobs/types.js';
import { loadConfig } from '../../src/config.js';
import { TablemillClient } from '@tablemill/client';
import { createKeyCli, serve, tempDataDir, type ServeProcess } from '../e2e/server.js';
import { startS3rver, type S3Server } from './s3rver.js';

const MB = 1000 * 1000;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Bytes in 1 MiB pieces, as a socket would deliver them. */
async function* pieces(data: Buffer): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += 1 << 20) yield data.subarray(at, at + (1 << 20));
}

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3.close();
});

describe('S3 blob store', () => {
  it('a refused multipart upload (over maxBytes after two parts) leaves no object', async () => {
    const store = S3BlobStore.fromConfig(s3.config('refused'));
    const data = randomBytes(13 * MB);
    await expect(store.put(pieces(data), { maxBytes: 12 * MB })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await s3.count('refused')).toBe(0);
    const ok = await store.put(pieces(data), { maxBytes: 13 * MB });
    expect(ok).toMatchObject({ size: data.length, sha256: sha(data) });
    expect(await s3.count('refused')).toBe(1);
    await store.delete(ok.key);
    expect(await s3.count('refused')).toBe(0);
    await store.close();
  });

  it('an unreachable store rejects with BlobUnavailableError; a missing key is not found', async () => {
    const down = S3BlobStore.fromConfig({ ...s3.config('down'), endpoint: `http://127.0.0.1:${await closedPort()}` });
    await expect(down.put(pieces(randomBytes(1000)))).rejects.toBeInstanceOf(BlobUnavailableError);
    await expect(down.get('0'.repeat(32))).rejects.toBeInstanceOf(BlobUnavailableError);
    await down.close();
    const up = S3BlobStore.fromConfig(s3.config('down'));
    await expect(up.get('0'.repeat(32))).rejects.toBeInstanceOf(BlobNotFoundError);
    await up.close();
  });
});

describe('the API on S3 blobs (serve with TABLEMILL_BLOBS=s3://…)', () => {
  let server: ServeProcess | null = null;
  afterAll(async () => {
    await server?.stop();
  });

  it('a 25 MB upload and its download are the same bytes; the object is in the bucket; delete removes it', async () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), ...s3.env('api') };
    const key = createKeyCli(env, 'big');
    server = await serve(env, ['--no-workers']);
    const client = new TablemillClient(server.url, key);
    const data = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(25 * MB - 9)]);
    const up = await client.upload('big', [{ filename: 'big.pdf', data }]);
    expect(up.documents[0]).toMatchObject({ size_bytes: data.length, sha256: sha(data) });
    expect(await s3.count('api')).toBe(1);
    const file = await client.documentFile(up.documents[0].id);
    expect(file.bytes.length).toBe(data.length);
    expect(file.bytes.equals(data)).toBe(true);
    // The first DELETE cancels the queued document, the second deletes it and its object.
    for (let i = 0; i < 2; i++) await client.deleteDocument(up.documents[0].id);
    expect(await s3.count('api')).toBe(0);
  }, 120_000);

  it('answers 503 unavailable when the object store cannot be reached, and stores no row', async () => {
    const env = { TABLEMILL_DATA_DIR: tempDataDir(), ...s3.env('gone'), AWS_ENDPOINT_URL: `http://127.0.0.1:${await closedPort()}` };
    const key = createKeyCli(env, 'gone');
    const down = await serve(env, ['--no-workers']);
    try {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('%PDF-1.7\nhello')]), 'a.pdf');
      const res = await fetch(`${down.url}/v1/batches/gone/documents`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unavailable');
      const batch = await fetch(`${down.url}/v1/batches/gone`, { headers: { authorization: `Bearer ${key}` } });
      expect(batch.status).toBe(404);
    } finally {
      await down.stop();
    }
  }, 60_000);
});

it('loadConfig makes the store s3rver needs (path-style, its credentials)', () => {
  expect(loadConfig(s3.env('x')).blobs).toMatchObject({ bucket: s3.bucket, prefix: 'x', endpoint: s3.endpoint });
});

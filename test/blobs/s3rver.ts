/**
 * A real S3-compatible server for tests: `s3rver` (an HTTP server speaking the S3 REST API,
 * objects on disk) on a free port with one bucket, in the test's own process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { loadConfig, type S3BlobsConfig } from '../../src/config.js';

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The environment that points a Tablemill process (or `loadConfig`) at it, under `prefix`. */
  env(prefix: string): Record<string, string>;
  /** The blob config `loadConfig` makes of `env(prefix)`. */
  config(prefix: string): S3BlobsConfig;
  /** Objects under `prefix`. */
  count(prefix: string): Promise<number>;
  close(): Promise<void>;
}

export async function startS3rver(bucket = 'tablemill'): Promise<S3Server> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials; it checks the signature like S3 does.
  const env = (prefix: string) => ({
    TABLEMILL_BLOBS: `s3://${bucket}/${prefix}`,
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    endpoint,
    bucket,
    env,
    config: (prefix) => loadConfig(env(prefix)).blobs!,
    async count(prefix) {
      let n = 0;
      let token: string | undefined;
      do {
        const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/`, ContinuationToken: token }));
        n += r.KeyCount ?? 0;
        token = r.NextContinuationToken;
      } while (token);
      return n;
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

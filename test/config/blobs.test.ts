import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('TABLEMILL_BLOBS', () => {
  it('unset keeps originals in the store (null)', () => {
    expect(loadConfig({}).blobs).toBeNull();
  });

  it('s3://BUCKET/PREFIX with the SDK variables; an endpoint means path-style', () => {
    const c = loadConfig({ TABLEMILL_BLOBS: 's3://my-bucket/tm/originals/', AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' });
    expect(c.blobs).toEqual({ bucket: 'my-bucket', prefix: 'tm/originals', endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    // No keys: the SDK's own chain (profile, instance role); no region: us-east-1.
    expect(loadConfig({ TABLEMILL_BLOBS: 's3://b-1' }).blobs).toEqual({ bucket: 'b-1', prefix: '', endpoint: null, region: 'us-east-1', credentials: null });
  });

  it('refuses what it cannot use, naming the setting', () => {
    for (const [env, setting] of [
      [{ TABLEMILL_BLOBS: '/var/blobs' }, 'TABLEMILL_BLOBS'],
      [{ TABLEMILL_BLOBS: 's3://' }, 'TABLEMILL_BLOBS'],
      [{ TABLEMILL_BLOBS: 's3://Bad_Bucket/x' }, 'TABLEMILL_BLOBS'],
      [{ TABLEMILL_BLOBS: 's3://b-1', AWS_ENDPOINT_URL: 'minio:9000' }, 'AWS_ENDPOINT_URL'],
      [{ TABLEMILL_BLOBS: 's3://b-1', AWS_ACCESS_KEY_ID: 'only-the-id' }, 'AWS_ACCESS_KEY_ID'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(setting);
    }
  });
});

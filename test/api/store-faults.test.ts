// A full disk answers 507 insufficient_storage and an unreachable database 503 unavailable, each
// with Retry-After, on any route, /readyz included; rate-limit counters the store cannot keep
// refuse nothing for it: the limits are counted in the process meanwhile.
import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { BlobUnavailableError } from '../../src/blobs/types.js';
import { storeFault } from '../../src/store/faults.js';
import { toApiError } from '../../src/api/errors.js';
import { smallPdf } from '../e2e/fixtures.js';
import { multipart, openApi, type ApiHarness } from './harness.js';

const err = (props: Record<string, unknown>, message = 'boom') => Object.assign(new Error(message), props);

describe('store faults in the API', () => {
  let h: ApiHarness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('tells a full disk and an unreachable database from other errors', () => {
    for (const e of [err({ code: 'ENOSPC', syscall: 'write' }), err({ code: 'SQLITE_FULL' }, 'database or disk is full'), err({ code: '53100' }), err({ code: 'EDQUOT' }), new Error('outer', { cause: err({ code: 'ENOSPC' }) })]) {
      expect(storeFault(e)).toBe('storage_full');
    }
    // The S3 blob store wraps MinIO's full-disk answer (HTTP 507) in its BlobUnavailableError.
    const minioFull = Object.assign(new Error('Storage backend has reached its minimum free drive threshold.'), { name: 'XMinioStorageFull', $metadata: { httpStatusCode: 507 } });
    expect(storeFault(new BlobUnavailableError('object store unreachable', minioFull))).toBe('storage_full');
    expect(storeFault(new BlobUnavailableError('object store unreachable', { $metadata: { httpStatusCode: 507 } }))).toBe('storage_full');
    for (const e of [err({ code: 'ECONNREFUSED' }), err({ code: '57P01' }), err({ code: '08006' }), err({}, 'Connection terminated unexpectedly'), err({ code: 'SQLITE_BUSY' })]) {
      expect(storeFault(e)).toBe('unavailable');
    }
    // An unreachable object store stays the blob store's 503; a full one is 507.
    expect(toApiError(new BlobUnavailableError('object store unreachable', err({ code: 'ECONNREFUSED' })))).toMatchObject({ status: 503, details: { reason: 'blob_store' } });
    expect(toApiError(new BlobUnavailableError('object store unreachable', minioFull))).toMatchObject({ status: 507, code: 'insufficient_storage' });
    for (const e of [new Error('x'), err({ code: '23505' }), err({ code: 'ENOENT' }), null, 'text']) expect(storeFault(e)).toBeNull();
  });

  it('DELETE of a batch on a full disk: 507 with Retry-After; with the database away: 503 with Retry-After; the metric counts both', async () => {
    h = await openApi();
    const auth = { authorization: `Bearer ${await h.key('acme')}` };
    const store = h.deps.store;
    store.deleteBatch = async () => {
      throw err({ code: 'SQLITE_FULL' }, 'database or disk is full');
    };
    const full = await h.app.inject({ method: 'DELETE', url: '/v1/batches/b', headers: auth });
    expect(full.statusCode).toBe(507);
    expect(full.headers['retry-after']).toBe('30');
    expect(full.json().error.code).toBe('insufficient_storage');
    store.deleteBatch = async () => {
      throw err({ code: 'ECONNREFUSED' }, 'connect ECONNREFUSED 127.0.0.1:5432');
    };
    const away = await h.app.inject({ method: 'DELETE', url: '/v1/batches/b', headers: auth });
    expect(away.statusCode).toBe(503);
    expect(away.headers['retry-after']).toBe('2');
    expect(away.json().error).toMatchObject({ code: 'unavailable', details: { reason: 'database' } });
    const metrics = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('tablemill_store_faults_total{fault="storage_full",component="api"} 1');
    expect(metrics).toContain('tablemill_store_faults_total{fault="unavailable",component="api"} 1');
  });

  it('an upload whose insert fails after its commit keeps its files; one that fails before keeps none', async () => {
    h = await openApi();
    const auth = { authorization: `Bearer ${await h.key('acme')}` };
    const store = h.deps.store;
    const deleted: string[] = [];
    const del = h.deps.blobs.delete.bind(h.deps.blobs);
    h.deps.blobs.delete = async (key) => {
      deleted.push(key);
      return del(key);
    };
    const send = async (batch: string) => {
      const body = await multipart([{ name: 'a.pdf', bytes: await smallPdf(1) }, { name: 'b.pdf', bytes: await smallPdf(2) }]);
      return h!.app.inject({ method: 'POST', url: `/v1/batches/${batch}/documents`, payload: body.payload, headers: { ...body.headers, ...auth } });
    };
    // The rows commit, then the WAL fsync fails: the rows name the files, so the files stay.
    const insert = store.insertDocuments.bind(store);
    store.insertDocuments = async (...args) => {
      await insert(...args);
      throw err({ code: 'EIO', syscall: 'fsync' }, 'EIO: i/o error, fsync');
    };
    expect((await send('after')).statusCode).toBe(500);
    const account = await store.getOrCreateAccount('acme', 1);
    const batch = await store.getBatch(account.id, 'after');
    const kept = (await store.listBatchResults(account.id, batch!.id, { cursor: null, limit: 10 })).items;
    expect(kept).toHaveLength(2);
    for (const d of kept) expect((await h.deps.blobs.get(d.blob_key)).subarray(0, 5).toString()).toBe('%PDF-');
    expect(deleted).toEqual([]);
    // Refused before any row: both files go.
    store.insertDocuments = async () => {
      throw err({ code: 'SQLITE_FULL' }, 'database or disk is full');
    };
    expect((await send('before')).statusCode).toBe(507);
    expect(deleted).toHaveLength(2);
  });

  it('counters the store cannot keep: a read is served, an upload meets its own 507, and the limits hold in this process', async () => {
    h = await openApi({ TABLEMILL_RATE_LIMITS: '1', TABLEMILL_RATE_LIMIT_DEFAULT: '5' });
    const key = await h.key('acme');
    const auth = { authorization: `Bearer ${key}` };
    const failing = { get: () => Promise.reject(err({ code: 'SQLITE_FULL' })), consume: () => Promise.reject(err({ code: 'SQLITE_FULL' })) } as unknown as RateLimiterAbstract;
    h.deps.store.rateLimits.limiter = () => failing;
    h.deps.blobs.put = async () => {
      throw err({ code: 'ENOSPC', syscall: 'write' }, 'ENOSPC: no space left on device, write');
    };
    const body = await multipart([{ name: 'a.pdf', bytes: await smallPdf(1) }]);
    const upload = await h.app.inject({ method: 'POST', url: '/v1/batches/b/documents', payload: body.payload, headers: { ...body.headers, ...auth } });
    expect(upload.statusCode).toBe(507);
    expect(upload.json().error.code).toBe('insufficient_storage');
    const reads: number[] = [];
    for (let i = 0; i < 5; i++) reads.push((await h.app.inject({ method: 'GET', url: '/v1/batches', headers: auth })).statusCode);
    // The upload was the first of the key's 5 a minute (default class).
    expect(reads).toEqual([200, 200, 200, 200, 429]);
    const wrong: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: `Bearer tm_wrong${i}` }, remoteAddress: '203.0.113.9' });
      wrong.push(res.statusCode);
    }
    expect(wrong.slice(0, 30).every((c) => c === 401)).toBe(true);
    expect(wrong.slice(30)).toEqual([429, 429]);
    const metrics = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/tablemill_store_faults_total\{fault="storage_full",component="api"\} [1-9]/);
  });

  it('/readyz with the database away: 503 with details.reason and Retry-After', async () => {
    h = await openApi();
    h.deps.store.ping = async () => {
      throw err({ code: 'ECONNREFUSED' }, 'connect ECONNREFUSED 127.0.0.1:5432');
    };
    const res = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json().error).toMatchObject({ code: 'unavailable', details: { reason: 'database' } });
  });
});

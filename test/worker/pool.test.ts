import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { extractDocument } from '../../src/extract/index.js';
import { ExtractionPool } from '../../src/worker/pool.js';
import { processMemory } from '../../src/worker/slot.js';
import { compressionBombPdf } from '../bombs.js';
import { encryptedPdf, icdarPdf, notADocument, truncatedPdf } from '../e2e/fixtures.js';

// One child process; the default 120 s time limit.
const config = loadConfig({ TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DATA_DIR: '/tmp/unused' });
let pool: ExtractionPool;
// Built once (~5 s of deflate) for the tests that need it.
let bomb: Promise<Buffer> | null = null;
const twoGiBBomb = () => (bomb ??= compressionBombPdf());

beforeAll(async () => {
  pool = new ExtractionPool(config);
  await pool.warm();
});
afterAll(async () => {
  await pool?.close();
});

describe('ExtractionPool', () => {
  it('extracts a real PDF in a child process exactly as the engine does in-process', async () => {
    const bytes = icdarPdf('eu-005');
    const out = await pool.extract(bytes);
    expect(out.status).toBe('succeeded');
    if (out.status !== 'succeeded') return;
    const direct = await extractDocument(bytes, { maxPages: config.limits.maxPages, maxMegapixels: config.limits.maxMegapixels });
    // The page words travel apart from the result (stored for learning, not in the public shape).
    const { words, ...result } = direct;
    expect(JSON.parse(out.result_json)).toEqual(JSON.parse(JSON.stringify(result)));
    expect(JSON.parse(out.words_json!)).toEqual(JSON.parse(JSON.stringify(words)));
    expect(out.page_count).toBe(direct.page_count);
  });

  it('turns engine errors into processing errors, as values', async () => {
    const truncated = await pool.extract(truncatedPdf());
    expect(truncated).toMatchObject({ status: 'failed', error: { code: 'corrupt_file' } });
    const encrypted = await pool.extract(await encryptedPdf());
    expect(encrypted).toMatchObject({ status: 'failed', error: { code: 'encrypted_file' } });
    const junk = await pool.extract(notADocument());
    expect(junk.status).toBe('failed');
  });
  // libtesseract's LSTM asks OpenMP for 4 threads a section; libgomp caps them by OMP_THREAD_LIMIT,
  // read from the environment, which the pool passes to its children: unset, a page in the pool
  // ran 4 OpenMP threads on 2 cores and took 6-7× longer (eu-004: 16.8 s against 2.5 s).
  it.skipIf(!existsSync('native/build/Release/tablemill_ocr.node'))('an image page read in a child starts no OpenMP threads', async () => {
    const [pid] = pool.pids;
    const nodeThreads = () => readdirSync(`/proc/${pid}/task`).filter((t) => readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim() === 'node').length;
    await pool.extract(readFileSync('test/fixtures/images/grid-clean.png'));
    const before = nodeThreads();
    const out = await pool.extract(readFileSync('test/fixtures/images/grid-clean.png'));
    expect(out.status).toBe('succeeded');
    expect(pool.pids).toEqual([pid]);
    expect(nodeThreads()).toBe(before);
  });

  it('refuses a 2 GiB compression bomb as resource_limit, and the child stays small', async () => {
    const bytes = await twoGiBBomb();
    const t0 = Date.now();
    const out = await pool.extract(bytes);
    expect(out).toMatchObject({ status: 'failed', error: { code: 'resource_limit' } });
    expect(Date.now() - t0).toBeLessThan(10_000);
    const mem = pool.memory()[0];
    expect(mem).not.toBeNull();
    expect(mem!.peakRssMb).toBeLessThan(config.worker.maxRssMb);
    expect((await pool.extract(icdarPdf('eu-005'))).status).toBe('succeeded');
  });
  // The time limit (a child killed, the next document fine) is covered over HTTP in test/e2e/faults.test.ts.
});

describe('ExtractionPool limits on the child process', () => {
  it('kills a child above the RSS limit (resource_limit), replaces it, and the next document runs', async () => {
    // No inflation cap: the bomb reaches pdf.js, and only the RSS limit stops it.
    const small = loadConfig({ TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DATA_DIR: '/tmp/unused', TABLEMILL_MAX_INFLATED_MB: '65536', TABLEMILL_WORKER_MAX_RSS_MB: '600' });
    const p = new ExtractionPool(small);
    try {
      await p.warm();
      const [pid] = p.pids;
      const out = await p.extract(await twoGiBBomb());
      expect(out).toMatchObject({ status: 'failed', error: { code: 'resource_limit' } });
      expect(out.status === 'failed' && out.error.message).toMatch(/limit is 600 MB/);
      expect(processMemory(pid)).toBeNull();
      expect(p.pids[0]).not.toBe(pid);
      expect((await p.extract(icdarPdf('eu-005'))).status).toBe('succeeded');
    } finally {
      await p.close();
    }
    // pdf.js inflating toward 600 MB took 13 s alone and over 60 s with the whole suite on 2 cores.
  }, 180_000);

  it('recycles a child after TABLEMILL_WORKER_RECYCLE_AFTER documents', async () => {
    const p = new ExtractionPool(loadConfig({ TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DATA_DIR: '/tmp/unused', TABLEMILL_WORKER_RECYCLE_AFTER: '2' }));
    try {
      await p.warm();
      const [first] = p.pids;
      expect((await p.extract(icdarPdf('eu-005'))).status).toBe('succeeded');
      expect(p.pids).toEqual([first]);
      expect((await p.extract(icdarPdf('eu-005'))).status).toBe('succeeded');
      expect(p.pids[0]).not.toBe(first);
      expect((await p.extract(icdarPdf('eu-005'))).status).toBe('succeeded');
    } finally {
      await p.close();
    }
  });
});

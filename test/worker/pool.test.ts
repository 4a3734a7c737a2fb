import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { extractDocument } from '../../src/extract/index.js';
import { ExtractionPool } from '../../src/worker/pool.js';
import { encryptedPdf, icdarPdf, notADocument, truncatedPdf } from '../e2e/fixtures.js';

// One thread; the default 120 s time limit.
const config = loadConfig({ TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DATA_DIR: '/tmp/unused' });
let pool: ExtractionPool;

beforeAll(async () => {
  pool = new ExtractionPool(config);
  await pool.warm();
});
afterAll(async () => {
  await pool?.close();
});

describe('ExtractionPool', () => {
  it('extracts a real PDF in a thread exactly as the engine does in-process', async () => {
    const bytes = icdarPdf('eu-005');
    const out = await pool.extract(bytes);
    expect(out.status).toBe('succeeded');
    if (out.status !== 'succeeded') return;
    const direct = await extractDocument(bytes, { maxPages: config.limits.maxPages, maxMegapixels: config.limits.maxMegapixels });
    expect(JSON.parse(out.result_json)).toEqual(JSON.parse(JSON.stringify(direct)));
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
  // read from the real environment, which a worker thread cannot set: unset, a page in the pool
  // ran 4 OpenMP threads on 2 cores and took 6-7× longer (eu-004: 16.8 s against 2.5 s).
  it.skipIf(!existsSync('native/build/Release/tablemill_ocr.node'))('an image page read in a thread starts no OpenMP threads', async () => {
    const nodeThreads = () => readdirSync('/proc/self/task').filter((t) => readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim() === 'node').length;
    const before = nodeThreads();
    const out = await pool.extract(readFileSync('test/fixtures/images/grid-clean.png'));
    expect(out.status).toBe('succeeded');
    expect(nodeThreads()).toBe(before);
  });
  // The time limit (a thread killed, the next document fine) is covered over HTTP in test/e2e/faults.test.ts.
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { extractDocument } from '../../src/extract/index.js';
import { ExtractionPool } from '../../src/worker/pool.js';
import { encryptedPdf, icdarPdf, notADocument, scannedPdf, truncatedPdf } from '../e2e/fixtures.js';

// One thread, a 5 s limit: a warm thread reads a small digital PDF in ~0.5 s even with the
// machine's load at 11 on 2 cores; OCR of eight scanned pages takes far longer than 5 s.
const config = loadConfig({ TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DOCUMENT_TIMEOUT_MS: '5000', TABLEMILL_DATA_DIR: '/tmp/unused' });
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

  it('ends a document over the time limit as timeout, kills only that thread, and goes on', async () => {
    const started = Date.now();
    const slow = await pool.extract(await scannedPdf());
    expect(slow).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
    expect(Date.now() - started).toBeLessThan(15_000);
    const next = await pool.extract(icdarPdf('eu-005'));
    expect(next.status).toBe('succeeded');
    expect(pool.threads).toBe(1);
  });
});

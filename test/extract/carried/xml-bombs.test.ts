/**
 * XML bombs (API.md §4c): each refused with a clear code, fast and in bounded memory, by the
 * engine and by a worker child as the service runs documents; a bomb whose root is no invoice
 * is not even a document (the sniffer's `null`: 415 at upload).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { sniffFormat } from '../../../src/extract/carried/sniff.js';
import { parseXml } from '../../../src/extract/carried/xml.js';
import { extractDocument } from '../../../src/extract/index.js';
import { ExtractError } from '../../../src/extract/types.js';
import { ExtractionPool } from '../../../src/worker/pool.js';
import { billionLaughsXml, deepNestingXml, externalEntityXml, quadraticBlowupXml } from '../../bombs.js';
import { INVOICE_A, ciiXml, ublXml } from './einvoice.js';

const BOMBS: Array<[string, () => Buffer, string, RegExp]> = [
  ['billion laughs', () => billionLaughsXml(), 'resource_limit', /expand/],
  ['external entities (XXE)', externalEntityXml, 'unsupported_format', /external entity .* never fetched/],
  ['quadratic blowup', quadraticBlowupXml, 'resource_limit', /expand/],
  ['deep nesting', () => deepNestingXml(), 'resource_limit', /deeper than 100/],
];

describe('sniffing XML', () => {
  it('takes CII and UBL invoices by root and namespace, nothing else', () => {
    const head = (s: string) => new TextEncoder().encode(s).subarray(0, 4096);
    expect(sniffFormat(head(ciiXml(INVOICE_A)))).toBe('application/xml');
    expect(sniffFormat(head(ciiXml(INVOICE_A, 1)))).toBe('application/xml');
    expect(sniffFormat(head(`\ufeff<!-- made by hand -->\n${ublXml(INVOICE_A, 'CreditNote').replace(/^<\?xml[^>]*>\s*/, '')}`))).toBe('application/xml');
    expect(sniffFormat(head('<?xml version="1.0"?><Invoice xmlns="urn:example:other"/>'))).toBeNull();
    expect(sniffFormat(head('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffFormat(billionLaughsXml('lolz'))).toBeNull();
    // The DOCTYPE is skipped whole, quoted brackets and all.
    expect(sniffFormat(billionLaughsXml())).toBe('application/xml');
  });
});

describe('XML bombs in the engine', () => {
  for (const [name, make, code, message] of BOMBS) {
    it(`${name}: ${code} within 5 s, memory bounded`, async () => {
      const bytes = make();
      const rss = process.memoryUsage().rss;
      const t = performance.now();
      const err = await extractDocument(bytes).then(
        () => null,
        (e: unknown) => e,
      );
      expect(performance.now() - t).toBeLessThan(5000);
      expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 2 ** 20);
      expect(err).toBeInstanceOf(ExtractError);
      expect((err as ExtractError).code).toBe(code);
      expect((err as ExtractError).message).toMatch(message);
    });
  }

  it('expands a few internal entities within the budget', () => {
    const root = parseXml('<!DOCTYPE a [<!ENTITY co "Nordlicht &amp; Co"><!ENTITY full "&co; GmbH">]><a><b>&full;</b></a>');
    expect(root.children[0]!.text).toBe('Nordlicht & Co GmbH');
  });

  it('refuses a parameter entity and an undefined entity', () => {
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p"> %p;]><a/>')).toThrow(/parameter entity/);
    expect(() => parseXml('<a>&nope;</a>')).toThrow(ExtractError);
  });
});

describe('XML bombs in a worker child', () => {
  let pool: ExtractionPool;
  beforeAll(async () => {
    pool = new ExtractionPool(loadConfig({ TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_DATA_DIR: '/tmp/unused' }));
    await pool.warm();
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('each ends failed with its code within 5 s, the child under 400 MB RSS', async () => {
    for (const [name, make, code] of BOMBS) {
      let peak = 0;
      const sample = setInterval(() => {
        for (const m of pool.memory()) if (m) peak = Math.max(peak, m.rssMb);
      }, 10);
      const t = performance.now();
      const out = await pool.extract(make());
      const ms = performance.now() - t;
      clearInterval(sample);
      for (const m of pool.memory()) if (m) peak = Math.max(peak, m.peakRssMb);
      expect({ name, ...out, stats: undefined }).toMatchObject({ name, status: 'failed', error: { code } });
      expect(ms, name).toBeLessThan(5000);
      expect(peak, name).toBeLessThan(400);
    }
  });
});

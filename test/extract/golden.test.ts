/**
 * Golden invoices (test/fixtures/invoices, written by scripts/make-fixtures.ts): every fixture of
 * the manifest through the whole engine, checking every expected cell of its item table, every
 * expected line-item field and the totals. Cases listed in KNOWN_FAILURES.md run as expected
 * failures, so they stay visible and the day one is fixed the suite says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/extract/index.js';
import type { ExtractResult } from '../../src/extract/types.js';
import { allDiffs, fieldAccuracy, itemMatches, type GoldenFixture } from './lineitems/golden-check.js';
import { REPO_ROOT } from '../paths.js';
import { expected, specs } from '../fixtures/invoices/expected.js';

const DIR = join(REPO_ROOT, 'test/fixtures/invoices');
const { fixtures } = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { fixtures: GoldenFixture[] };

/** `- \`file.pdf\` table|items|totals: why` lines of KNOWN_FAILURES.md. */
function knownFailures(): Set<string> {
  let text = '';
  try {
    text = readFileSync(join(DIR, 'KNOWN_FAILURES.md'), 'utf8');
  } catch {
    return new Set();
  }
  return new Set([...text.matchAll(/^- `([^`]+)` (table|items|totals|fields)\b/gm)].map((m) => `${m[1]} ${m[2]}`));
}
const known = knownFailures();

describe('golden invoices', () => {
  it('manifest.json is what the specs say (run scripts/make-fixtures.ts after editing them)', () => {
    expect(fixtures).toEqual(JSON.parse(JSON.stringify(specs.map(expected))));
  });

  it('has a fixture for every language, ruled and unruled, tables over two and three pages, each document type', () => {
    expect(new Set(fixtures.map((f) => f.lang))).toEqual(new Set(['en', 'de', 'es', 'nl', 'fr', 'it', 'pt', 'ja']));
    expect(fixtures.some((f) => f.ruled) && fixtures.some((f) => !f.ruled)).toBe(true);
    expect(fixtures.filter((f) => f.pages > 1).map((f) => f.item_table.header_repeated)).toEqual(expect.arrayContaining([true, false]));
    expect(fixtures.some((f) => f.pages === 3 && !f.item_table.header_repeated)).toBe(true);
    expect(new Set(fixtures.map((f) => f.document_type))).toEqual(new Set(['invoice', 'receipt', 'bank_statement']));
  });

  const results = new Map<string, Promise<ExtractResult>>();
  const run = (fx: GoldenFixture) => {
    if (!results.has(fx.file)) results.set(fx.file, extractDocument(new Uint8Array(readFileSync(join(DIR, fx.file)))));
    return results.get(fx.file)!;
  };

  for (const fx of fixtures) {
    describe(fx.file, () => {
      for (const part of ['table', 'items', 'totals', 'fields'] as const) {
        const test = known.has(`${fx.file} ${part}`) ? it.fails : it;
        test(`${part} as expected (${fx.title})`, async () => {
          const r = await run(fx);
          expect(r.page_count).toBe(fx.pages);
          expect(allDiffs(fx, r)[part]).toEqual([]);
        });
      }
    });
  }

  it('line-item F1 (row match) and field accuracy over all fixtures are at least 0.95', async () => {
    let [hit, expected, found] = [0, 0, 0];
    const pairs = [];
    for (const fx of fixtures) {
      const r = await run(fx);
      const m = itemMatches(fx, r.line_items);
      [hit, expected, found] = [hit + m.hit, expected + m.expected, found + m.found];
      pairs.push({ fx, fields: r.fields });
    }
    const [p, rc] = [hit / found, hit / expected];
    const f1 = (2 * p * rc) / (p + rc);
    const acc = fieldAccuracy(pairs);
    console.log(`golden: line items P ${p.toFixed(3)} R ${rc.toFixed(3)} F1 ${f1.toFixed(3)} (${hit}/${expected}); fields ${acc.right}/${acc.all} = ${(acc.right / acc.all).toFixed(3)}`);
    // Per language: documents, printed fields read right out of those expected, every field (nulls included) right.
    const langs = [...new Set(fixtures.map((f) => f.lang))];
    for (const lang of langs) {
      const mine = pairs.filter((x) => x.fx.lang === lang);
      const printed = mine.flatMap(({ fx, fields }) => Object.entries(fx.fields).map(([k, v]) => fields[k as keyof typeof fields]?.value === v));
      const all = fieldAccuracy(mine);
      const names = [...new Set(mine.flatMap(({ fx }) => Object.keys(fx.fields)))].sort().join(' ');
      console.log(`golden ${lang}: ${mine.length} documents, printed fields ${printed.filter(Boolean).length}/${printed.length}, all fields ${all.right}/${all.all}: ${names}`);
    }
    expect(f1).toBeGreaterThanOrEqual(0.95);
    expect(acc.right / acc.all).toBeGreaterThanOrEqual(0.95);
  });
});

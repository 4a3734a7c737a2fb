/**
 * The OpenAPI document as a common generator sees it: openapi-typescript turns /openapi.json
 * into types, and code using the named shapes must type-check against them (with the shapes
 * typed, not `any`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApi, type ApiHarness } from './harness.js';

let h: ApiHarness;
let dir: string;
beforeAll(async () => {
  h = await openApi();
  dir = mkdtempSync(join(tmpdir(), 'tm-openapi-'));
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const USE = `
import type { components, paths } from './api.js';
type S = components['schemas'];
type BatchAnswer = paths['/v1/batches/{batch_name}']['get']['responses'][200]['content']['application/json'];
type ResultAnswer = paths['/v1/documents/{id}/results']['get']['responses'][200]['content']['application/json'];
type UploadError = paths['/v1/batches/{batch_name}/documents']['post']['responses'][507]['content']['application/json'];

export function use(batch: BatchAnswer, result: ResultAnswer, error: UploadError): string {
  const done: boolean = batch.all_done;
  const b: S['Batch'] = batch;
  const tables: S['Table'][] = result.tables ?? [];
  const items: S['LineItem'][] = result.line_items ?? [];
  const pairs: S['KeyValuePair'][] = result.key_value_pairs ?? [];
  const total: S['Field'] | null = result.fields?.total ?? null;
  const code: string = error.error.code;
  // @ts-expect-error tables are typed, not any
  const wrong: string = result.tables;
  return [done, b.batch_name, tables.length, items.length, pairs.length, total?.text, code, wrong].join();
}
`;

describe('/openapi.json through openapi-typescript', () => {
  it('generates types that code using Batch, DocumentResult, Table, LineItem, Field, KeyValuePair and Error type-checks against', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    const generated = astToString(await openapiTS(doc));
    expect(generated).toContain('DocumentResult: {');
    writeFileSync(join(dir, 'api.ts'), generated);
    writeFileSync(join(dir, 'use.ts'), USE);
    const program = ts.createProgram([join(dir, 'use.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 120_000);
});

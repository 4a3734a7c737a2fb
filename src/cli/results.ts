/**
 * `tablemill results BATCH [--format json|csv|xlsx|ndjson|zip] [--out FILE]`: downloads a
 * batch's results. json gathers every page into one `BatchResults` with `next_cursor: null`;
 * the other formats are the server's exports (API.md §4a), byte for byte.
 */
import { writeFile } from 'node:fs/promises';
import type { BatchResults, ExportFormat, TablemillClient } from '@tablemill/client';
import { UsageError } from './exit.js';

export const FORMATS = ['json', 'csv', 'xlsx', 'ndjson', 'zip'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(raw: string): Format {
  if (!(FORMATS as readonly string[]).includes(raw)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as Format;
}

/** The results in `format`, as bytes. */
export async function download(client: TablemillClient, name: string, format: Format): Promise<Buffer> {
  if (format !== 'json') return client.export(name, format as ExportFormat);
  const first = await client.resultsPage(name, { limit: 100 });
  const all: BatchResults = { ...first, documents: [...first.documents], next_cursor: null };
  let cursor = first.next_cursor;
  while (cursor) {
    const page = await client.resultsPage(name, { limit: 100, cursor });
    all.documents.push(...page.documents);
    cursor = page.next_cursor;
  }
  return Buffer.from(JSON.stringify(all) + '\n');
}

export async function run(client: TablemillClient, name: string, opts: { format: string; out?: string }): Promise<number> {
  const format = parseFormat(opts.format);
  if (!opts.out && process.stdout.isTTY && (format === 'xlsx' || format === 'zip')) throw new UsageError(`${format} is binary: pass --out FILE or redirect stdout`);
  const bytes = await download(client, name, format);
  if (opts.out) await writeFile(opts.out, bytes);
  else process.stdout.write(bytes);
  return 0;
}

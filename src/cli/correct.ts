/**
 * `tablemill correct DOC_ID --field total=123.45 [--field custom.po_number=PO-1] [--clear]`: corrects
 * a document's fields through the API (API.md §4b) and prints the corrected result's fields.
 */
import type { Correction, TablemillClient } from '@tablemill/client';
import { EXIT, UsageError } from './exit.js';

/** `name=value` pairs; an empty value means "the document has none" (null). */
export function parseFieldFlags(pairs: string[]): NonNullable<Correction['fields']> {
  const fields: NonNullable<Correction['fields']> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--field needs NAME=VALUE, got ${JSON.stringify(pair)}`);
    const name = pair.slice(0, eq).trim();
    const raw = pair.slice(eq + 1);
    const value = raw === '' ? null : raw;
    if (name.startsWith('custom.')) ((fields.custom ??= {}) as Record<string, string | null>)[name.slice(7)] = value;
    else fields[name] = value;
  }
  return fields;
}

export async function run(client: TablemillClient, id: string, opts: { field?: string[]; clear?: boolean }): Promise<number> {
  if (opts.clear) {
    if (opts.field?.length) throw new UsageError('--clear takes no --field');
    await client.deleteCorrections(id);
    process.stdout.write(JSON.stringify((await client.documentResults(id)).fields, null, 2) + '\n');
    return EXIT.ok;
  }
  if (!opts.field?.length) throw new UsageError('give at least one --field NAME=VALUE (or --clear)');
  const result = await client.correct(id, { fields: parseFieldFlags(opts.field) });
  process.stdout.write(JSON.stringify(result.fields, null, 2) + '\n');
  return EXIT.ok;
}

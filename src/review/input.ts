/** What the worker hands the engine besides the file: the run's custom fields and embedded option, and the account's vendor memories. */
import type { ExtractOptions } from '../extract/types.js';
import type { ClaimedDocument, Store } from '../store/index.js';
import { parseRunOptions } from './options.js';
import { accountMemories } from './vendors.js';

export type ExtractionInput = Pick<ExtractOptions, 'customFields' | 'vendorMemory' | 'embedded'>;

export async function extractionInput(store: Store, doc: ClaimedDocument): Promise<ExtractionInput> {
  const [options, memories] = await Promise.all([store.review.getOptions(doc.account_id, doc.id), accountMemories(store, doc.account_id)]);
  const run = parseRunOptions(options);
  return { customFields: run.custom_fields, vendorMemory: memories, embedded: run.embedded ?? 'use' };
}

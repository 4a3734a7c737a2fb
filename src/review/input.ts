/** What the worker hands the engine besides the file: the run's custom fields and the account's vendor memories. */
import type { ExtractOptions } from '../extract/types.js';
import type { ClaimedDocument, Store } from '../store/index.js';
import { parseRunOptions } from './options.js';
import { accountMemories } from './vendors.js';

export async function extractionInput(store: Store, doc: ClaimedDocument): Promise<Pick<ExtractOptions, 'customFields' | 'vendorMemory'>> {
  const [options, memories] = await Promise.all([store.review.getOptions(doc.account_id, doc.id), accountMemories(store, doc.account_id)]);
  return { customFields: parseRunOptions(options).custom_fields, vendorMemory: memories };
}

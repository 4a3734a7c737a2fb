/**
 * Vendor memories of an account (API.md §4b): taught by each correction of a document's fields,
 * handed to the engine by the worker, listed and forgotten through `/v1/vendors`.
 */
import { newId } from '../domain/names.js';
import { teachVendor, type VendorMemory } from '../extract/memory/index.js';
import type { ExtractResult, Field, StoredPage } from '../extract/types.js';
import type { Store, VendorRow } from '../store/index.js';
import type { Correction } from './corrections.js';
import { parseRunOptions } from './options.js';

/** Memories handed to the engine for one document: the account's most recently taught. */
export const MAX_VENDORS = 500;

export const toMemory = (row: VendorRow): VendorMemory => ({ ...(JSON.parse(row.memory_json) as VendorMemory), id: row.id });

/** The fields a memory reads on the vendor's next document: the ones corrected, and the name it was learned with. */
export const learnedFields = (m: VendorMemory): string[] => [...new Set([...(m.name ? ['vendor_name'] : []), ...Object.keys(m.fields)])];

/** The account's memories, as the engine takes them. */
export async function accountMemories(store: Store, accountId: string): Promise<VendorMemory[]> {
  return (await store.review.listVendors(accountId, MAX_VENDORS)).map(toMemory);
}

/**
 * Teaches the memory of the document's vendor (the one the engine used, else the one its pages
 * match, else the one of the corrected vendor name, else a new one) the document's corrected fields.
 */
export async function learnVendor(store: Store, accountId: string, documentId: string, result: ExtractResult, pages: StoredPage[], correction: Correction, now: number): Promise<void> {
  const values = new Map<string, string | number>();
  for (const [k, v] of Object.entries(correction.fields)) if (v) values.set(k, v.value);
  if (!values.size) return;
  const options = parseRunOptions(await store.review.getOptions(accountId, documentId));
  const customTypes = new Map((options.custom_fields ?? []).map((c) => [c.name, c.type as string] as const));
  const rows = await store.review.listVendors(accountId, MAX_VENDORS);
  const mem = teachVendor(rows.map(toMemory), result.vendor_memory_id, pages, result.fields as unknown as Record<string, Field | null>, { values, customTypes }, newId('ven'));
  const id = mem.id;
  const row = rows.find((r) => r.id === id);
  const { id: _id, ...stored } = mem;
  void _id;
  await store.review.putVendor({ id, account_id: accountId, name: mem.name || 'unnamed vendor', memory_json: JSON.stringify(stored), created_at: row?.created_at ?? now, updated_at: now });
}

/**
 * Vendor memories of an account (API.md §4b): taught by each correction of a document's fields
 * (`apply.ts`), handed to the engine by the worker, listed and forgotten through `/v1/vendors`.
 */
import type { VendorMemory } from '../extract/memory/index.js';
import type { Store, VendorRow } from '../store/index.js';

/** Memories handed to the engine for one document: the account's most recently taught. */
export const MAX_VENDORS = 500;

export const toMemory = (row: VendorRow): VendorMemory => ({ ...(JSON.parse(row.memory_json) as VendorMemory), id: row.id });

/** The fields a memory reads on the vendor's next document: the ones corrected, and the name it was learned with. */
export const learnedFields = (m: VendorMemory): string[] => [...new Set([...(m.name ? ['vendor_name'] : []), ...Object.keys(m.fields)])];

/** The account's memories, as the engine takes them. */
export async function accountMemories(store: Store, accountId: string): Promise<VendorMemory[]> {
  return (await store.review.listVendors(accountId, MAX_VENDORS)).map(toMemory);
}

/** Stores a memory a correction taught (`teachVendor`); `rows` are the account's memories it was taught among. */
export async function storeVendor(store: Store, accountId: string, rows: VendorRow[], mem: VendorMemory, now: number): Promise<void> {
  const { id, ...stored } = mem;
  const row = rows.find((r) => r.id === id);
  await store.review.putVendor({ id, account_id: accountId, name: mem.name || 'unnamed vendor', memory_json: JSON.stringify(stored), created_at: row?.created_at ?? now, updated_at: now });
}

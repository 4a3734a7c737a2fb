/**
 * The issue-5 store extensions (webhooks, idempotency keys, rate-limit table) of the app's
 * store, opened once per store and shared by every plugin of this feature.
 */
import { storeExtensions, type StoreExtensions } from '../store/webhook-types.js';
import type { Store } from '../store/types.js';

const cache = new WeakMap<Store, Promise<StoreExtensions>>();

/** The extensions of `store` (opened on first use). */
export function extensionsOf(store: Store, dbSchema: string | null): Promise<StoreExtensions> {
  let p = cache.get(store);
  if (!p) cache.set(store, (p = storeExtensions(store, dbSchema)));
  return p;
}

/**
 * What people teach the service (API.md §4b): corrections of results, the page words they are
 * learned from, a processing run's options, and each account's vendor memories. Everything here
 * is per account; a foreign id reads as missing.
 */

/** A stored vendor memory: `memory_json` is the engine's `VendorMemory` (src/extract/memory/). */
export interface VendorRow {
  id: string;
  account_id: string;
  name: string;
  memory_json: string;
  created_at: number;
  updated_at: number;
}

export interface ReviewStore {
  /** The document's correction, or null (none, or no such document in the account). */
  getCorrection(accountId: string, documentId: string): Promise<string | null>;
  /**
   * Stores (replaces) the document's correction; false if there is no such document in the
   * account. With `expected` (null: none stored), only while the stored correction is still that
   * one, else false: a correction merged over another is not lost to one stored meanwhile.
   */
  putCorrection(accountId: string, documentId: string, bodyJson: string, now: number, expected?: string | null): Promise<boolean>;
  /** Removes it; false if there was none. */
  deleteCorrection(accountId: string, documentId: string): Promise<boolean>;

  /** Keeps the page words of a document's result (written by the worker after the result). */
  putWords(documentId: string, wordsJson: string): Promise<void>;
  /** The document's page words, or null. */
  getWords(accountId: string, documentId: string): Promise<string | null>;

  /** The options the processing run that submitted the document gave (`submitBatch`), or null. */
  getOptions(accountId: string, documentId: string): Promise<string | null>;

  /** The account's vendor memories, most recently taught first, at most `limit`. */
  listVendors(accountId: string, limit: number): Promise<VendorRow[]>;
  /** Inserts or replaces the memory of `id` in the account. */
  putVendor(row: VendorRow): Promise<void>;
  /** Forgets a vendor; false if there is no such vendor in the account. */
  deleteVendor(accountId: string, id: string): Promise<boolean>;
}

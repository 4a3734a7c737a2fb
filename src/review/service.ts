/**
 * Storing a correction (API.md §4b): validate and type the values, find where each stands on
 * the document's pages, merge it with the document's earlier correction, store it beside the
 * result, and teach the vendor's memory from it.
 */
import { conflict, documentNotFound } from '../domain/errors.js';
import { publicStatus } from '../domain/status.js';
import type { BBox, ExtractResult, StoredPage } from '../extract/types.js';
import { locateValue } from '../extract/memory/index.js';
import type { DocumentResultRow, Store } from '../store/types.js';
import { bodyFields, emptyCorrection, mergeCorrection, parseCorrection, type CorrectedField, type Correction, type CorrectionBody } from './corrections.js';
import { parseRunOptions } from './options.js';
import { learnVendor } from './vendors.js';

/** A succeeded document of the account, or 404 / 409. */
export async function succeededDocument(store: Store, accountId: string, id: string): Promise<DocumentResultRow> {
  const row = await store.getDocumentResult(accountId, id);
  if (!row) throw documentNotFound(id);
  if (publicStatus(row.state, row.started_at !== null) !== 'succeeded' || row.result_json === null) {
    throw conflict(`document ${id} has not succeeded; only a succeeded document's results can be corrected`);
  }
  return row;
}

/** A succeeded document's stored page words (its first and last pages), each with its box; none for results stored before words were kept. */
export async function pageWords(store: Store, accountId: string, id: string): Promise<{ page: number; width: number; height: number; words: { text: string; bbox: BBox }[] }[]> {
  await succeededDocument(store, accountId, id);
  const json = await store.review.getWords(accountId, id);
  const pages = json ? (JSON.parse(json) as StoredPage[]) : [];
  return pages.map((p) => ({ page: p.page, width: p.width, height: p.height, words: p.words.map(([text, x0, y0, x1, y1]) => ({ text, bbox: [x0, y0, x1, y1] as BBox })) }));
}

/** Stores the body as the document's correction (merged over the earlier one) and learns from it; returns the row as now read. */
export async function putCorrection(store: Store, accountId: string, id: string, body: CorrectionBody, now: number): Promise<DocumentResultRow> {
  const row = await succeededDocument(store, accountId, id);
  const options = parseRunOptions(await store.review.getOptions(accountId, id));
  const customTypes = new Map((options.custom_fields ?? []).map((c) => [c.name, c.type] as const));
  const values = bodyFields(body, customTypes);
  const wordsJson = await store.review.getWords(accountId, id);
  const pages = wordsJson ? (JSON.parse(wordsJson) as StoredPage[]) : [];
  const result = JSON.parse(row.result_json!) as ExtractResult;

  const located = new Map<string, CorrectedField | null>();
  for (const [key, value] of values) {
    if (value === null) {
      located.set(key, null);
      continue;
    }
    const type = key.startsWith('custom.') ? customTypes.get(key.slice(7)) : undefined;
    const at = pages.length ? locateValue(pages, key, value, type) : null;
    located.set(key, { value, text: at?.text ?? String(value), page: at?.page ?? null, bbox: at?.bbox ?? null });
  }
  const next: Correction = mergeCorrection(parseCorrection(row.corrections_json) ?? emptyCorrection(), located, body);
  if (!(await store.review.putCorrection(accountId, id, JSON.stringify(next), now))) throw documentNotFound(id);
  if (pages.length && values.size) await learnVendor(store, accountId, id, result, pages, next, now);
  return { ...row, corrections_json: JSON.stringify(next) };
}

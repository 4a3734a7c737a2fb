/**
 * Storing a correction (API.md §4b): validate and type the values, apply it away from the event
 * loop (find where each value stands on the pages, teach the vendor's memory, merge it with the
 * document's earlier correction), and store it beside the result.
 */
import { ApiError, conflict, documentNotFound, type ApiErrorCode } from '../domain/errors.js';
import { publicStatus } from '../domain/status.js';
import { newId } from '../domain/names.js';
import type { BBox, StoredPage } from '../extract/types.js';
import type { DocumentResultRow, Store } from '../store/types.js';
import type { ApplyAnswer, ApplyJob } from './apply.js';
import { bodyFields, type CorrectionBody } from './corrections.js';
import { parseRunOptions } from './options.js';
import { MAX_VENDORS, storeVendor } from './vendors.js';

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

/** Runs a correction's job away from the event loop (`src/api/correction-thread.ts`). */
export type Apply = (job: ApplyJob) => Promise<ApplyAnswer>;

/**
 * Stores the body (`bodyJson` its text) as the document's correction (merged over the earlier
 * one) and what it taught the vendor's memory; the corrected result as the response's JSON, and
 * why nothing was learned when nothing was. The values are typed here (a 400 before any work);
 * the rest is `apply`'s.
 */
export async function putCorrection(store: Store, accountId: string, id: string, body: CorrectionBody, bodyJson: string, now: number, apply: Apply): Promise<{ resultJson: string; notLearned?: string }> {
  const options = parseRunOptions(await store.review.getOptions(accountId, id));
  const customTypes = new Map((options.custom_fields ?? []).map((c) => [c.name, c.type] as const));
  const values = bodyFields(body, customTypes);
  const wordsJson = values.size ? await store.review.getWords(accountId, id) : null;
  // Merged over the correction it read, stored only while that one still stands: a correction
  // stored meanwhile (two reviewers, two tabs) is read again and this one merged over it.
  for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
    const row = await succeededDocument(store, accountId, id);
    const memories = wordsJson ? await store.review.listVendors(accountId, MAX_VENDORS) : [];
    const answer = await apply({
      row,
      bodyJson,
      values: [...values],
      customTypes: [...customTypes],
      wordsJson,
      memories: memories.map((m) => ({ id: m.id, json: m.memory_json })),
      newId: newId('ven'),
    });
    if (!answer.ok) throw new ApiError(answer.status, answer.code as ApiErrorCode, answer.message, answer.details);
    if (!(await store.review.putCorrection(accountId, id, answer.correctionJson, now, row.corrections_json))) continue;
    if (answer.memory) await storeVendor(store, accountId, memories, answer.memory, now);
    return { resultJson: answer.resultJson, notLearned: answer.notLearned };
  }
  throw conflict(`the correction of document ${id} kept changing while this one was merged over it; send it again`);
}

/** How many times a correction is merged again over one stored meanwhile before it gives up (409). */
const MERGE_ATTEMPTS = 8;

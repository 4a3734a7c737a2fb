/**
 * A correction applied, as one job that runs away from the API's event loop (`apply-thread.ts`):
 * the body checked against the document's tables, each corrected value found on the stored pages,
 * the vendor's memory taught, the correction merged over the earlier one, and the corrected
 * result written out as the response's JSON. Every step walks something a client or the document
 * made large (a result of 30,000 cells, a page of 2,000 words); the thread walks them, the event
 * loop only moves their text. Plain data in and out: the stored JSON travels as text.
 */
import { DocumentResultSchema } from '../contract/schemas.js';
import { documentResultView } from '../contract/views.js';
import { ApiError } from '../domain/errors.js';
import { locateValue, teachVendor, type VendorMemory } from '../extract/memory/index.js';
import type { ExtractResult, Field, StoredPage } from '../extract/types.js';
import type { DocumentResultRow } from '../store/types.js';
import { checkBody, emptyCorrection, mergeCorrection, parseCorrection, type CorrectedField, type CorrectionBody } from './corrections.js';
import fastJson from 'fast-json-stringify';

/**
 * How long finding values and teaching memory may take, from the job's start: values not found
 * by then are stored without their boxes, and a memory not yet taught is not. A correction of
 * every field and 50 custom values of 1,000 characters on a page of 2,000 words takes ~0.3 s on
 * a loaded 2-core machine.
 */
export const LEARN_BUDGET_MS = 2000;

export interface ApplyJob {
  /** The document as stored, its result and earlier correction included. */
  row: DocumentResultRow;
  /** The request body as received (a structured clone of 10,000 cells cost the event loop more than their text). */
  bodyJson: string;
  /** The body's field values, typed, by stored key (`total`, `custom.po_number`); null for "none". */
  values: [string, string | number | null][];
  customTypes: [string, string][];
  /** The document's stored page words (`StoredPage[]` as JSON), null when none were kept. */
  wordsJson: string | null;
  /** The account's vendor memories (`VendorMemory` JSON without its id) with their ids. */
  memories: { id: string; json: string }[];
  /** The id of a new memory, if one is made. */
  newId: string;
}

export type ApplyAnswer =
  | {
      ok: true;
      correctionJson: string;
      /** The corrected `DocumentResult`, serialised as the route's response schema does. */
      resultJson: string;
      /** The memory taught (its id inside), or null. */
      memory: VendorMemory | null;
      /** Why nothing was learned, when the correction gave fields and nothing was. */
      notLearned?: string;
    }
  | { ok: false; status: number; code: string; message: string; details?: Record<string, unknown> };

/** The `DocumentResult` as JSON, by its schema, like Fastify's serialiser of the route. */
let serialise: ((doc: object) => string) | undefined;

/** Compiles the serialiser (~1 s on a loaded machine), so that the first job does not pay it. */
export function warmUp(): (doc: object) => string {
  return (serialise ??= fastJson(DocumentResultSchema));
}

/** Applies a correction; a refused body is an answer (`ok: false`) with its 4xx. */
export function applyCorrection(job: ApplyJob, now = Date.now): ApplyAnswer {
  const deadline = now() + LEARN_BUDGET_MS;
  const result = JSON.parse(job.row.result_json!) as ExtractResult;
  const body = JSON.parse(job.bodyJson) as CorrectionBody;
  try {
    checkBody(body, result.tables ?? []);
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, status: err.status, code: err.code, message: err.message, details: err.details };
    throw err;
  }
  const prev = parseCorrection(job.row.corrections_json) ?? emptyCorrection();
  const customTypes = new Map(job.customTypes);
  const pages = job.wordsJson ? (JSON.parse(job.wordsJson) as StoredPage[]) : [];
  let notLearned: string | undefined;

  const located = new Map<string, CorrectedField | null>();
  for (const [key, value] of job.values) {
    if (value === null) {
      located.set(key, null);
      continue;
    }
    const inTime = now() < deadline;
    if (!inTime) notLearned = `finding the values took longer than ${LEARN_BUDGET_MS} ms`;
    const at = pages.length && inTime ? locateValue(pages, key, value, key.startsWith('custom.') ? customTypes.get(key.slice(7)) : undefined) : null;
    located.set(key, { value, text: at?.text ?? String(value), page: at?.page ?? null, bbox: at?.bbox ?? null });
  }
  const next = mergeCorrection(prev, located, body, result.tables ?? []);

  let memory: VendorMemory | null = null;
  const taught = new Map(Object.entries(next.fields).flatMap(([k, f]) => (f ? [[k, f.value] as const] : [])));
  if (pages.length && job.values.length && taught.size && !notLearned) {
    if (now() < deadline) {
      const memories = job.memories.map((m) => ({ ...(JSON.parse(m.json) as VendorMemory), id: m.id }));
      memory = teachVendor(memories, result.vendor_memory_id, pages, result.fields as unknown as Record<string, Field | null>, { values: taught, customTypes }, job.newId);
    } else notLearned = `teaching the vendor's memory did not start within ${LEARN_BUDGET_MS} ms`;
  }
  const correctionJson = JSON.stringify(next);
  const resultJson = warmUp()(documentResultView({ ...job.row, corrections_json: correctionJson }));
  return { ok: true, correctionJson, resultJson, memory, notLearned };
}

/**
 * Corrections (API.md §4b): what a person says a result should have been. A correction is kept
 * beside the engine's result and laid over it whenever a result is shown (`applyCorrection`), so
 * every surface — results, exports, the web app — shows the same corrected values, and the
 * engine's own reading stays available (`?view=extracted`).
 */
import { invalidRequest } from '../domain/errors.js';
import { FIELD_NAMES, type BBox, type Field, type FieldSource, type LineItem } from '../extract/types.js';

/** A corrected field as stored: the value, and where it stands on the page when that is known. */
export interface CorrectedField {
  value: string | number;
  text: string;
  page: number | null;
  bbox: BBox | null;
}

/** A stored correction. Field keys are the built-in names and `custom.<name>`; null means "the document has none". */
export interface Correction {
  fields: Record<string, CorrectedField | null>;
  line_items: LineItem[] | null;
  tables: { index: number; cells: { row: number; col: number; text: string }[] }[];
}

export const NUMBER_FIELDS: ReadonlySet<string> = new Set(['total', 'subtotal', 'tax', 'amount_due', 'opening_balance', 'closing_balance']);
export const DATE_FIELDS: ReadonlySet<string> = new Set(['issue_date', 'due_date', 'period_start', 'period_end']);
const CUSTOM_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_TEXT = 2000;

/** The request body of `PUT …/corrections`, as the route's schema lets it through. */
export interface CorrectionBody {
  fields?: Record<string, unknown>;
  line_items?: LineItem[] | null;
  tables?: { index: number; cells: { row: number; col: number; text: string }[] }[] | null;
}

export const emptyCorrection = (): Correction => ({ fields: {}, line_items: null, tables: [] });

/** A person's value for `name`, typed like the engine's (numbers, ISO dates, text); throws 400 when it cannot be. */
export function typedValue(name: string, raw: unknown, type?: 'text' | 'number' | 'date' | 'amount'): string | number {
  const numeric = type ? type === 'number' || type === 'amount' : NUMBER_FIELDS.has(name);
  const date = type ? type === 'date' : DATE_FIELDS.has(name);
  if (numeric) {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isFinite(n)) throw invalidRequest(`fields.${name} must be a number`, { field: name });
    return n;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') throw invalidRequest(`fields.${name} must be a string`, { field: name });
  const text = String(raw).trim();
  if (!text || text.length > MAX_TEXT) throw invalidRequest(`fields.${name} must be 1 to ${MAX_TEXT} characters`, { field: name });
  if (date) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : null;
    if (!d || d.toISOString().slice(0, 10) !== text) throw invalidRequest(`fields.${name} must be an ISO date (YYYY-MM-DD)`, { field: name });
  }
  return name === 'currency' ? text.toUpperCase() : text;
}

/**
 * The body's field values by stored key (`total`, `custom.po_number`), typed; unknown names are a 400.
 * `customTypes` gives the run's custom fields their types.
 */
export function bodyFields(body: CorrectionBody, customTypes: Map<string, 'text' | 'number' | 'date' | 'amount'>): Map<string, string | number | null> {
  const out = new Map<string, string | number | null>();
  for (const [name, raw] of Object.entries(body.fields ?? {})) {
    if (name === 'custom') {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest('fields.custom must be an object of custom field values');
      for (const [cname, craw] of Object.entries(raw as Record<string, unknown>)) {
        if (!CUSTOM_NAME.test(cname)) throw invalidRequest(`fields.custom.${cname} is not a custom field name`, { field: `custom.${cname}` });
        out.set(`custom.${cname}`, craw === null ? null : typedValue(cname, craw, customTypes.get(cname) ?? 'text'));
      }
      continue;
    }
    if (!(FIELD_NAMES as readonly string[]).includes(name)) throw invalidRequest(`fields.${name} is not a field`, { field: name });
    out.set(name, raw === null ? null : typedValue(name, raw));
  }
  return out;
}

/** `prev` with the body laid over it: fields one by one, line items replaced, table cells one by one. */
export function mergeCorrection(prev: Correction, fields: Map<string, CorrectedField | null>, body: CorrectionBody): Correction {
  const next: Correction = { fields: { ...prev.fields }, line_items: prev.line_items, tables: prev.tables.map((t) => ({ ...t, cells: [...t.cells] })) };
  for (const [k, v] of fields) next.fields[k] = v;
  if (body.line_items !== undefined) next.line_items = body.line_items;
  for (const t of body.tables ?? []) {
    let into = next.tables.find((x) => x.index === t.index);
    if (!into) next.tables.push((into = { index: t.index, cells: [] }));
    for (const c of t.cells) {
      const at = into.cells.findIndex((x) => x.row === c.row && x.col === c.col);
      if (at >= 0) into.cells[at] = c;
      else into.cells.push(c);
    }
  }
  return next;
}

/** A public `Field`: the engine's with its source, or a corrected one. */
export type PublicField = Field & { source: FieldSource; corrected: boolean };

export const publicField = (f: Field | null): PublicField | null => (f ? { ...f, source: f.source ?? 'engine', corrected: false } : null);

/** The field a correction gives: where it stands if known, else where the engine had it, else nowhere on page 1. */
export function correctedField(c: CorrectedField, engine: Field | null): PublicField {
  return {
    value: c.value,
    text: c.text,
    confidence: 1,
    page: c.page ?? engine?.page ?? 1,
    bbox: c.bbox ?? engine?.bbox ?? [0, 0, 0, 0],
    source: 'correction',
    corrected: true,
  };
}

/** Parses stored correction JSON; null when there is none. */
export function parseCorrection(json: string | null): Correction | null {
  if (!json) return null;
  const c = JSON.parse(json) as Partial<Correction>;
  return { fields: c.fields ?? {}, line_items: c.line_items ?? null, tables: c.tables ?? [] };
}

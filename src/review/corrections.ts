/**
 * Corrections (API.md §4b): what a person says a result should have been. A correction is kept
 * beside the engine's result and laid over it whenever a result is shown (`applyCorrection`), so
 * every surface — results, exports, the web app — shows the same corrected values, and the
 * engine's own reading stays available (`?view=extracted`).
 */
import { isCurrencyCode } from '../domain/currencies.js';
import { invalidRequest } from '../domain/errors.js';
import { FIELD_NAMES, type BBox, type Field, type FieldSource, type LineItem, type Table } from '../extract/types.js';
import { kindOf } from '../extract/memory/index.js';

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

export const CUSTOM_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** Custom fields a processing run may define, and so a correction may give. */
export const MAX_CUSTOM_FIELDS = 50;
/**
 * The longest value a correction may give (a field, a cell, a line item's text): longer than any
 * printed field or cell, and it bounds the work of finding the value on the page (a probe's
 * 450 values of 1,990 characters held the API 105 s).
 */
export const MAX_VALUE_LENGTH = 1000;
/** Table cells one correction may give, all its tables together. */
export const MAX_CELLS = 10_000;

/** The request body of `PUT …/corrections`, as the route's schema lets it through. */
export interface CorrectionBody {
  fields?: Record<string, unknown>;
  line_items?: LineItem[] | null;
  tables?: { index: number; cells: { row: number; col: number; text: string }[] }[] | null;
}

/**
 * A number as a client writes it in a request (`-12.5`): digits and a point, as JSON has them. Not
 * a number as a page prints it (`1.234,56`, `RM 12.50`): locale/numbers.ts reads those.
 */
const TYPED_NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

export const emptyCorrection = (): Correction => ({ fields: {}, line_items: null, tables: [] });

/** A person's value for `name`, typed like the engine's (numbers, ISO dates, text); throws 400 when it cannot be. */
export function typedValue(name: string, raw: unknown, type?: 'text' | 'number' | 'date' | 'amount'): string | number {
  const kind = kindOf(name, type);
  if (kind === 'number') {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && TYPED_NUMBER.test(raw) ? Number(raw) : NaN;
    if (!Number.isFinite(n)) throw invalidRequest(`fields.${name} must be a number`, { field: name });
    return n;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') throw invalidRequest(`fields.${name} must be a string`, { field: name });
  const text = String(raw).trim();
  if (!text || text.length > MAX_VALUE_LENGTH) throw invalidRequest(`fields.${name} must be 1 to ${MAX_VALUE_LENGTH} characters`, { field: name, limit: MAX_VALUE_LENGTH });
  if (kind === 'date') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : null;
    if (!d || d.toISOString().slice(0, 10) !== text) throw invalidRequest(`fields.${name} must be an ISO date (YYYY-MM-DD)`, { field: name });
  }
  if (name !== 'currency') return text;
  const code = text.toUpperCase();
  if (!isCurrencyCode(code)) throw invalidRequest(`fields.currency must be an ISO 4217 currency code (EUR, USD, …), not ${JSON.stringify(text.slice(0, 20))}`, { field: 'currency' });
  return code;
}

/**
 * The body's field values by stored key (`total`, `custom.po_number`), typed; unknown names, and
 * custom names the document's run did not define (`customTypes`, with their types), are a 400.
 */
export function bodyFields(body: CorrectionBody, customTypes: Map<string, 'text' | 'number' | 'date' | 'amount'>): Map<string, string | number | null> {
  const out = new Map<string, string | number | null>();
  for (const [name, raw] of Object.entries(body.fields ?? {})) {
    if (name === 'custom') {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest('fields.custom must be an object of custom field values');
      for (const [cname, craw] of Object.entries(raw as Record<string, unknown>)) {
        const type = customTypes.get(cname);
        if (!type) throw invalidRequest(`fields.custom.${cname} is not a custom field of the document's processing run`, { field: `custom.${cname}`, defined: [...customTypes.keys()] });
        out.set(`custom.${cname}`, craw === null ? null : typedValue(cname, craw, type));
      }
      continue;
    }
    if (!(FIELD_NAMES as readonly string[]).includes(name)) throw invalidRequest(`fields.${name} is not a field`, { field: name });
    out.set(name, raw === null ? null : typedValue(name, raw));
  }
  return out;
}

/**
 * The body's line items and table cells checked against the document: currencies ISO 4217, at
 * most MAX_CELLS cells, each one a cell (its top-left) of the engine's table `index`; a 400 otherwise.
 */
export function checkBody(body: CorrectionBody, tables: readonly Table[]): void {
  body.line_items?.forEach((li, i) => {
    if (li.currency !== null && !isCurrencyCode(li.currency)) throw invalidRequest(`line_items[${i}].currency must be an ISO 4217 currency code`, { field: `line_items[${i}].currency` });
  });
  const given = (body.tables ?? []).reduce((n, t) => n + t.cells.length, 0);
  if (given > MAX_CELLS) throw invalidRequest(`a correction gives at most ${MAX_CELLS} table cells, not ${given}`, { field: 'tables', limit: MAX_CELLS });
  (body.tables ?? []).forEach((t, i) => {
    const table = tables[t.index];
    if (!table) throw invalidRequest(`tables[${i}].index: the document has ${tables.length} tables`, { field: `tables[${i}].index` });
    const keys = new Set(table.cells.map((c) => cellKey(c.row, c.col)));
    t.cells.forEach((c, j) => {
      if (!keys.has(cellKey(c.row, c.col))) throw invalidRequest(`tables[${i}].cells[${j}]: table ${t.index} has no cell at row ${c.row}, column ${c.col}`, { field: `tables[${i}].cells[${j}]` });
    });
  });
}

/** The key of a cell in a table's edits. */
export const cellKey = (row: number, col: number): string => `${row},${col}`;

/** A table's corrected cell texts by `row,col`. */
export const cellEdits = (cells: { row: number; col: number; text: string }[]): Map<string, string> => new Map(cells.map((c) => [cellKey(c.row, c.col), c.text]));

/**
 * `prev` with the body laid over it: fields one by one, line items replaced, table cells one by
 * one by key (a cell given again replaces its text; a cell given the engine's own text is no
 * correction and is left out), in time linear in the cells.
 */
export function mergeCorrection(prev: Correction, fields: Map<string, CorrectedField | null>, body: CorrectionBody, engineTables: readonly Table[]): Correction {
  const next: Correction = { fields: { ...prev.fields }, line_items: prev.line_items, tables: [] };
  for (const [k, v] of fields) next.fields[k] = v;
  if (body.line_items !== undefined) next.line_items = body.line_items;
  const byIndex = new Map(prev.tables.map((t) => [t.index, cellEdits(t.cells)]));
  for (const t of body.tables ?? []) {
    let edits = byIndex.get(t.index);
    if (!edits) byIndex.set(t.index, (edits = new Map()));
    const engine = cellEdits(engineTables[t.index]?.cells ?? []);
    for (const c of t.cells) {
      const key = cellKey(c.row, c.col);
      if (engine.get(key) === c.text) edits.delete(key);
      else edits.set(key, c.text);
    }
  }
  for (const [index, edits] of [...byIndex].sort((a, b) => a[0] - b[0])) {
    if (!edits.size) continue;
    const cells = [...edits].map(([key, text]) => {
      const [row, col] = key.split(',').map(Number) as [number, number];
      return { row, col, text };
    });
    next.tables.push({ index, cells });
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

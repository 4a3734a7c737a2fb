/**
 * Named component schemas for the OpenAPI document. @fastify/swagger inlines every route's
 * response schema; here each occurrence of a contract shape (src/contract/schemas.ts) is moved
 * to `components.schemas` under its API.md name and replaced by a `$ref`, so a generated client
 * gets `Batch`, `DocumentResult`, `LineItem`, … as types of their own. Shapes are matched by
 * structure (ignoring descriptions, which the route schemas may add or drop), inner shapes first,
 * so `DocumentResult` refers to `Table`, which refers to `Cell`.
 */
import {
  BatchListSchema,
  BatchResultsSchema,
  BatchSchema,
  CellSchema,
  CountsSchema,
  DocumentResultSchema,
  DocumentSchema,
  ErrorSchema,
  FieldSchema,
  FieldsSchema,
  KeyValuePairSchema,
  LineItemSchema,
  ProcessingErrorSchema,
  ProcessResponseSchema,
  TableSchema,
  TotalsSchema,
  UploadResponseSchema,
} from '../contract/schemas.js';

type Json = Record<string, any>;

/** Inner shapes before the shapes that hold them. */
const NAMED: Array<[string, unknown]> = [
  ['ProcessingError', ProcessingErrorSchema],
  ['Counts', CountsSchema],
  ['Cell', CellSchema],
  ['Table', TableSchema],
  ['LineItem', LineItemSchema],
  ['Totals', TotalsSchema],
  ['Field', FieldSchema],
  ['KeyValuePair', KeyValuePairSchema],
  ['Fields', FieldsSchema],
  ['Document', DocumentSchema],
  ['Batch', BatchSchema],
  ['DocumentResult', DocumentResultSchema],
  ['BatchList', BatchListSchema],
  ['BatchResults', BatchResultsSchema],
  ['UploadResponse', UploadResponseSchema],
  ['ProcessResponse', ProcessResponseSchema],
  ['Error', ErrorSchema],
];

/** A key equal for two schemas of the same structure: sorted keys, no descriptions, and a
 * catch-all `patternProperties` written as `additionalProperties` (as the document has it). */
function shapeKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(shapeKey).join(',')}]`;
  if (!v || typeof v !== 'object') return JSON.stringify(v);
  const o = { ...(v as Json) };
  delete o.description;
  if (o.patternProperties && Object.keys(o.patternProperties).join() === '^.*$') {
    o.additionalProperties = o.patternProperties['^.*$'];
    delete o.patternProperties;
  }
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${shapeKey(o[k])}`)
    .join(',')}}`;
}

/** `node` with every named shape below it (and, unless `keepRoot`, itself) replaced by a `$ref`;
 * `found` collects each name's schema (its own inner shapes already referenced). */
function refer(node: unknown, names: Map<string, string>, found: Map<string, Json>, keepRoot = false): unknown {
  if (Array.isArray(node)) return node.map((x) => refer(x, names, found));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = refer(v, names, found);
  if (keepRoot) return out;
  const name = names.get(shapeKey(out));
  if (!name) return out;
  if (!found.has(name)) found.set(name, out);
  return { $ref: `#/components/schemas/${name}` };
}

/** Moves the contract's shapes in `doc` (changed in place) to `components.schemas`. */
export function nameSchemas(doc: Json): Json {
  const names = new Map<string, string>();
  const unused = new Map<string, Json>();
  for (const [name, schema] of NAMED) {
    names.set(shapeKey(refer(JSON.parse(JSON.stringify(schema)), names, unused, true)), name);
  }
  const found = new Map<string, Json>();
  doc.paths = refer(doc.paths ?? {}, names, found, true);
  doc.components ??= {};
  doc.components.schemas = { ...doc.components.schemas };
  for (const [name] of NAMED) if (found.has(name)) doc.components.schemas[name] = found.get(name);
  return doc;
}

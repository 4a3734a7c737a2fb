/**
 * TypeBox schemas of API.md §4 and §5, and the TypeScript types derived from them (the one
 * definition of each shape: the API, the client and the webhooks use these). They validate requests, serialise responses
 * (fast-json-stringify drops what a schema does not name, so these are complete) and generate
 * /openapi.json. Nullable fields use JSON Schema type arrays (`["string","null"]`), which
 * OpenAPI 3.1 accepts and fast-json-stringify serialises without the per-call `anyOf` check
 * that costs ~2 µs a field on the status path.
 */
import { Type, type Static, type TSchema } from '@fastify/type-provider-typebox';
import { PROCESSING_ERROR_CODES, type ProcessingError } from '../domain/errors.js';
import { PUBLIC_STATUSES } from '../domain/status.js';
import { BATCH_NAME_RE } from '../domain/names.js';
import { DOCUMENT_TYPES, FIELD_NAMES, FIELD_SOURCES, WARNING_CODES, type DocumentType, type FieldName, type FieldSource, type Warning } from '../extract/types.js';

const nullable = <T>(type: 'string' | 'integer' | 'number', extra: Record<string, unknown> = {}) =>
  Type.Unsafe<T | null>({ type: [type, 'null'], ...extra });

const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 UTC with milliseconds' });
const NullableTimestamp = nullable<string>('string', { format: 'date-time' });
const Status = Type.Unsafe<(typeof PUBLIC_STATUSES)[number]>({ type: 'string', enum: [...PUBLIC_STATUSES] });
export const BBox = Type.Unsafe<[number, number, number, number]>(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[x0, y0, x1, y1], origin top-left' }));

export const ProcessingErrorSchema = Type.Unsafe<ProcessingError | null>({
  type: ['object', 'null'],
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', enum: [...PROCESSING_ERROR_CODES] },
    message: { type: 'string' },
  },
});

export const CountsSchema = Type.Object({
  queued: Type.Integer(),
  processing: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  canceled: Type.Integer(),
});

export const BatchSchema = Type.Object(
  {
    batch_name: Type.String(),
    status: Status,
    all_done: Type.Boolean(),
    document_count: Type.Integer(),
    counts: CountsSchema,
    awaiting_process: Type.Integer({ description: 'queued documents uploaded since the last process call: they wait for POST …/process, not for a worker' }),
    created_at: Timestamp,
    started_at: NullableTimestamp,
    completed_at: NullableTimestamp,
    webhook_url: nullable<string>('string'),
  },
  { title: 'Batch' },
);

const documentProperties = {
  id: Type.String({ description: 'opaque, prefixed doc_…' }),
  batch_name: Type.String(),
  filename: Type.String(),
  content_type: Type.String({ description: 'sniffed from the bytes' }),
  size_bytes: Type.Integer(),
  sha256: Type.String(),
  page_count: nullable<number>('integer'),
  status: Status,
  created_at: Timestamp,
  started_at: NullableTimestamp,
  completed_at: NullableTimestamp,
  processing_error: ProcessingErrorSchema,
};

export const DocumentSchema = Type.Object(documentProperties, { title: 'Document' });

export const CellSchema = Type.Object({
  row: Type.Integer(),
  col: Type.Integer(),
  row_span: Type.Integer(),
  col_span: Type.Integer(),
  text: Type.String(),
  bbox: BBox,
  confidence: nullable<number>('number'),
});

export const TableSchema = Type.Object({
  page: Type.Integer(),
  pages: Type.Array(Type.Integer(), { description: 'every page a stitched table spans' }),
  bbox: BBox,
  n_rows: Type.Integer(),
  n_cols: Type.Integer(),
  header_rows: Type.Integer(),
  cells: Type.Array(CellSchema),
});

export const LineItemSchema = Type.Object({
  table_index: Type.Integer(),
  row: Type.Integer(),
  description: nullable<string>('string'),
  quantity: nullable<number>('number'),
  unit_price: nullable<number>('number'),
  amount: nullable<number>('number'),
  currency: nullable<string>('string'),
  cells: Type.Record(Type.String(), Type.String()),
  page: Type.Integer(),
  bbox: BBox,
  flags: Type.Array(Type.String()),
  source: Type.Unsafe<'engine' | 'embedded'>({ type: 'string', enum: ['engine', 'embedded'], description: "read from the page's table, or a line of the e-invoice XML" }),
});

export const TotalsSchema = Type.Object({
  subtotal: nullable<number>('number'),
  tax: nullable<number>('number'),
  total: nullable<number>('number'),
  currency: nullable<string>('string'),
  flags: Type.Array(Type.String()),
});

const nullableOf = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }] });

export const FieldSchema = Type.Object(
  {
    value: Type.Unsafe<string | number>({ type: ['string', 'number'], description: 'typed: a number, an ISO date, a code or text' }),
    text: Type.String({ description: 'the raw words it was read from' }),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    page: Type.Integer(),
    bbox: BBox,
    source: Type.Unsafe<FieldSource>({
      type: 'string',
      enum: [...FIELD_SOURCES],
      description: "the engine's reading, a reading the vendor's memory taught, a person's correction, or what the document carries: its e-invoice XML (embedded), a payment QR code (barcode), a PDF form field (form)",
    }),
    corrected: Type.Boolean({ description: 'true when a person corrected it' }),
  },
  { title: 'Field' },
);

const TextBox = Type.Object({ text: Type.String(), bbox: BBox });
const ValueBox = Type.Object({
  text: Type.String(),
  bbox: BBox,
  selected: Type.Optional(Type.Boolean({ description: "a checkbox's or radio button's state" })),
});

export const KeyValuePairSchema = Type.Object(
  {
    key: TextBox,
    value: ValueBox,
    page: Type.Integer(),
    bbox: BBox,
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    source: Type.Unsafe<'page' | 'form' | 'barcode'>({ type: 'string', enum: ['page', 'form', 'barcode'], description: "printed on the page, a PDF form field, or a payment code's content" }),
  },
  { title: 'KeyValuePair' },
);

export const WarningSchema = Type.Object(
  {
    code: Type.Unsafe<Warning['code']>({ type: 'string', enum: [...WARNING_CODES] }),
    field: nullable<FieldName>('string'),
    message: Type.String(),
    printed: Type.Unsafe<Warning['printed']>({
      type: ['object', 'null'],
      required: ['text', 'page', 'bbox'],
      properties: { text: { type: 'string' }, page: { type: 'integer' }, bbox: BBox },
      description: 'what the page prints for the field, and where',
    }),
  },
  { title: 'Warning' },
);

export const FieldsSchema = Type.Object(
  {
    ...(Object.fromEntries(FIELD_NAMES.map((n) => [n, nullableOf(FieldSchema)])) as Record<FieldName, ReturnType<typeof nullableOf<typeof FieldSchema>>>),
    custom: Type.Optional(Type.Record(Type.String(), nullableOf(FieldSchema), { description: "the processing run's custom fields by name" })),
  },
  { title: 'Fields' },
);

export const DocumentResultSchema = Type.Object(
  {
    ...documentProperties,
    document_type: Type.Unsafe<DocumentType | null>({ type: ['string', 'null'], enum: [...DOCUMENT_TYPES, null] }),
    fields: nullableOf(FieldsSchema),
    key_value_pairs: nullableOf(Type.Array(KeyValuePairSchema)),
    line_items: nullableOf(Type.Array(LineItemSchema)),
    tables: nullableOf(Type.Array(TableSchema)),
    totals: nullableOf(TotalsSchema),
    warnings: nullableOf(Type.Array(WarningSchema)),
  },
  { title: 'DocumentResult' },
);

export const BatchListSchema = Type.Object({ batches: Type.Array(BatchSchema), next_cursor: nullable<string>('string') });

export const BatchResultsSchema = Type.Object({
  batch_name: Type.String(),
  status: Status,
  all_done: Type.Boolean(),
  created_at: Timestamp,
  started_at: NullableTimestamp,
  completed_at: NullableTimestamp,
  documents: Type.Array(DocumentResultSchema),
  next_cursor: nullable<string>('string'),
});

export const UploadResponseSchema = Type.Object({ batch_name: Type.String(), documents: Type.Array(DocumentSchema) });

export const ProcessResponseSchema = Type.Object({ batch_name: Type.String(), submitted: Type.Integer(), batch: BatchSchema });

export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      request_id: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { title: 'Error' },
);

export const BatchNameParams = Type.Object({
  batch_name: Type.String({ pattern: BATCH_NAME_RE.source }),
});

export const DocumentIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

/** `?limit&cursor` of the paginated lists; cursors are opaque to clients. */
export const PageQuery = (defaultLimit: number) =>
  Type.Object({
    limit: Type.Integer({ minimum: 1, maximum: 200, default: defaultLimit }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  });

/** `?format` of the results routes; non-JSON formats are served by registered exporters. */
export const ResultsQuery = (defaultLimit: number) =>
  Type.Object({
    limit: Type.Integer({ minimum: 1, maximum: 200, default: defaultLimit }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    format: Type.Unsafe<'json' | 'csv' | 'xlsx' | 'ndjson' | 'zip'>({ type: 'string', enum: ['json', 'csv', 'xlsx', 'ndjson', 'zip'], default: 'json' }),
  });

/** The error answers every authenticated route can give, for the OpenAPI document. */
export const errorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  404: ErrorSchema,
  500: ErrorSchema,
};

export type Batch = Static<typeof BatchSchema>;
export type Document = Static<typeof DocumentSchema>;
export type DocumentResult = Static<typeof DocumentResultSchema>;
export type Table = Static<typeof TableSchema>;
export type LineItem = Static<typeof LineItemSchema>;
export type Totals = Static<typeof TotalsSchema>;
export type BatchList = Static<typeof BatchListSchema>;
export type BatchResults = Static<typeof BatchResultsSchema>;
export type UploadResponse = Static<typeof UploadResponseSchema>;
export type ProcessResponse = Static<typeof ProcessResponseSchema>;
export type ErrorBody = Static<typeof ErrorSchema>;

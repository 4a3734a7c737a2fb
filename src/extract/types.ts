/**
 * The engine's data model. Page units: PDF points for PDFs, pixels for images; origin top-left,
 * y grows downward. Every path (digital PDF, raster/OCR) produces `PageLayout`s; one layout
 * algorithm turns them into `Table`s.
 */
import type { ProcessingErrorCode } from '../domain/errors.js';

/** [x0, y0, x1, y1], x0 ≤ x1, y0 ≤ y1, origin top-left. */
export type BBox = [number, number, number, number];

/** An axis-aligned box given by its edges in page units (x0 ≤ x1, y0 ≤ y1, origin top-left). */
export interface Edges {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Text's box and its size. */
export interface TextBox extends Edges {
  /** Font size in page units (height of the glyph run), used to scale gap thresholds. */
  size: number;
}

/** A word with its box; `confidence` is 0..1 from OCR, null from a text layer. */
export interface Word extends TextBox {
  text: string;
  confidence: number | null;
  /**
   * How far the text is turned clockwise on the page, in degrees: 90 reads downwards, 270
   * upwards, 180 upside down. Absent: upright (or unknown, as from OCR).
   */
  rotation?: Rotation;
}

export type Rotation = 0 | 90 | 180 | 270;

/**
 * An OCR'd word read below this confidence is unsure: an item read from one is flagged for a
 * person to check. (A line with a word below 0.9 is read again by PP-OCR, raster/ocr-vote.ts: that
 * is where a second reading pays, a higher bar than a word being unsure.)
 */
export const UNSURE_WORD = 0.6;

/** An OCR'd word read at this confidence or more is sure; below it a second reading pays. */
export const SURE_WORD = 0.9;

/** A horizontal (y0 === y1) or vertical (x0 === x1) ruling line segment. */
export interface Ruling {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What the layout algorithm sees of one page. `page` is 1-based. */
export interface PageLayout {
  page: number;
  width: number;
  height: number;
  words: Word[];
  rulings: Ruling[];
  /**
   * Graphics found in an image's pixels (the curves of a chart, a drawing): a whitespace table
   * lying mostly inside one is the figure's labels, not a table. Unset for text layers.
   */
  figures?: BBox[];
  /**
   * Page units per typographic point: an image's pixels at its resolution (2.78 at 200 dpi).
   * Unset for points (text layers, rendered PDF pages).
   */
  unitsPerPoint?: number;
}

/** A cell of API.md §4. `row`/`col` are 0-based. */
export interface Cell {
  row: number;
  col: number;
  row_span: number;
  col_span: number;
  text: string;
  bbox: BBox;
  confidence: number | null;
}

/** A table of API.md §4. `pages` lists every page a stitched table spans (first = `page`). */
export interface Table {
  page: number;
  pages: number[];
  bbox: BBox;
  n_rows: number;
  n_cols: number;
  header_rows: number;
  cells: Cell[];
}

export interface LineItem {
  table_index: number;
  row: number;
  description: string | null;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
  currency: string | null;
  cells: Record<string, string>;
  page: number;
  bbox: BBox;
  flags: string[];
  /** `embedded`: a line of the document's e-invoice XML; unset: read from the page's table. */
  source?: 'engine' | 'embedded';
}

export interface Totals {
  subtotal: number | null;
  tax: number | null;
  total: number | null;
  currency: string | null;
  flags: string[];
}

/** What kind of document it is (API.md §4): only the first three have line items. */
export type DocumentType = 'invoice' | 'receipt' | 'bank_statement' | 'other';
export const DOCUMENT_TYPES: readonly DocumentType[] = ['invoice', 'receipt', 'bank_statement', 'other'];

/** One document-level value: typed `value`, the raw `text` it was read from, where, and how sure (0–1). */
export interface Field<T = string | number> {
  value: T;
  text: string;
  confidence: number;
  page: number;
  bbox: BBox;
  /** Where the value came from; unset means the engine's own reading (API.md §4b). */
  source?: FieldSource;
  /** True only for a value a person corrected; false when absent. */
  corrected?: boolean;
}

/** A label and the value printed with it (API.md §4 `key_value_pairs`): on its line, under it, or in a block beside it. */
export interface KeyValuePair {
  key: { text: string; bbox: BBox };
  /** `selected`: a checkbox's or radio button's state (API.md §4c); absent for text. */
  value: { text: string; bbox: BBox; selected?: boolean };
  page: number;
  /** Box around key and value. */
  bbox: BBox;
  confidence: number;
  /** Where the pair came from: the page's print (unset means the same), a PDF form field, a payment code. */
  source?: 'page' | 'form' | 'barcode';
}

/**
 * `engine`: read by the rules; `vendor_memory`: read the way a correction taught; `correction`:
 * typed by a person; `embedded`, `barcode`, `form`: what the document carries (API.md §4c).
 */
export type FieldSource = 'engine' | 'vendor_memory' | 'correction' | 'embedded' | 'barcode' | 'form';
export const FIELD_SOURCES: readonly FieldSource[] = ['engine', 'vendor_memory', 'correction', 'embedded', 'barcode', 'form'];

/** A disagreement or a failure worth a reader's eye (API.md §4c `warnings`). */
export interface Warning {
  code: 'embedded_mismatch' | 'embedded_invalid' | 'barcode_mismatch';
  field: FieldName | null;
  message: string;
  /** What the page prints for the field, and where. */
  printed: { text: string; page: number; bbox: BBox } | null;
}
export const WARNING_CODES: readonly Warning['code'][] = ['embedded_mismatch', 'embedded_invalid', 'barcode_mismatch'];

/** A field a processing run asks for by its labels (API.md §4b custom fields). */
export interface CustomFieldSpec {
  name: string;
  labels: string[];
  type: CustomFieldType;
}
export type CustomFieldType = 'text' | 'number' | 'date' | 'amount';

/** Names of the document-level fields of API.md §4, in the order exports list them. */
export const FIELD_NAMES = [
  'invoice_number',
  'issue_date',
  'due_date',
  'currency',
  'total',
  'subtotal',
  'tax',
  'amount_due',
  'vendor_name',
  'vendor_tax_id',
  'vendor_address',
  'customer_name',
  'iban',
  'order_number',
  'payment_terms',
  'account_number',
  'period_start',
  'period_end',
  'opening_balance',
  'closing_balance',
] as const;

export type FieldName = (typeof FIELD_NAMES)[number];

/** The fields that hold an amount of money (a number), in the order of `FIELD_NAMES`. */
export const MONEY_FIELDS = ['total', 'subtotal', 'tax', 'amount_due', 'opening_balance', 'closing_balance'] as const satisfies readonly FieldName[];
/** The fields that hold a date (ISO `YYYY-MM-DD`), in the order of `FIELD_NAMES`. */
export const DATE_FIELDS = ['issue_date', 'due_date', 'period_start', 'period_end'] as const satisfies readonly FieldName[];

/** Every field of API.md §4, null where the document does not show it. */
export type Fields = Record<FieldName, Field | null>;

/** The engine's output: the `DocumentResult` fields it owns. */
export interface ExtractResult {
  page_count: number;
  document_type: DocumentType;
  fields: Fields;
  key_value_pairs: KeyValuePair[];
  tables: Table[];
  line_items: LineItem[];
  totals: Totals | null;
  /** Set once what the document carries has been read (`[]`: nothing to warn of). */
  warnings?: Warning[];
  /** The run's custom fields by name (API.md §4b), when it asked for any. */
  custom_fields?: Record<string, Field | null>;
  /** Which vendor memory read some fields (its id), when one did. Internal, not in the public shape. */
  vendor_memory_id?: string;
  /**
   * The words of the pages a correction may point at (internal: the worker stores them apart from
   * the result, and never in it), so a correction can be learned from without reading the file again.
   */
  words?: StoredPage[];
}

/** A page's words kept for learning: `[text, x0, y0, x1, y1]` each, rounded to a tenth. */
export interface StoredPage {
  page: number;
  width: number;
  height: number;
  words: [string, number, number, number, number][];
}

/** Order of day, month and year in an all-numeric date. */
export type DateOrder = 'dmy' | 'mdy' | 'ymd';

/** What kind of value a field holds: how its text is read and compared. */
export type ValueKind = 'number' | 'date' | 'text';

/** How a vendor's memory reads one field: where its value stood, or the value itself. */
export interface FieldRule {
  kind: ValueKind;
  /** How dates are printed (day first or month first): learned from the corrected value. */
  order?: DateOrder;
  /** For the vendor's own name, address, tax id, IBAN, currency and payment terms: the value itself, the same on every document. */
  constant?: string | number;
  /** For a date, the year of the one corrected: a year OCR misread on a later document is read near it. */
  year?: number;
  /** Where it was printed: at most `MAX_ANCHORS` (memory/memory.ts), newest first. */
  anchors: Anchor[];
  /** The constant's place when it was learned (page 1 or last), for its box when it cannot be found again. */
  bbox?: BBox;
}

/**
 * A vendor's memory (learned in src/extract/memory/ from a person's corrections): how to recognise
 * the vendor, and for each field corrected, where its value stood or, for what identifies the
 * vendor itself, the value. Stored per account, and handed to the engine in `ExtractOptions`.
 */
export interface VendorMemory {
  id: string;
  name: string;
  /** The name came from a correction (else it is the engine's reading). */
  nameTaught?: boolean;
  /** Identifiers printed on the vendor's documents (tax id, IBAN), letters and digits only. */
  ids: string[];
  /** Registration numbers printed in the head (company number, GST or VAT id), their digits only. */
  regs?: string[];
  /** Words of the head of the first page: the layout's fingerprint. */
  tokens: string[];
  /** By field key (`total`, `custom.po_number`). */
  fields: Record<string, FieldRule>;
}

/** Where a value stood: the context a memory keeps of it (texts normalised, position 0–1 on the page). */
export interface Anchor {
  /** Which page: the first or the last (the foot of a multi-page document). */
  at: 'first' | 'last';
  left: string;
  above: string;
  right: string;
  x: number;
  y: number;
  /** How many words the value had. */
  n: number;
}

export interface ExtractOptions {
  /** Refuse documents with more pages (too_many_pages), checked before parsing pages. */
  maxPages: number;
  /** Refuse page images larger than this many megapixels (image_too_large), from the header. */
  maxMegapixels: number;
  /**
   * Bytes that a PDF's Flate streams other than images may inflate to, all together
   * (resource_limit): a 2 MB stream can inflate to gigabytes, and pdf.js holds a content stream
   * whole. Images are bounded by `maxMegapixels` instead.
   */
  maxInflatedBytes: number;
  /** Tesseract language string, e.g. `eng+deu`. */
  ocrLangs: string;
  /**
   * `auto` (default): libtesseract in-process where our addon is built with the languages, else
   * the `tesseract` program where installed, else tesseract.js; a page it reads unsure all over
   * (faint or dot-matrix print) is read by PP-OCR too and the words voted; `native`: the addon, else the
   * program (an error when neither has the languages); `program`: always the `tesseract`
   * program; `js`: always tesseract.js. `paddle`: PP-OCRv4 (detector and recogniser on
   * onnxruntime); `vote`: Tesseract and PP-OCR both read the page and the words are voted;
   * `recheck`: PP-OCR's recogniser reads again only the lines Tesseract was unsure of; `fast`:
   * Tesseract alone as `auto` picks it, on every page (docs/ocr.md: what each costs and reads).
   */
  ocrEngine: OcrEngine;
  /**
   * When the document's time limit ends (epoch ms): in-process OCR stops there rather than at the
   * end of its page, so a thread terminated for the limit is gone at once. Unset: no limit.
   */
  deadlineAt?: number;
  /** Fields to find by their labels besides the built-in ones (`custom_fields` of the run). */
  customFields?: CustomFieldSpec[];
  /** The account's vendor memories; the engine picks the one that matches. */
  vendorMemory?: VendorMemory[];
  /**
   * `use` (default): read what the document carries (e-invoice XML, payment codes, form fields)
   * and check it against the print; `ignore`: read the page alone.
   */
  embedded?: 'use' | 'ignore';
  /** Told of each OCR run (a page, or a page's second look) with its engine and time (metrics). */
  onOcr?: (engine: 'addon' | 'program' | 'js' | 'paddle', ms: number) => void;
}

/** Which Tesseract build reads raster pages. */
export type OcrEngine = 'auto' | 'fast' | 'js' | 'native' | 'program' | 'paddle' | 'vote' | 'recheck';
export const OCR_ENGINES: readonly OcrEngine[] = ['auto', 'fast', 'js', 'native', 'program', 'paddle', 'vote', 'recheck'];

export const DEFAULT_EXTRACT_OPTIONS: ExtractOptions = {
  maxPages: 100,
  maxMegapixels: 50,
  maxInflatedBytes: 256 * 1024 * 1024,
  ocrLangs: 'eng',
  ocrEngine: 'auto',
};

/**
 * A document the engine cannot read. The code is a `processing_error` code; plain objects of
 * this shape survive the worker-thread boundary (see `toExtractError`).
 */
export class ExtractError extends Error {
  constructor(
    readonly code: ProcessingErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractError';
  }
}

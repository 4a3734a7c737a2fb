/**
 * A vendor's memory: how to recognise the vendor, and for each field a person corrected, where
 * its value stood (its anchors) or, for what identifies the vendor itself, the value. Learned from
 * one correction; a later correction of the same vendor adds anchors. Bounded: a few KB.
 */
import type { DateOrder } from '../locale/dates.js';
import type { BBox, Field, StoredPage } from '../types.js';
import { occurrences, type Anchor } from './spans.js';
import { kindOf, norm, pageLines, type Kind } from './words.js';

export interface FieldRule {
  kind: Kind;
  /** How dates are printed (day first or month first): learned from the corrected value. */
  order?: DateOrder;
  /** For the vendor's own name, address, tax id and IBAN: the value itself, the same on every document. */
  constant?: string | number;
  /** Where it was printed: at most `MAX_ANCHORS`, newest first. */
  anchors: Anchor[];
  /** The constant's place when it was learned (page 1 or last), for its box when it cannot be found again. */
  bbox?: BBox;
}

export interface VendorMemory {
  id: string;
  name: string;
  /** Identifiers printed on the vendor's documents (tax id, IBAN), letters and digits only. */
  ids: string[];
  /** Words of the head of the first page: the layout's fingerprint. */
  tokens: string[];
  /** By field key (`total`, `custom.po_number`). */
  fields: Record<string, FieldRule>;
}

const MAX_ANCHORS = 3;
const MAX_TOKENS = 60;
const MAX_BYTES = 8 * 1024;
/** Fields that name the vendor: the same value on every document of it. */
const IDENTITY = new Set(['vendor_name', 'vendor_address', 'vendor_tax_id', 'iban']);

/** The head of the first page as a set of words (letters, 3 or more): what stays when amounts and dates move. */
export function headTokens(pages: StoredPage[]): string[] {
  const p = pages[0];
  if (!p) return [];
  const out = new Set<string>();
  for (const line of pageLines(p)) {
    if (line.words[0]!.y0 > p.height * 0.3) break;
    for (const w of line.words) for (const t of norm(w.text).split(' ')) if (t.length >= 3 && /^\p{L}+$/u.test(t) && out.size < MAX_TOKENS) out.add(t);
  }
  return [...out];
}

export const idKey = (s: string): string => s.normalize('NFKC').toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Corrected values by field key, and the run's custom field types. */
export interface Taught {
  values: Map<string, string | number>;
  customTypes: Map<string, string>;
}

/**
 * `prev` (or a new memory `id`) taught by a correction of a document whose pages are `pages` and
 * whose engine fields are `engine`.
 */
export function learn(prev: VendorMemory | null, id: string, pages: StoredPage[], engine: Record<string, Field | null>, taught: Taught): VendorMemory {
  const mem: VendorMemory = prev ? { ...prev, fields: { ...prev.fields } } : { id, name: '', ids: [], tokens: [], fields: {} };
  mem.tokens = headTokens(pages);
  const name = taught.values.get('vendor_name') ?? engine.vendor_name?.value;
  if (name !== undefined) mem.name = String(name);
  const ids = new Set(mem.ids);
  for (const k of ['vendor_tax_id', 'iban']) {
    const v = taught.values.get(k) ?? engine[k]?.value;
    if (v !== undefined && idKey(String(v)).length >= 6) ids.add(idKey(String(v)));
  }
  mem.ids = [...ids].slice(-4);
  for (const [key, value] of taught.values) {
    const kind = kindOf(key, taught.customTypes.get(key.slice(7)));
    const found = occurrences(pages, kind, value);
    const best = found[0];
    const old = mem.fields[key];
    if (IDENTITY.has(key)) {
      mem.fields[key] = { kind, constant: value, anchors: [], bbox: best?.span.bbox ?? old?.bbox };
      continue;
    }
    if (!best) continue;
    const anchors = [best.anchor, ...(old?.kind === kind ? old.anchors : [])].filter((a, i, all) => all.findIndex((b) => JSON.stringify(b) === JSON.stringify(a)) === i);
    mem.fields[key] = { kind, order: best.order ?? old?.order, anchors: anchors.slice(0, MAX_ANCHORS) };
  }
  return bounded(mem);
}

/** Drops the oldest anchors, then the fingerprint's tail, until the memory fits `MAX_BYTES`. */
function bounded(mem: VendorMemory): VendorMemory {
  while (JSON.stringify(mem).length > MAX_BYTES) {
    const rule = Object.values(mem.fields).find((r) => r.anchors.length > 1);
    if (rule) rule.anchors.pop();
    else if (mem.tokens.length > 10) mem.tokens = mem.tokens.slice(0, mem.tokens.length - 10);
    else break;
  }
  return mem;
}

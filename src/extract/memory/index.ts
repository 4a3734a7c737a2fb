/**
 * Vendor memory and custom fields (API.md §4b), pure: learning from a correction (`learn`),
 * recognising the vendor of a document among an account's memories (`identify`), reading fields
 * the way a memory says (`readWithMemory`), and the engine's step that does all of it (`teach`).
 */
import type { CustomFieldSpec, DateOrder, ExtractResult, Field, PageLayout, StoredPage, ValueKind, VendorMemory } from '../types.js';
import { readCustomFields } from './custom.js';
import { carryCurrency } from '../document/currency.js';
import { identify, readWithMemory } from './read.js';
import { locateValue as locate } from './spans.js';
import { learn, type Taught } from './memory.js';
import { keepWords, kindOf, norm, similarity } from './words.js';

export { learn, type Taught } from './memory.js';
export type { FieldRule, VendorMemory } from '../types.js';
export { identify, readWithMemory, lostDateLines, dateOfLine, type LostLine } from './read.js';
export { keepWords, kindOf } from './words.js';
export { readCustomFields } from './custom.js';

/** Where `value` of field `key` is printed on stored pages. */
export function locateValue(pages: Parameters<typeof locate>[0], key: string, value: string | number, customType?: string): ReturnType<typeof locate> {
  const kind: ValueKind = kindOf(key, customType);
  return locate(pages, value, kind);
}

/**
 * The memory a correction teaches, taught: the one the engine read the document with, else the
 * one its pages are recognised as, else the one of a vendor of the corrected name (a document
 * that read too badly to be recognised adds to its vendor's memory, its head not taken as the
 * fingerprint, instead of making a second memory), else a new one `newId`.
 */
export function teachVendor(memories: VendorMemory[], usedId: string | undefined, pages: StoredPage[], engine: Record<string, Field | null>, taught: Taught, newId: string): VendorMemory {
  const name = taught.values.get('vendor_name');
  // A memory whose taught name the correction contradicts is another vendor's (a shop of the same chain, on the same head): never renamed and merged into it.
  const sameVendor = (m: VendorMemory) => name === undefined || !m.nameTaught || alikeNames(m.name, String(name));
  const used = [memories.find((m) => m.id === usedId), identify(memories.filter(sameVendor), pages)].find((m) => m && sameVendor(m));
  if (used) return learn(used, used.id, pages, engine, taught);
  const named = name === undefined ? undefined : memories.find((m) => m.name && alikeNames(m.name, String(name)));
  return named ? learn(named, named.id, pages, engine, taught, { keepHead: true }) : learn(null, newId, pages, engine, taught);
}

/** Two spellings of one vendor's name (`AEON CO. (M) BHD`, `AEON CO (M) BHD`), not two companies of a chain (`MR. D.I.Y. (M)`, `MR. D.I.Y. (KUCHAI)`). */
export const alikeNames = (a: string, b: string): boolean => similarity(norm(a).replace(/ /g, ''), norm(b).replace(/ /g, '')) >= 0.9;

const TOTALS = ['subtotal', 'tax', 'total'];

/**
 * The engine's last step: the run's custom fields, then the vendor's memory over the engine's
 * fields (its labelled readings win, except over amounts of the engine's that add up; its
 * fallbacks only fill what the engine left empty; what it does not read stays the engine's), and
 * the words kept for learning from a later correction.
 */
export function teach(result: ExtractResult, layouts: PageLayout[], opts: { customFields?: CustomFieldSpec[]; vendorMemory?: VendorMemory[]; order?: DateOrder }): ExtractResult {
  const words = keepWords(layouts);
  const out: ExtractResult = { ...result, words };
  if (opts.customFields?.length) out.custom_fields = readCustomFields(layouts, opts.customFields, opts.order);
  const mem = opts.vendorMemory?.length ? identify(opts.vendorMemory, words) : null;
  if (!mem) return out;
  const { read, unlabelled } = readWithMemory(mem, words);
  const fields = { ...out.fields } as Record<string, Field | null>;
  const custom = out.custom_fields ? { ...out.custom_fields } : undefined;
  const put = (key: string, f: Field, onlyIfNone: boolean) => {
    const [into, k] = key.startsWith('custom.') ? [custom, key.slice(7)] : [fields, key];
    if (!into || !(k in into) || (onlyIfNone && into[k])) return;
    // A value not found on these pages (a currency printed as `RM`) stands where the engine read it, if it did.
    const was = into[k];
    into[k] = f.bbox.every((v) => v === 0) && was ? { ...f, page: was.page, bbox: was.bbox } : f;
  };
  // Amounts the engine read that add up (subtotal + tax = total) stand: a memory's anchor may sit on a neighbouring amount of another layout edition.
  const added = TOTALS.every((k) => typeof fields[k]?.value === 'number') && Math.abs(Number(fields.subtotal!.value) + Number(fields.tax!.value) - Number(fields.total!.value)) < 0.005;
  for (const [key, f] of Object.entries(read)) put(key, f, added && TOTALS.includes(key));
  for (const [key, f] of Object.entries(unlabelled)) put(key, f, true);
  const from = (out.fields.currency?.value as string | undefined) ?? out.totals?.currency ?? null;
  const to = fields.currency?.source === 'vendor_memory' ? String(fields.currency.value) : null;
  const money = to && to !== from ? carryCurrency(out.line_items, out.totals, from, to) : {};
  return { ...out, ...money, fields: fields as ExtractResult['fields'], custom_fields: custom, vendor_memory_id: mem.id };
}

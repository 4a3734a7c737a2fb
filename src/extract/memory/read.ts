/**
 * Recognising a vendor among an account's memories, and reading a document the way its memory
 * says: each learned field from the span whose surroundings best match where the value stood
 * before, or the vendor's constant value. What no memory rule reads, the engine's reading keeps.
 */
import type { BBox, Field, StoredPage } from '../types.js';
import { anchorOf, anchorScore, spans, valueOf, occurrences, type Anchor } from './spans.js';
import { headTokens, idKey, type FieldRule, type VendorMemory } from './memory.js';
import { containment, jaccard, norm, pageLines, similarity, trigrams } from './words.js';

/** Every word of the pages run together, letters and digits only: where an identifier is looked for. */
const allText = (pages: StoredPage[]): string => idKey(pages.flatMap((p) => p.words.map((w) => w[0])).join(''));

/**
 * The memory of the vendor whose document `pages` is, or null: an identifier printed on it, or
 * its name in the head and a head alike, or a head much alike. Heads and names are compared on
 * character trigrams, which two OCR readings of a receipt share where their words differ.
 */
export function identify(memories: VendorMemory[], pages: StoredPage[]): VendorMemory | null {
  const first = pages[0];
  if (!first || !memories.length) return null;
  const all = allText(pages);
  const head = pageLines(first)
    .slice(0, 12)
    .map((l) => norm(l.words.map((w) => w.text).join(' ')));
  const headGrams = trigrams(head.join(' ').split(' '));
  const tokens = trigrams(headTokens(pages));
  let best: { mem: VendorMemory; score: number } | null = null;
  for (const mem of memories) {
    const idHit = mem.ids.some((id) => all.includes(id));
    const name = norm(mem.name);
    // The share of the name's trigrams printed in the head: 1 for the name as learned, less for another shop of a chain.
    const named = name ? containment(trigrams(name.split(' ')), headGrams) : 0;
    const nameHit = !!name && (named >= MIN_NAME || head.some((l, i) => similarity(l, name) >= 0.85 || similarity(`${l} ${head[i + 1] ?? ''}`.trim(), name) >= 0.85));
    const j = jaccard(trigrams(mem.tokens), tokens);
    if (!(idHit || (nameHit && j >= 0.2) || j >= MIN_HEAD)) continue;
    const score = (idHit ? 2 : 0) + named + j;
    if (!best || score > best.score) best = { mem, score };
  }
  return best?.mem ?? null;
}

/** How much of a vendor's name (its trigrams) the head must print. */
const MIN_NAME = 0.7;
/** How alike (trigram Jaccard) two heads must be to be one vendor's without its name: two readings of a receipt 0.4–1, two shops' up to 0.35 on sroie-dev. */
const MIN_HEAD = 0.5;

/**
 * The fields the memory reads on `pages`, by key (`read`); a field it cannot find is left out.
 * `unlabelled`: a date or amount whose label was not found again, read from the span of its kind
 * nearest where it stood, and a learned tax id or IBAN not printed on these pages — for a field
 * the engine found nothing for.
 */
export function readWithMemory(mem: VendorMemory, pages: StoredPage[]): { read: Record<string, Field>; unlabelled: Record<string, Field> } {
  const read: Record<string, Field> = {};
  const unlabelled: Record<string, Field> = {};
  let text: string | null = null;
  const all = () => (text ??= allText(pages));
  for (const [key, rule] of Object.entries(mem.fields)) {
    if (rule.constant !== undefined) {
      const f = constantField(rule, pages);
      // A tax id or IBAN not printed here (spaces aside) is another of the vendor's (another branch or entity): the engine's, if it read one.
      (PRINTED_CODES.has(key) && !all().includes(idKey(String(rule.constant))) ? unlabelled : read)[key] = f;
      continue;
    }
    const f = anchoredField(rule, pages);
    if (f?.labelled) read[key] = f.field;
    else if (f && rule.kind !== 'text') unlabelled[key] = { ...f.field, confidence: 0.5 };
  }
  return { read, unlabelled };
}

/** Constants that are codes, printed exactly where they apply. */
const PRINTED_CODES = new Set(['vendor_tax_id', 'iban']);

function constantField(rule: FieldRule, pages: StoredPage[]): Field {
  const at = occurrences(pages, rule.kind, rule.constant!)[0];
  const bbox: BBox = at?.span.bbox ?? rule.bbox ?? [0, 0, 0, 0];
  return { value: rule.constant!, text: at?.span.text ?? String(rule.constant), confidence: at ? 0.95 : 0.85, page: at?.span.page ?? pages[0]?.page ?? 1, bbox, source: 'vendor_memory' };
}

/** How sure a label match must be before the memory's reading wins over the engine's. */
const MIN_LABEL = 0.7;

function anchoredField(rule: FieldRule, pages: StoredPage[]): { field: Field; labelled: boolean } | null {
  let best: { field: Field; score: number; anchor: Anchor; c: Anchor } | null = null;
  pages.forEach((p, i) => {
    const at = i === 0 ? 'first' : 'last';
    const mine = rule.anchors.filter((a) => a.at === at || pages.length === 1);
    if (!mine.length) return;
    const lines = pageLines(p);
    const maxN = Math.max(...mine.map((a) => a.n)) + 1;
    for (const s of spans(p, lines, maxN)) {
      const value = valueOf(rule.kind, s.text, rule.order ?? 'dmy');
      if (value === null) continue;
      const c = anchorOf(s, lines, p, at);
      for (const a of mine) {
        if (rule.kind === 'text' && c.n !== a.n) continue;
        // A shorter span scores a hair higher: `80.90`, not `RM 80.90`.
        const score = anchorScore(a, c) - 0.01 * c.n;
        if (!best || score > best.score) best = { field: { value, text: s.text, confidence: 0, page: s.page, bbox: s.bbox, source: 'vendor_memory' }, score, anchor: a, c };
      }
    }
  });
  if (!best) return null;
  const { field, score, anchor, c } = best as { field: Field; score: number; anchor: Anchor; c: Anchor };
  const labelled = anchor.left ? similarity(anchor.left, c.left.slice(Math.max(0, c.left.length - anchor.left.length - 2))) >= MIN_LABEL : similarity(anchor.above, c.above) >= 0.6 || Math.abs(anchor.y - c.y) < 0.05;
  return { field: { ...field, confidence: Math.max(0.5, Math.min(0.99, Math.round((score / 4.5) * 100) / 100)) }, labelled };
}

/**
 * Recognising a vendor among an account's memories, and reading a document the way its memory
 * says: each learned field from the span whose surroundings best match where the value stood
 * before, or the vendor's constant value. What no memory rule reads, the engine's reading keeps.
 */
import type { BBox, Field, StoredPage } from '../types.js';
import { anchorOf, anchorScore, spans, valueOf, occurrences, type Anchor } from './spans.js';
import { headTokens, idKey, type FieldRule, type VendorMemory } from './memory.js';
import { norm, pageLines, similarity } from './words.js';

/** The memory of the vendor whose document `pages` is, or null: an identifier printed on it, or its name and head, or its head alone. */
export function identify(memories: VendorMemory[], pages: StoredPage[]): VendorMemory | null {
  const first = pages[0];
  if (!first || !memories.length) return null;
  const all = idKey(pages.flatMap((p) => p.words.map((w) => w[0])).join(''));
  const head = pageLines(first)
    .slice(0, 12)
    .map((l) => norm(l.words.map((w) => w.text).join(' ')));
  const tokens = new Set(headTokens(pages));
  let best: { mem: VendorMemory; score: number } | null = null;
  for (const mem of memories) {
    const idHit = mem.ids.some((id) => all.includes(id));
    const name = norm(mem.name);
    const nameHit = !!name && head.some((l, i) => similarity(l, name) >= 0.85 || similarity(`${l} ${head[i + 1] ?? ''}`.trim(), name) >= 0.85 || (l.length > name.length && l.includes(name)));
    const shared = mem.tokens.filter((t) => tokens.has(t)).length;
    const j = shared / Math.max(1, new Set([...mem.tokens, ...tokens]).size);
    if (!(idHit || (nameHit && j >= 0.2) || j >= 0.6)) continue;
    const score = (idHit ? 2 : 0) + (nameHit ? 1 : 0) + j;
    if (!best || score > best.score) best = { mem, score };
  }
  return best?.mem ?? null;
}

/** The fields the memory reads on `pages`, by key; a field it cannot find is left out. */
export function readWithMemory(mem: VendorMemory, pages: StoredPage[]): Record<string, Field> {
  const out: Record<string, Field> = {};
  for (const [key, rule] of Object.entries(mem.fields)) {
    const f = rule.constant !== undefined ? constantField(rule, pages) : anchoredField(rule, pages);
    if (f) out[key] = f;
  }
  return out;
}

function constantField(rule: FieldRule, pages: StoredPage[]): Field {
  const at = occurrences(pages, rule.kind, rule.constant!)[0];
  const bbox: BBox = at?.span.bbox ?? rule.bbox ?? [0, 0, 0, 0];
  return { value: rule.constant!, text: at?.span.text ?? String(rule.constant), confidence: at ? 0.95 : 0.85, page: at?.span.page ?? pages[0]?.page ?? 1, bbox, source: 'vendor_memory' };
}

/** How sure a label match must be before the memory's reading wins over the engine's. */
const MIN_LABEL = 0.7;

function anchoredField(rule: FieldRule, pages: StoredPage[]): Field | null {
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
  if (!labelled) return null;
  return { ...field, confidence: Math.max(0.5, Math.min(0.99, Math.round((score / 4.5) * 100) / 100)) };
}

/**
 * Choosing a field among typed candidates. Every reader proposes candidates (from key-value
 * pairs, labelled lines, position) with a score; checks between fields lower the score of those
 * that disagree; the best candidate is the field. Candidates supplied from outside the engine
 * (vendor memory) are tried first: they carry their own source and win unless absent.
 */
import type { Field, FieldSource, Fields } from '../types.js';

/** Where a candidate came from: how it was found (for tuning and debugging, not part of the result). */
export type CandidateVia = 'key_value' | 'label' | 'position' | 'external';

/** One possible value of a field. `score` is 0–1 and becomes the field's confidence when chosen. */
export interface FieldCandidate {
  field: Field;
  score: number;
  via: CandidateVia;
  /** `engine` unless supplied from outside (`vendor_memory`). */
  source?: FieldSource;
}

/** Candidates for some fields, supplied from outside the engine (vendor memory), best first. */
export type ExternalCandidates = Partial<Record<keyof Fields, Field[]>>;

/** A candidate of `f` found by the engine, its confidence its score. */
export function candidate(f: Field | null, via: CandidateVia, score = f?.confidence ?? 0): FieldCandidate[] {
  return f ? [{ field: f, score, via }] : [];
}

/** External candidates of `name` as FieldCandidates (their own confidence; source kept). */
export function externalCandidates(external: ExternalCandidates | undefined, name: keyof Fields): FieldCandidate[] {
  return (external?.[name] ?? []).map((f) => ({ field: f, score: f.confidence, via: 'external' as const, source: f.source ?? 'vendor_memory' }));
}

/**
 * The chosen field: an external candidate first (the first given), else the candidate with the
 * highest score (the earlier one on a tie, so reading order breaks ties); its confidence is its
 * score, rounded to hundredths.
 */
export function choose(cands: FieldCandidate[]): Field | null {
  const best = chosen(cands);
  if (!best) return null;
  if (best.via === 'external') return { ...best.field, source: best.source ?? 'vendor_memory', corrected: false };
  return { ...best.field, confidence: Math.round(Math.max(0, Math.min(1, best.score)) * 100) / 100, source: 'engine', corrected: false };
}

/** The candidate `choose` takes: the first external one, else the highest score (the earlier on a tie). */
export function chosen(cands: FieldCandidate[]): FieldCandidate | null {
  const ext = cands.find((c) => c.via === 'external');
  if (ext) return ext;
  let best: FieldCandidate | null = null;
  for (const c of cands) if (!best || c.score > best.score + 1e-9) best = c;
  return best;
}

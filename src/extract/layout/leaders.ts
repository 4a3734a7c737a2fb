/**
 * Dot leaders ("Total ........ 12") guide the eye from a label to its figure; they are neither
 * text of the label nor a cell. Leader-only words go, a leader run glued to a label is cut off,
 * and spaced leaders (". . . .") go when three or more dots sit on one line close together.
 */
import type { Word } from '../types.js';

const LEADER = /[.·…_‥⋯]{3,}$/u;
const ONLY_LEADER = /^[.·…_‥⋯]+$/u;

/** The words without their leaders. */
export function withoutLeaders(words: Word[]): Word[] {
  const dots = words.filter((w) => w.text.length === 1 && ONLY_LEADER.test(w.text));
  const spaced = new Set(dots.filter((d) => dots.filter((o) => o !== d && Math.abs(o.y0 - d.y0) < 0.3 * d.size && Math.abs(o.x0 - d.x0) < 2 * d.size).length >= 2));
  const out: Word[] = [];
  for (const w of words) {
    if (spaced.has(w) || (w.text.length >= 3 && ONLY_LEADER.test(w.text))) continue;
    const m = LEADER.exec(w.text);
    if (!m) { out.push(w); continue; }
    const kept = [...w.text.slice(0, m.index)].length, all = [...w.text].length;
    out.push({ ...w, text: w.text.slice(0, m.index), x1: w.x0 + ((w.x1 - w.x0) * kept) / all });
  }
  return out;
}

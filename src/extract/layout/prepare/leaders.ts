/**
 * Dot leaders ("Total ........ 12") guide the eye from a label to its figure; they are no text
 * of the label and no cell, but they are the label's ink: the label's box reaches over them.
 * Leader-only words go into the word they follow on their line (or go, with none before them),
 * a leader run glued to a label is cut off its text, and spaced leaders (". . . .") count when
 * three or more dots sit on one line close together.
 * OCR reads a leader as letters too (`ee`, `cece`, `2...`, `Huachuca....cecscecsense`): such a
 * word is flat (its ink is dots on the baseline, far lower than any letter or digit), and a word
 * the reader found among a leader's dots is the leader's.
 */
import type { Word } from '../../types.js';
import { median } from '../../geometry.js';

const LEADER = /[.·…_‥⋯]{3,}$/u;
const ONLY_LEADER = /^[.·…_‥⋯]+$/u;
/** A leader run with the letters the reader made of its dots after it ("....cecscecsense"). */
const LEADER_TAIL = /[.·…_‥⋯]{3,}[a-z.,:;'`·…_]*$/u;

/** A word whose box is lower than this (× the size of its line) is dots: x-height letters stand ~0.35. */
const FLAT = 0.2;
/** A leader starts within this (× font size) of the label it follows (the reader may miss its first dots). */
const FOLLOWS_EM = 6;

/**
 * An OCR word made of a leader's dots: letters or digits in a box lower than wide and than FLAT
 * of its line's size, the size of the words standing beside it (the page's, with none): a word
 * read from dots alone has the size of its own low box, or of a line it was wrongly put in.
 */
function dotsRead(w: Word, words: Word[], pageSize: number): boolean {
  if (w.confidence === null || !/[\p{L}\p{N}]/u.test(w.text)) return false;
  const h = w.y1 - w.y0, cy = (w.y0 + w.y1) / 2;
  // Only a word low beside the page's text needs its line's words (the page is read once per word).
  if (h >= w.x1 - w.x0 || h >= FLAT * 2 * pageSize) return false;
  const beside = words.filter((o) => o.y0 <= cy && o.y1 >= cy && o.y1 - o.y0 > h && o.y1 - o.y0 >= FLAT * o.size);
  return h < FLAT * (beside.length ? median(beside.map((o) => o.size)) : pageSize);
}

/** A word among a leader's dots ("ees" where two dots touch) is the leader's, unless it holds a figure. */
const NO_FIGURE = /^\D*$/;

/** Words whose box reaches over a leader: a column ends where the leader does. */
const led = new WeakSet<Word>();
export const endsInLeader = (w: Word): boolean => led.has(w);

/** The words without their leaders; a label followed by one reaches over it. */
export function withoutLeaders(words: Word[]): Word[] {
  const dots = words.filter((w) => w.text.length === 1 && ONLY_LEADER.test(w.text));
  const spaced = new Set(dots.filter((d) => dots.filter((o) => o !== d && Math.abs(o.y0 - d.y0) < 0.3 * d.size && Math.abs(o.x0 - d.x0) < 2 * d.size).length >= 2));
  const pageSize = median(words.map((w) => w.size));
  const leaders: Word[] = [];
  const out: Word[] = [];
  for (const w of words) {
    if (spaced.has(w) || (w.text.length >= 3 && ONLY_LEADER.test(w.text)) || dotsRead(w, words, pageSize)) { leaders.push(w); continue; }
    const m = LEADER.exec(w.text) ?? (w.confidence !== null ? LEADER_TAIL.exec(w.text) : null);
    if (!m) out.push(w);
    else if (m.index === 0) leaders.push(w);
    else {
      const cut = { ...w, text: w.text.slice(0, m.index) };
      led.add(cut);
      out.push(cut);
    }
  }
  // Left to right, so a run of leader words reaches its label through the ones before it.
  const reach = new Map<number, number>();
  for (const l of leaders.sort((a, b) => a.x0 - b.x0)) {
    const cy = (l.y0 + l.y1) / 2;
    let owner = -1;
    out.forEach((w, i) => {
      const em = w.size;
      const x1 = reach.get(i) ?? w.x1;
      if (cy < w.y0 || cy > w.y1 + 0.3 * em || x1 > l.x0 + 0.5 * em || l.x0 - x1 > FOLLOWS_EM * em) return;
      if (owner < 0 || x1 > (reach.get(owner) ?? out[owner].x1)) owner = i;
    });
    if (owner >= 0) reach.set(owner, Math.max(reach.get(owner) ?? out[owner].x1, l.x1));
  }
  const inRun = new Set<number>();
  for (const [i, x1] of reach) {
    const o = out[i];
    out.forEach((w, j) => {
      const cy = (w.y0 + w.y1) / 2;
      if (j !== i && !reach.has(j) && w.x0 >= o.x1 && w.x1 <= x1 + 0.25 * o.size && cy > o.y0 && cy < o.y1 + 0.3 * o.size && NO_FIGURE.test(w.text)) inRun.add(j);
    });
  }
  return out.flatMap((w, i) => {
    if (inRun.has(i)) return [];
    if (!reach.has(i)) return [w];
    const over = { ...w, x1: reach.get(i)! };
    led.add(over);
    return [over];
  });
}

/**
 * Page furniture: a report's running header and footer, its page numbers. Set apart at both ends
 * of a line, two lines of them read as a 2×2 table on every page. A piece of text (a chunk) is
 * furniture when it stands in the top or bottom margin band of its page, apart from the page's
 * body, and the same text (its digits aside: "Page 2 of 9") stands at the same place on at least
 * half of the document's other pages, or of the other pages of its side (a book's recto and verso
 * mirror their running heads), and nowhere else; or when it is a page number alone in the band of
 * a document of several pages (recto and verso set it at alternate sides). Positions are compared
 * in the page's own text height, texts with an edit allowance, so OCR's jitter and misreads on
 * one page do not hide a line that repeats.
 */
import type { PageLayout, Word } from '../../types.js';
import { editDistance } from '../../edit-distance.js';
import { textLines, type Chunk, type TextLine } from './lines.js';

/** The top and bottom bands of the page furniture stands in (share of the page height). */
const BAND_SHARE = 0.12;
/** Furniture stands this far (× its text height) or further from the page's body: a table's header repeated on each page runs on into its rows (1.3-1.8 em pitch). */
const APART_EM = 2;
/** Two pages' furniture stands within this (× text height) of the same height on the page… */
const PLACE_EM = 1;
/** …and starts or ends within this (× text height) of the same place across it (a right-aligned "Page 9" and "Page 10"). */
const ALIGN_EM = 2;
/** Texts this close (edits per character) are the same: one misread in eight characters. */
const EDITS_PER_CHAR = 1 / 8;
/** A page number alone: "7", "- 7 -", "Page 7", "Page 7 of 12", "7/12", "Seite 7 von 12", "p. 7". */
const PAGE_NUMBER = /^[-–—]?\s*(?:(?:page|pg|p|seite|pagina|página|pag|pág|blatt|sida|side)\.?\s*)?\d{1,4}(?:\s*(?:of|von|de|sur|di|\/|van|av|z)\s*\d{1,4})?\s*[-–—]?$/i;

interface Piece {
  page: number;
  chunk: Chunk;
  /** Case-folded text with digits as `#` and spaces dropped. */
  key: string;
  /** The page's size. */
  W: number;
  H: number;
  inBand: boolean;
}

const keyOf = (text: string) => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, '');

function same(a: string, b: string): boolean {
  if (a === b) return true;
  const allowed = Math.floor(Math.max(a.length, b.length) * EDITS_PER_CHAR);
  return allowed > 0 && Math.abs(a.length - b.length) <= allowed && bagDistance(a, b) <= allowed && editDistance(a, b) <= allowed;
}

/**
 * How many characters one string holds that the other lacks, counted as multisets, the larger
 * side: no edit script is shorter (each edit mends at most one on each side), so texts this far
 * apart need no edit distance worked out.
 */
function bagDistance(a: string, b: string): number {
  const count = new Map<number, number>();
  for (let i = 0; i < a.length; i++) count.set(a.charCodeAt(i), (count.get(a.charCodeAt(i)) ?? 0) + 1);
  let unmatched = 0;
  for (let i = 0; i < b.length; i++) {
    const n = count.get(b.charCodeAt(i)) ?? 0;
    if (n > 0) count.set(b.charCodeAt(i), n - 1);
    else unmatched++;
  }
  return Math.max(unmatched, a.length - (b.length - unmatched));
}

/** Whether two pieces stand at the same place of their pages, measured in their text height. */
function near(p: Piece, q: Piece): boolean {
  const em = Math.max(p.chunk.size, q.chunk.size);
  const at = (v: number, page: number, to: number) => (v * to) / page;
  const dy = Math.abs(at((p.chunk.y0 + p.chunk.y1) / 2, p.H, q.H) - (q.chunk.y0 + q.chunk.y1) / 2);
  const dx = Math.min(Math.abs(at(p.chunk.x0, p.W, q.W) - q.chunk.x0), Math.abs(at(p.chunk.x1, p.W, q.W) - q.chunk.x1));
  return dy <= PLACE_EM * em && dx <= ALIGN_EM * em;
}

/**
 * A page's chunks of upright text, and whether each stands in a band apart from the body: the
 * lines from the page's edge to the last wide gap (APART_EM) still inside the band.
 */
function pieces(layout: PageLayout): Piece[] {
  const lines = textLines(layout.words.filter((w) => (w.rotation ?? 0) === 0)).sort((a, b) => a.y0 - b.y0);
  const H = layout.height, W = layout.width;
  const band = new Set<TextLine>();
  const edge = (order: TextLine[], inBand: (l: TextLine) => boolean, gap: (a: TextLine, b: TextLine) => number) => {
    let last = -1;
    for (let i = 0; i < order.length && inBand(order[i]); i++) {
      const next = order[i + 1];
      if (!next || gap(order[i], next) >= APART_EM * Math.max(order[i].size, next.size)) last = i;
    }
    order.slice(0, last + 1).forEach((l) => band.add(l));
  };
  const cy = (l: TextLine) => (l.y0 + l.y1) / 2;
  edge(lines, (l) => cy(l) < BAND_SHARE * H, (a, b) => b.y0 - a.y1);
  edge([...lines].reverse(), (l) => cy(l) > (1 - BAND_SHARE) * H, (a, b) => a.y0 - b.y1);
  return lines.flatMap((line) => line.chunks.map((chunk) => ({ page: layout.page, chunk, key: keyOf(chunk.text), W, H, inBand: band.has(line) })));
}

/** The pages' words without their furniture, for table finding. */
export function withoutFurniture(layouts: PageLayout[]): PageLayout[] {
  const all = layouts.map(pieces);
  const furniture = new Set<Word>();
  for (const [i, page] of all.entries()) {
    for (const p of page) {
      if (!p.inBand || p.key === '') continue;
      // One page alone says nothing of what repeats: its last line may be a table's.
      if (layouts.length < 2) continue;
      if (PAGE_NUMBER.test(p.chunk.text.trim())) {
        p.chunk.words.forEach((w) => furniture.add(w));
        continue;
      }
      // Repeats on all the other pages, and on the others of its side (recto or verso: a book's
      // running heads are mirrored, the title on one side and the chapter on the other).
      let repeats = 0, sideRepeats = 0;
      let elsewhere = false;
      for (const [j, other] of all.entries()) {
        const alike = other.filter((q) => q !== p && same(p.key, q.key));
        if (j !== i && alike.some((q) => q.inBand && near(p, q))) {
          repeats++;
          if (j % 2 === i % 2) sideRepeats++;
        }
        if (alike.some((q) => !q.inBand)) elsewhere = true;
      }
      const sideOthers = all.filter((_, j) => j !== i && j % 2 === i % 2).length;
      const repeated = repeats >= Math.max(1, (layouts.length - 1) / 2) || (sideOthers > 0 && sideRepeats >= Math.max(1, sideOthers / 2));
      if (!elsewhere && repeated) p.chunk.words.forEach((w) => furniture.add(w));
    }
  }
  if (furniture.size === 0) return layouts;
  return layouts.map((l) => ({ ...l, words: l.words.filter((w) => !furniture.has(w)) }));
}

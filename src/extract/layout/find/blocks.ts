/**
 * Finds the runs of text lines that may be tables: lines with two or more chunks (or short
 * single chunks between them), close together, bounded by prose lines (and the lines of the
 * same paragraphs under them) and wide vertical gaps.
 * Captions and notes just above or below are left out when a wider gap than the rows' own
 * spacing separates them, and so is a marked note ("* Refers to …") at the foot; a line of notes
 * ("Notes:", "Source: …") ends a block, and the lines right under it are the notes'. Pieces of one
 * table cut at blank rows are joined, with a section heading alone between them too; a block
 * holding two tables one under the other is cut at the second one's header (restarts.ts).
 */
import { figureRun, type Chunk, type TextLine } from '../prepare/lines.js';
import { median } from '../../geometry.js';
import { findColumns } from './columns.js';
import { atNewHeaders } from './restarts.js';

/** Lines further apart than this (× font size) belong to different blocks. */
const BLOCK_GAP_EM = 1.6;
/** A figure's labels start this close (× font size) under its caption or closer (a legend 1.7 em under it). */
const CAPTION_GAP_EM = 2.5;
/** Blocks this many row pitches apart or less may be one table cut at blank rows. */
const BLANK_ROWS = 2;
/** Column edges of two blocks of one table agree within this (× font size). */
const EDGE_EM = 1;
/** A single-chunk line wider than this share of the text body is prose, which ends a block. */
const PROSE_SHARE = 0.55;
/** A chunk of this many words over that share is a sentence, whatever else its line holds. */
const PROSE_WORDS = 6;

/**
 * A run of figures ("15 24 34 45 56 … 281", a row of a wide table OCR'd with its column gaps
 * all alike) is no sentence, however many pieces it holds.
 */
const sentence = (c: Chunk) => c.words.length >= PROSE_WORDS && !figureRun(c.words);

/** A heading row inside a table ("Independent Non-executive Directors") has at most this many words. */
const HEADING_WORDS = 10;

/** A line of one short phrase that ends no sentence: a section heading, when a table lies on both sides. */
const headingLine = (l: TextLine) =>
  l.chunks.length === 1 && l.words.length <= HEADING_WORDS && !/[.:;,]$/.test(l.chunks[0].text.trim());

/**
 * The head of a table's notes: "Notes:", "Note: N/A - not required …", "Source: …", "Sources;"
 * (OCR reads a colon as ";" and the e of "notes" as o), at the start of the line or, on a page
 * set in two languages, of its other half.
 */
const NOTES_HEAD = /^(n[o0]t[eo]s?|sources?)\s*[:;：]/i;
const notesHead = (l: TextLine) => l.chunks.length <= 2 && l.chunks.some((c) => NOTES_HEAD.test(c.text.trim()));

/** Lines of one paragraph stand closer than this (× font size): no blank line between. */
const PARAGRAPH_GAP_EM = 0.6;

/**
 * A line that goes on with the prose right above it: set at the paragraph's line spacing, each
 * of its pieces starting where a piece of that prose line starts (the last lines of two columns
 * of text, "Operations. | contractors as at 31 December 2018 was …", read as a row of cells).
 */
function goesOn(l: TextLine, above: TextLine): boolean {
  if (l.y0 - above.y1 > PARAGRAPH_GAP_EM * Math.max(l.size, above.size)) return false;
  return l.chunks.every((c) => above.chunks.some((p) => Math.abs(c.x0 - p.x0) <= EDGE_EM * l.size));
}

/**
 * The first line of a long row label wrapped over two lines or more, under a row: one phrase
 * (no sentence's end, no caption) starting where the row above starts, its next line set at
 * line spacing, going on in lower case from its left, and a row of cells, or one more line of
 * the label over a row.
 */
function labelStart(lines: TextLine[], i: number, row: (l: TextLine | undefined) => boolean): boolean {
  const l = lines[i], next = lines[i + 1], text = l.chunks[0].text.trim();
  if (!next || l.chunks.length !== 1 || /[.:;]$/.test(text) || TABLE_CAPTION.test(text) || FIGURE_CAPTION.test(text)) return false;
  if (Math.abs(l.x0 - lines[i - 1].x0) > EDGE_EM * l.size) return false;
  if (next.y0 - l.y1 > PARAGRAPH_GAP_EM * Math.max(l.size, next.size) || next.x0 < l.x0 - 0.5 * l.size) return false;
  if (!/^\p{Ll}/u.test(next.chunks[0].text)) return false;
  return row(next) || (next.chunks.length === 1 && next.x1 < l.x1 && row(lines[i + 2]));
}

/** A line repeating a block's first (its header: "2018 2017 2016" again) starts another table. */
function repeats(l: TextLine, first: TextLine | undefined): boolean {
  if (!first || l.chunks.length !== first.chunks.length) return false;
  const same = l.chunks.filter((c, i) => c.text.replace(/\s+/g, '') === first.chunks[i].text.replace(/\s+/g, '')).length;
  return same >= (2 / 3) * l.chunks.length;
}

/** Candidate table blocks of a page, top to bottom. */
export function tableBlocks(lines: TextLine[]): TextLine[][] {
  if (lines.length === 0) return [];
  const bodyX0 = Math.min(...lines.map((l) => l.x0)), bodyX1 = Math.max(...lines.map((l) => l.x1));
  const wide = (x0: number, x1: number) => x1 - x0 > PROSE_SHARE * (bodyX1 - bodyX0);
  // A sentence with a wider space in it ("Notes:  numbers in parentheses are …") is still prose:
  // no table cell runs over half the text body with that many words.
  // Prose set in columns: two sentences side by side on one line ("RWAs under the IMA increased
  // by … | this is informed by stress tests …"); no table row holds two cells of that many words.
  const prose = (l: TextLine) =>
    (l.chunks.length === 1 && wide(l.x0, l.x1) && !figureRun(l.chunks[0].words)) ||
    l.chunks.some((c) => sentence(c) && wide(c.x0, c.x1)) ||
    l.chunks.filter(sentence).length >= 2;
  const row = (l: TextLine | undefined) => l !== undefined && l.chunks.length >= 2 && !prose(l);
  const pieces: TextLine[][] = [];
  let cur: TextLine[] = [];
  // A figure caption long enough to read as prose ends the block above it; the lines set right
  // under it (its title's second line, the figure's labels) are the figure's, up to a table's
  // own caption.
  let caption: TextLine | null = null;
  const flush = () => {
    if (caption !== null && cur.length > 0 && cur[0].y0 - caption.y1 <= CAPTION_GAP_EM * Math.max(caption.size, cur[0].size)) {
      const own = cur.findIndex((l) => TABLE_CAPTION.test(l.chunks[0].text.trim()));
      cur = own < 0 ? [] : cur.slice(own);
    }
    const { block: b, figure } = withoutCaption(trim(cur));
    if (!figure && b.length > 0) pieces.push(b);
    cur = [];
  };
  let proseAbove: TextLine | null = null;
  lines.forEach((l, i) => {
    // A wide heading between two rows ("Consolidation therapy for stage III NSCLC") stays in the
    // block, and so does a row label long enough to read as prose, wrapped under a row.
    const heading = headingLine(l) && row(lines[i - 1]) && row(lines[i + 1]) && !repeats(lines[i + 1], cur[0]);
    if (prose(l) && !heading && !(row(lines[i - 1]) && labelStart(lines, i, row))) {
      flush();
      caption = FIGURE_CAPTION.test(l.chunks[0].text.trim()) ? l : null;
      proseAbove = l;
      return;
    }
    // Notes under a table ("Notes:", "Source: …") end it; the lines set right under them are the
    // notes' (numbered notes, paragraphs side by side in two languages), not rows.
    if (notesHead(l)) {
      flush();
      caption = l;
      proseAbove = l;
      return;
    }
    // A caption's or paragraph's next line is more of it (a figure's labels still follow the caption).
    if (proseAbove !== null && goesOn(l, proseAbove)) {
      if (caption !== null) caption = l;
      proseAbove = l;
      return;
    }
    proseAbove = null;
    const prev = cur[cur.length - 1];
    if (prev && l.y0 - prev.y1 > BLOCK_GAP_EM * Math.max(prev.size, l.size)) { flush(); caption = null; }
    cur.push(l);
  });
  flush();
  return joinBlankRows(pieces, lines).flatMap(atNewHeaders).filter((b) => b.filter((l) => l.chunks.length >= 2).length >= 2 && b.length >= 2);
}

/**
 * One table cut in pieces at blank rows: neighbouring pieces with nothing between them, close
 * enough, whose columns are (nearly all) those of their union, are one block; so are two such
 * pieces with a heading line alone between them (a section of the table). A piece may be a
 * single row of cells with its wrapped lines, where rows stand a blank line apart.
 */
function joinBlankRows(pieces: TextLine[][], lines: TextLine[]): TextLine[][] {
  const out: TextLine[][] = [];
  for (let i = 0; i < pieces.length; i++) {
    const a = out[out.length - 1], b = pieces[i], c = pieces[i + 1];
    if (a && sameTable(a, b, lines, [])) out[out.length - 1] = [...a, ...b];
    else if (a && c && b.length === 1 && headingLine(b[0]) && !repeats(c[0], a[0]) && sameTable(a, c, lines, b)) {
      out[out.length - 1] = [...a, ...b, ...c];
      i++;
    } else out.push(b);
  }
  return out;
}

/** Whether pieces `a` and `b` (with the heading lines `between` them) are one table. */
function sameTable(a: TextLine[], b: TextLine[], lines: TextLine[], between: TextLine[]): boolean {
  // A piece of one row needs three cells or more (a chart's tick and its label are two).
  const solid = (blk: TextLine[]) => blk.filter((l) => l.chunks.length >= 2).length >= 2 || blk.some((l) => l.chunks.length >= 3);
  if (!solid(a) || !solid(b)) return false;
  const size = median([...a, ...b].map((l) => l.size));
  const pitch = median([a, b].flatMap((blk) => blk.slice(1).map((l, i) => l.y0 - blk[i].y0)));
  const steps = [a[a.length - 1], ...between, b[0]];
  if (!(pitch > 0) || steps.slice(1).some((l, i) => l.y0 - steps[i].y0 > (BLANK_ROWS + 1) * pitch + 0.5 * size)) return false;
  const last = a[a.length - 1], first = b[0];
  if (lines.some((l) => !between.includes(l) && l.y0 >= last.y1 && l.y1 <= first.y0)) return false;
  // Each piece's columns start or end (right-aligned figures) with one of the union's (a piece without the header
  // may miss a narrow gutter the union finds), and the union has no more than one extra.
  // Columns of rows of cells: a piece's wrapped lines and headings cross its gutters.
  const rows = (blk: TextLine[]) => blk.filter((l) => l.chunks.length >= 2);
  const cu = findColumns(rows([...a, ...b]), size, false);
  if (cu.length < 2) return false;
  const near = (p: number, q: number) => Math.abs(p - q) <= EDGE_EM * size;
  const within = (cols: [number, number][]) => cols.length >= cu.length - 1 && cols.length <= cu.length && cols.every(([x0, x1]) => cu.some(([u0, u1]) => near(u0, x0) || near(u1, x1)));
  return within(findColumns(rows(a), size, false)) && within(findColumns(rows(b), size, false));
}

/**
 * A caption ("Table 3:", "Figure 6:", "Abbildung 2", an annex's "Figure CA2b.", "Table B.1",
 * "Figure 8.1a."; OCR reads a colon as ";") in the first line starts with its label and number
 * set apart from the title, so it reads as a row of two cells. It is not a row: it
 * is dropped, and the lines under a figure's caption are the figure's labels, not a table.
 */
const CAPTION_NUMBER = String.raw`\s*([a-z]{1,3}[-.]?\d+[a-z]?|\d+[a-z]?|[IVX]+)(\.\d+[a-z]?)*([.:;]?(\s|$)|\s?[—–-])`;
export const TABLE_CAPTION = new RegExp(String.raw`^(table|tab\.|tabelle|tableau|tabla|tabella|tabel)` + CAPTION_NUMBER, 'i');
export const FIGURE_CAPTION = new RegExp(String.raw`^(figure|fig\.|chart|graph|diagram|exhibit|abbildung|abb\.|graphique|gráfico|grafico|grafiek|figura)` + CAPTION_NUMBER, 'i');

function withoutCaption(block: TextLine[]): { block: TextLine[]; figure: boolean } {
  const first = block[0]?.chunks[0]?.text.trim() ?? '';
  if (FIGURE_CAPTION.test(first)) return { block: [], figure: true };
  return { block: TABLE_CAPTION.test(first) ? block.slice(1) : block, figure: false };
}

/** A note under a table: a mark ("*", "(1)", "a)") and a sentence. */
const NOTE_MARK = /^([*†‡§#]{1,3}|\(?[a-z0-9]{1,2}\))$/i;
const note = (l: TextLine) =>
  l.chunks.length === 2 && NOTE_MARK.test(l.chunks[0].text.trim()) && (/\.$/.test(l.chunks[1].text.trim()) || l.chunks[1].words.length >= PROSE_WORDS);

/**
 * Drops leading / trailing single-chunk lines set apart by more than the block's row spacing,
 * and the notes at its foot.
 */
function trim(block: TextLine[]): TextLine[] {
  let a = 0, b = block.length;
  while (b > 0 && note(block[b - 1])) b--;
  block = block.slice(0, b);
  const multi = block.filter((l) => l.chunks.length >= 2);
  if (multi.length < 2) return block;
  const gaps: number[] = [];
  for (let i = 1; i < block.length; i++) gaps.push(block[i].y0 - block[i - 1].y1);
  const typical = median(gaps);
  const size = median(block.map((l) => l.size));
  const loose = (g: number) => g > typical * 1.5 + 0.25 * size;
  while (a < b && block[a].chunks.length === 1 && (a + 1 >= b || loose(block[a + 1].y0 - block[a].y1))) a++;
  while (b > a && block[b - 1].chunks.length === 1 && (b - 2 < a || loose(block[b - 1].y0 - block[b - 2].y1))) b--;
  // Leading single lines starting left of every column but the first are titles, not headers.
  const firstMulti = block.findIndex((l) => l.chunks.length >= 2);
  // The first line of a row label wrapped onto the row's line ("Gross profit margin" over "of  10.7
  // 12.8") is no title: the label goes on under it in lower case, and it stays left of the row's
  // second cell.
  const wraps = (l: TextLine, next: TextLine) =>
    next === block[firstMulti] && /^\p{Ll}/u.test(next.chunks[0].text) && next.chunks[0].x0 >= l.x0 - 0.5 * size && next.chunks[0].x0 < l.x1 && l.x1 < next.chunks[1].x0;
  while (a < firstMulti && block[a].chunks.length === 1 && block[a].x0 < block[firstMulti].chunks[1].x0 - size && block[a].x1 > block[firstMulti].chunks[0].x1 + size && !wraps(block[a], block[a + 1])) a++;
  return block.slice(a, b);
}

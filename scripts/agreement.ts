/**
 * The agreement measure: a born-digital PDF is its own answer key for the image path. Every page
 * of every PDF with a text layer is rendered at 150 and 200 dpi (poppler's pdftoppm), the pages
 * are read as one image document, and its tables are scored against those the text layer gives,
 * by the ICDAR 2013 adjacency-relation measure (icdar-score.ts): per document, overall (the mean
 * of the documents' precision and recall), and per page for the worst pages. A relation of the
 * PDF path the image path misses is a reading miss when a word of one of its two cells is not
 * among the words read on the page, else a layout miss (the words were there, the table rules
 * put them elsewhere). "Cells read" is the reading measure on the same pages: the share of the
 * PDF path's table cells all of whose words were read.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { resultRelations } from './icdar-score.js';
import { allRead, tokens, wordSet } from './read-words.js';
import type { Job } from './eval-sets.js';

export const AGREEMENT_DPIS = [150, 200] as const;
/** The development sets whose PDFs have a text layer. */
const TEXT_LAYER_SETS = ['icdar2013-eu', 'einvoices-dev'];

/** The default folders: the sets with a text layer under `data` that are present, and the repository's fixtures. */
export function textLayerDirs(data: string, root: string): string[] {
  return [...TEXT_LAYER_SETS.map((s) => join(data, s)).filter((d) => existsSync(d)), join(root, 'test', 'fixtures')];
}
/** The figure every document should reach at each resolution. */
const TARGET: Record<number, number> = { 150: 0.9, 200: 0.95 };

export interface AgreementDoc {
  /** A file-name-safe name, unique in the run. */
  name: string;
  pdf: string;
  /** The folder given, for the grouped figures. */
  group: string;
}

interface ResultTable {
  page: number;
  cells: { row: number; col: number; row_span: number; col_span: number; text: string }[];
}
interface Result {
  tables?: ResultTable[];
  page_words?: string[][];
  processing_error?: { message: string };
}

function pdfsUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const path = join(dir, f);
      if (statSync(path).isDirectory()) return pdfsUnder(path);
      return f.toLowerCase().endsWith('.pdf') ? [path] : [];
    });
}

/** Whether a PDF has words in its text layer (pdftotext), so its PDF path is an answer key. */
function hasTextLayer(pdf: string): boolean {
  try {
    return /\w/.test(execFileSync('pdftotext', ['-l', '3', pdf, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return false;
  }
}

/** The PDFs with a text layer under each folder, each file once (by its bytes). */
export function agreementDocs(dirs: string[]): AgreementDoc[] {
  const seen = new Set<string>();
  const names = new Set<string>();
  const docs: AgreementDoc[] = [];
  for (const dir of dirs) {
    for (const pdf of pdfsUnder(dir)) {
      const hash = createHash('sha256').update(readFileSync(pdf)).digest('hex');
      if (seen.has(hash) || !hasTextLayer(pdf)) continue;
      seen.add(hash);
      let name = basename(pdf, '.pdf').replace(/[^\w.-]+/g, '_');
      if (names.has(name)) name = `${name}-${hash.slice(0, 8)}`;
      names.add(name);
      docs.push({ name, pdf, group: basename(dir) || dir });
    }
  }
  return docs;
}

/** The PDF's pages rendered at `dpi`, once per work folder (pdftoppm's bytes, so the OCR cache holds). */
function renders(doc: AgreementDoc, dpi: number, work: string): string[] {
  const dir = join(work, `agreement-${dpi}`, doc.name);
  if (!existsSync(join(dir, '.done'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', doc.pdf, join(dir, 'page')], { stdio: ['ignore', 'ignore', 'ignore'] });
    writeFileSync(join(dir, '.done'), '');
  }
  const pageNo = (f: string) => Number(/-(\d+)\.png$/.exec(f)?.[1]);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.png'))
    .sort((a, b) => pageNo(a) - pageNo(b))
    .map((f) => join(dir, f));
}

/** The engine's jobs: each PDF through its text layer, and its rendered pages at each resolution. */
export function agreementJobs(docs: AgreementDoc[], work: string, out: string): Job[] {
  for (const d of ['pdf', ...AGREEMENT_DPIS.map(String)]) mkdirSync(join(out, d), { recursive: true });
  return docs.flatMap((doc) => [
    { input: doc.pdf, output: join(out, 'pdf', `${doc.name}.json`) },
    ...AGREEMENT_DPIS.map((dpi) => ({ input: doc.pdf, pages: renders(doc, dpi, work), output: join(out, String(dpi), `${doc.name}.json`) })),
  ]);
}

interface Counts {
  /** Relations of the PDF path, of the image path, and of both. */
  truth: number;
  found: number;
  hit: number;
  /** Relations of the PDF path missed, whose cells' words were all read (layout) or not (reading). */
  layout: number;
  reading: number;
  cells: number;
  cellsRead: number;
}

const zero = (): Counts => ({ truth: 0, found: 0, hit: 0, layout: 0, reading: 0, cells: 0, cellsRead: 0 });

function precisionRecall(c: Counts): { p: number; r: number; f1: number } {
  // One path finding nothing where the other finds a table is no agreement; neither finding any is.
  const p = c.found ? c.hit / c.found : c.truth ? 0 : 1;
  const r = c.truth ? c.hit / c.truth : c.found ? 0 : 1;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}

/** The relations of one page's tables, with the texts of their cells before normalisation. */
function pageRelations(tables: ResultTable[]): { relations: Set<string>; texts: Map<string, string> } {
  const texts = new Map<string, string>();
  for (const t of tables) for (const c of t.cells) texts.set(c.text.normalize('NFKC').replace(/\s+/gu, ''), c.text);
  return { relations: resultRelations({ tables }), texts };
}

/** Compares one page of the two paths. */
function comparePage(pdfTables: ResultTable[], imageTables: ResultTable[], words: string[]): Counts {
  const have = wordSet(words);
  const truth = pageRelations(pdfTables);
  const found = resultRelations({ tables: imageTables });
  const c = zero();
  c.truth = truth.relations.size;
  c.found = found.size;
  for (const rel of truth.relations) {
    if (found.has(rel)) c.hit++;
    else {
      const [a, b] = rel.split('\u0000');
      if (allRead(truth.texts.get(a) ?? a, have) && allRead(truth.texts.get(b) ?? b, have)) c.layout++;
      else c.reading++;
    }
  }
  for (const t of pdfTables) {
    for (const cell of t.cells) {
      if (tokens(cell.text).length === 0) continue;
      c.cells++;
      if (allRead(cell.text, have)) c.cellsRead++;
    }
  }
  return c;
}

function add(into: Counts, c: Counts): void {
  for (const k of Object.keys(into) as (keyof Counts)[]) into[k] += c[k];
}

export interface DocScore {
  doc: AgreementDoc;
  dpi: number;
  counts: Counts;
  p: number;
  r: number;
  f1: number;
  pages: { page: number; counts: Counts; f1: number }[];
  error?: string;
}

function readResult(path: string): Result {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Result) : { processing_error: { message: 'no result' } };
}

/** Each document's agreement at `dpi`, from the results under `out`. Relations are counted per page. */
export function scoreDocs(docs: AgreementDoc[], out: string, dpi: number): DocScore[] {
  return docs.map((doc) => {
    const pdf = readResult(join(out, 'pdf', `${doc.name}.json`));
    const image = readResult(join(out, String(dpi), `${doc.name}.json`));
    const error = pdf.processing_error?.message ?? image.processing_error?.message;
    const onPage = (r: Result, n: number) => (r.tables ?? []).filter((t) => t.page === n);
    const pageCount = Math.max(image.page_words?.length ?? 0, ...(pdf.tables ?? []).map((t) => t.page));
    const counts = zero();
    const pages = Array.from({ length: pageCount }, (_, i) => {
      const c = comparePage(onPage(pdf, i + 1), onPage(image, i + 1), image.page_words?.[i] ?? []);
      add(counts, c);
      return { page: i + 1, counts: c, f1: precisionRecall(c).f1 };
    });
    return { doc, dpi, counts, ...precisionRecall(counts), pages, error };
  });
}

export interface Summary {
  documents: number;
  /** Documents with no table on either path (left out of the means). */
  tableless: number;
  p: number;
  r: number;
  f1: number;
  below: number;
  min: number;
  counts: Counts;
}

export function summarize(scores: DocScore[], dpi: number): Summary {
  const scored = scores.filter((s) => s.counts.truth + s.counts.found > 0);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 1);
  const p = mean(scored.map((s) => s.p));
  const r = mean(scored.map((s) => s.r));
  const counts = zero();
  scores.forEach((s) => add(counts, s.counts));
  return {
    documents: scored.length,
    tableless: scores.length - scored.length,
    p,
    r,
    f1: p + r ? (2 * p * r) / (p + r) : 0,
    below: scored.filter((s) => s.f1 < TARGET[dpi]).length,
    min: Math.min(1, ...scored.map((s) => s.f1)),
    counts,
  };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '-');

/** The summary rows of `npm run eval`: per folder and resolution, and over all. */
export function agreementRows(docs: AgreementDoc[], out: string): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const groups = [...new Set(docs.map((d) => d.group))];
  for (const dpi of AGREEMENT_DPIS) {
    const scores = scoreDocs(docs, out, dpi);
    for (const g of groups.length > 1 ? [...groups, 'all'] : groups) {
      const s = summarize(scores.filter((x) => g === 'all' || x.doc.group === g), dpi);
      rows.push([
        `${g} ${dpi} dpi: F1 (P / R); docs < ${TARGET[dpi]}; cells read`,
        `${s.f1.toFixed(4)} (${s.p.toFixed(4)} / ${s.r.toFixed(4)}); ${s.below} of ${s.documents} (min ${s.min.toFixed(2)}); ${pct(s.counts.cellsRead, s.counts.cells)}`,
      ]);
    }
  }
  return rows;
}

/** The detail: every document at each resolution, the worst pages, and the misses by cause. */
export function agreementReport(docs: AgreementDoc[], out: string, root: string, worst = 15): string {
  const lines: string[] = [];
  const byDpi = AGREEMENT_DPIS.map((dpi) => scoreDocs(docs, out, dpi));
  lines.push(`document${' '.repeat(36)}${AGREEMENT_DPIS.map((d) => `${d} dpi F1  rel  miss(read/layout) extra`.padEnd(42)).join('')}`);
  docs.forEach((doc, i) => {
    const cols = byDpi.map((scores) => {
      const s = scores[i];
      const c = s.counts;
      if (s.error) return `error: ${s.error}`.slice(0, 38).padEnd(40);
      return `${s.f1.toFixed(3)} ${String(c.truth).padStart(5)}  ${String(c.reading).padStart(4)} / ${String(c.layout).padEnd(4)}  ${String(c.found - c.hit).padStart(8)}`.padEnd(40);
    });
    lines.push(`${relative(root, doc.pdf).slice(-42).padEnd(44)}${cols.join('')}`);
  });
  byDpi.forEach((scores, k) => {
    const dpi = AGREEMENT_DPIS[k];
    const s = summarize(scores, dpi);
    lines.push('', `${dpi} dpi: F1 ${s.f1.toFixed(4)} (P ${s.p.toFixed(4)} R ${s.r.toFixed(4)}) over ${s.documents} documents with tables (${s.tableless} with none on either path); ${s.below} below ${TARGET[dpi]}`);
    lines.push(`  relations of the PDF path ${s.counts.truth}, found ${s.counts.hit}; missed: ${s.counts.reading} reading, ${s.counts.layout} layout; extra ${s.counts.found - s.counts.hit}; cells read ${pct(s.counts.cellsRead, s.counts.cells)}`);
    const pages = scores.flatMap((d) => d.pages.filter((p) => p.counts.truth + p.counts.found > 0).map((p) => ({ d, p })));
    pages.sort((a, b) => a.p.f1 - b.p.f1 || b.p.counts.truth - a.p.counts.truth);
    lines.push(`  worst pages:`);
    for (const { d, p } of pages.slice(0, worst)) {
      const c = p.counts;
      lines.push(`    ${`${d.doc.name} p${p.page}`.padEnd(40)} F1 ${p.f1.toFixed(3)}  relations ${c.truth}, found ${c.found}, missed ${c.reading} reading / ${c.layout} layout, extra ${c.found - c.hit}`);
    }
  });
  return lines.join('\n') + '\n';
}

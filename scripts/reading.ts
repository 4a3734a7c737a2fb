/**
 * `npm run reading [-- --engines=text,program,best,auto,paddle,vote] [--pages=N] [--cache=DIR [--cached]] [--dirs=A,B]`:
 * the reading measure. For each engine, the share of table cells whose words all appear among
 * the words read on the cell's page, the page rendered at 200 dpi by pdftoppm, over every PDF
 * with a text layer under the folders (default: the ICDAR 2013 eu fixtures, the development sets
 * with a text layer beside the repository, test/fixtures): a cell is one of the ICDAR ground
 * truth (`NAME-str.xml` beside the PDF), else of the tables the PDF's text layer gives. It measures reading alone, not layout: a relation needs both its cells
 * read, so table F1 on images is bounded by this share squared.
 *
 * Engines: `text` the PDF text layer (pdftotext; the ceiling), `program` the `tesseract` program
 * on the PNG as it is (Debian's fast models), `best` the same with Tesseract's "best" LSTM models
 * from `@tesseract.js-data/eng` (4.0.0_best_int), and any `TABLEMILL_OCR_ENGINE` value (`auto`,
 * `native`, `paddle`, `vote`, `fast`…) through the product's raster path (binarisation, rulings,
 * second look). `--cache=DIR` keeps each engine's words per page, so a re-run only reads what
 * changed; delete an engine's files after changing it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { closeOcr, extractImagePages } from '../src/extract/raster/index.js';
import { DEFAULT_EXTRACT_OPTIONS, OCR_ENGINES, type OcrEngine } from '../src/extract/types.js';
import { extractDocument } from '../src/extract/index.js';
import { ICDAR_DIR, REPO_ROOT } from '../test/paths.js';
import { agreementDocs, textLayerDirs, type AgreementDoc } from './agreement.js';
import { allRead, tokens, wordSet } from './read-words.js';

const DPI = 200;
/** Debian's tesseract output configs (`tsv`). */
const TESSDATA_CONFIGS = '/usr/share/tesseract-ocr/5/tessdata/configs';

/** One page's ground truth: the text of each table cell on it. */
interface Page {
  doc: string;
  pdf: string;
  /** The folder the PDF was found under, for the figures per set. */
  group: string;
  page: number;
  cells: string[];
}

function decodeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');
}

/**
 * The cells of every table of a document, grouped by page (1-based): an ICDAR `NAME-str.xml`
 * beside the PDF is the ground truth (the files quote attributes with either mark); without one,
 * the tables the PDF's text layer gives are.
 */
async function groundTruth({ name: doc, pdf, group }: AgreementDoc): Promise<Page[]> {
  const pages = new Map<number, string[]>();
  const str = pdf.replace(/\.pdf$/i, '-str.xml');
  if (existsSync(str)) {
    const xml = readFileSync(str, 'utf8');
    for (const region of xml.matchAll(/<region[^>]*\bpage=["'](\d+)["'][^>]*>([\s\S]*?)<\/region>/g)) {
      const page = Number(region[1]);
      const cells = pages.get(page) ?? [];
      for (const c of region[2].matchAll(/<content>([\s\S]*?)<\/content>/g)) cells.push(decodeXml(c[1]));
      pages.set(page, cells);
    }
  } else {
    for (const t of (await extractDocument(new Uint8Array(readFileSync(pdf)))).tables) {
      pages.set(t.page, [...(pages.get(t.page) ?? []), ...t.cells.map((c) => c.text)]);
    }
  }
  return [...pages].sort((a, b) => a[0] - b[0]).map(([page, cells]) => ({ doc, pdf, group, page, cells }));
}

/** Cells of `page` all of whose words are among `read` (empty cells are left out). */
function cellsRead(page: Page, read: string[]): { cells: number; read: number } {
  const have = wordSet(read);
  let cells = 0;
  let ok = 0;
  for (const c of page.cells) {
    if (tokens(c).length === 0) continue;
    cells++;
    if (allRead(c, have)) ok++;
  }
  return { cells, read: ok };
}

let bestDir: string | null = null;
/** A tessdata folder with the "best" English model, ungzipped once per run. */
function bestModels(): string {
  if (bestDir) return bestDir;
  const pkg = dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json'));
  bestDir = mkdtempSync(join(tmpdir(), 'tablemill-best-'));
  writeFileSync(join(bestDir, 'eng.traineddata'), gunzipSync(readFileSync(join(pkg, '4.0.0_best_int', 'eng.traineddata.gz'))));
  // The `tsv` output config is looked up in the tessdata folder too.
  symlinkSync(TESSDATA_CONFIGS, join(bestDir, 'configs'));
  return bestDir;
}

function tesseractWords(png: string, tessdata: string | null): string[] {
  const args = [png, '-', '--psm', '3', '--oem', '1', '-l', 'eng'];
  if (tessdata) args.push('--tessdata-dir', tessdata);
  args.push('tsv');
  const r = spawnSync('env', ['OMP_THREAD_LIMIT=1', 'tesseract', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`tesseract failed on ${png}: ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter((l) => l.startsWith('5\t'))
    .map((l) => l.split('\t').slice(11).join('\t').trim())
    .filter(Boolean);
}

async function readPage(engine: string, p: Page, png: string): Promise<string[]> {
  if (engine === 'text') {
    return execFileSync('pdftotext', ['-f', String(p.page), '-l', String(p.page), p.pdf, '-'], { encoding: 'utf8' }).split(/\s+/).filter(Boolean);
  }
  if (engine === 'program') return tesseractWords(png, null);
  if (engine === 'best') return tesseractWords(png, bestModels());
  if (!(OCR_ENGINES as readonly string[]).includes(engine)) throw new Error(`unknown engine ${engine}: text, program, best or ${OCR_ENGINES.join(', ')}`);
  const [layout] = await extractImagePages(readFileSync(png), 'image/png', { ...DEFAULT_EXTRACT_OPTIONS, ocrEngine: engine as OcrEngine });
  return layout.words.map((w) => w.text);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Every `step`-th page of the set, so a short run still spans the documents. */
function spread<T>(xs: T[], n: number): T[] {
  if (n >= xs.length) return xs;
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(xs[Math.floor((i * xs.length) / n)]);
  return out;
}

async function main(args: string[]): Promise<void> {
  const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const engines = (flag('engines') ?? 'text,program,auto').split(',').filter(Boolean);
  const cache = flag('cache');
  // --cached: only the pages every engine has in the cache (figures in seconds, from earlier runs).
  const cachedOnly = args.includes('--cached');
  const dirs = flag('dirs')?.split(',') ?? [ICDAR_DIR, ...textLayerDirs(join(REPO_ROOT, '..', 'shared', 'data'), REPO_ROOT)];
  const all: Page[] = [];
  for (const doc of agreementDocs(dirs)) all.push(...(await groundTruth(doc)));
  let pages = spread(all, Number(flag('pages')) || all.length);
  if (cachedOnly && cache) pages = pages.filter((p) => engines.every((e) => existsSync(join(cache, e, `${p.doc}-${p.page}.json`))));
  const work = mkdtempSync(join(tmpdir(), 'tablemill-reading-'));
  const totals = new Map<string, { cells: number; read: number; ms: number[] }>(engines.map((e) => [e, { cells: 0, read: 0, ms: [] }]));
  // A cell counts for "any" when some engine of the run read all its words.
  const anyOf = { cells: 0, read: 0 };
  try {
    for (const p of pages) {
      const png = join(work, `${p.doc}-${p.page}.png`);
      execFileSync('pdftoppm', ['-r', String(DPI), '-png', '-singlefile', '-f', String(p.page), '-l', String(p.page), p.pdf, png.slice(0, -4)]);
      const reads = new Map<string, string[]>();
      for (const e of engines) {
        const file = cache ? join(cache, e, `${p.doc}-${p.page}.json`) : null;
        let words: string[];
        if (file && existsSync(file)) words = JSON.parse(readFileSync(file, 'utf8')) as string[];
        else {
          const t = performance.now();
          words = await readPage(e, p, png);
          totals.get(e)!.ms.push(performance.now() - t);
          if (file) {
            mkdirSync(dirname(file), { recursive: true });
            writeFileSync(file, JSON.stringify(words));
          }
        }
        reads.set(e, words);
        const r = cellsRead(p, words);
        for (const key of [e, `${e}\u0000${p.group}`]) {
          if (!totals.has(key)) totals.set(key, { cells: 0, read: 0, ms: [] });
          totals.get(key)!.cells += r.cells;
          totals.get(key)!.read += r.read;
        }
      }
      const ocr = engines.filter((e) => e !== 'text').map((e) => wordSet(reads.get(e)!));
      for (const c of p.cells) {
        if (tokens(c).length === 0) continue;
        anyOf.cells++;
        if (ocr.some((have) => allRead(c, have))) anyOf.read++;
      }
      process.stderr.write(`${p.doc} p${p.page}: ${engines.map((e) => `${e} ${cellsRead(p, reads.get(e)!).read}`).join(', ')} of ${cellsRead(p, []).cells}\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (bestDir) rmSync(bestDir, { recursive: true, force: true });
    await closeOcr();
  }
  console.log(`reading measure: ${pages.length} pages at ${DPI} dpi, table cells (ICDAR ground truth, else the text layer's tables) whose words all appear on the page`);
  console.log('engine      cells read   share   median ms/page (this run)');
  for (const [key, t] of totals) {
    const [e, group] = key.split('\u0000');
    const label = group ? `  ${group}` : e;
    console.log(`${label.padEnd(14)} ${`${t.read}/${t.cells}`.padStart(11)}  ${((100 * t.read) / t.cells).toFixed(1).padStart(5)} %   ${group ? '' : t.ms.length ? median(t.ms).toFixed(0) : 'cached'}`);
  }
  if (engines.filter((e) => e !== 'text').length > 1) console.log(`any OCR engine of this run: ${anyOf.read}/${anyOf.cells} ${((100 * anyOf.read) / anyOf.cells).toFixed(1)} %`);
}

await main(process.argv.slice(2));

/**
 * OCR with tesseract.js 7, offline: traineddata comes from the installed `@tesseract.js-data/*`
 * packages (read from disk, `cacheMethod: 'none'`, so nothing is fetched or written), and one
 * worker per language set is created per process or worker thread and reused for every page.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, symlinkSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import Tesseract from 'tesseract.js';
import { ExtractError } from '../types.js';
import { parseTsv, type OcrWord } from './tsv.js';

const require = createRequire(import.meta.url);

/** The LSTM-only integer models: 2.9 MB against 10.9 MB for the legacy+LSTM files, and as accurate for LSTM. */
const MODEL_DIR = '4.0.0_best_int';

/** Idle workers are ended after this long, so a process that never calls closeOcr still exits. */
const IDLE_MS = 15_000;

interface Slot {
  worker: Promise<Tesseract.Worker>;
  queue: Promise<unknown>;
  idle: NodeJS.Timeout | null;
  pending: number;
}

const slots = new Map<string, Slot>();

/** Folder of a language's traineddata, or null when its package is not installed. */
export function languageDir(lang: string): string | null {
  try {
    const dir = join(dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), MODEL_DIR);
    return existsSync(join(dir, `${lang}.traineddata.gz`)) ? dir : null;
  } catch {
    return null;
  }
}

/**
 * One folder holding every language of `langs` (tesseract.js reads all of them from one
 * `langPath`): the package folder itself for one language, else a folder of symlinks.
 */
function langPathFor(langs: string[]): string {
  const dirs = langs.map((l) => [l, languageDir(l)] as const);
  const missing = dirs.filter(([, d]) => d === null).map(([l]) => l);
  if (missing.length) {
    throw new ExtractError(
      'extraction_failed',
      `OCR language data not installed: ${missing.join(', ')} (install @tesseract.js-data/${missing[0]} or change TABLEMILL_OCR_LANGS)`,
    );
  }
  if (dirs.length === 1) return dirs[0][1]!;
  const dir = join(tmpdir(), `tablemill-tessdata-${process.pid}-${langs.join('+')}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [lang, d] of dirs) symlinkSync(join(d!, `${lang}.traineddata.gz`), join(dir, `${lang}.traineddata.gz`));
  return dir;
}

function slotFor(langs: string): Slot {
  let slot = slots.get(langs);
  if (!slot) {
    const langPath = langPathFor(langs.split('+'));
    const worker = Tesseract.createWorker(langs, Tesseract.OEM.LSTM_ONLY, {
      langPath,
      cacheMethod: 'none',
      gzip: true,
      errorHandler: () => {},
    });
    slot = { worker, queue: Promise.resolve(), idle: null, pending: 0 };
    slots.set(langs, slot);
    // A worker that failed to start is forgotten, so the next page tries again.
    worker.catch(() => slots.delete(langs));
  }
  if (slot.idle) clearTimeout(slot.idle);
  slot.idle = null;
  return slot;
}

function armIdle(langs: string, slot: Slot): void {
  if (slot.idle) clearTimeout(slot.idle);
  slot.idle = null;
  if (slot.pending > 0) return;
  slot.idle = setTimeout(() => {
    if (slots.get(langs) === slot) slots.delete(langs);
    void slot.worker.then((w) => w.terminate()).catch(() => {});
  }, IDLE_MS);
  slot.idle.unref();
}

/**
 * Tesseract settings both engines run with. `tessedit_do_invert=0`: the page we send is our own
 * black-on-white binarisation, so Tesseract's second reading of doubtful lines as white-on-black
 * text can find nothing (it cost 2 % of the bench's OCR time).
 */
export const ENGINE_PARAMETERS: Record<string, string> = { tessedit_do_invert: '0' };

/** Options of one recognition. */
export interface RecognizeOptions {
  langs: string;
  /** Tesseract page segmentation mode. */
  psm: number;
  /** Resolution of the image, so Tesseract's size heuristics fit. */
  dpi: number;
  /** Epoch ms after which the in-process engine stops (ExtractOptions.deadlineAt). */
  deadlineAt?: number;
}

/** Recognises an image file (PGM/PNG bytes) with the process' shared tesseract.js worker. */
export async function recognizeJs(image: Buffer, o: RecognizeOptions): Promise<OcrWord[]> {
  const slot = slotFor(o.langs);
  slot.pending++;
  const job = slot.queue.then(async () => {
    const worker = await slot.worker;
    await worker.setParameters({
      ...ENGINE_PARAMETERS,
      tessedit_pageseg_mode: String(o.psm) as Tesseract.PSM,
      user_defined_dpi: String(Math.round(o.dpi)),
    });
    const res = await worker.recognize(image, {}, { tsv: true, text: false, blocks: false, hocr: false });
    return parseTsv(res.data.tsv ?? '');
  });
  slot.queue = job.catch(() => {});
  try {
    return await job;
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError('extraction_failed', `OCR failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    slot.pending--;
    armIdle(o.langs, slot);
  }
}

/** Ends every tesseract.js worker of this process (call at shutdown; later pages start new ones). */
export async function closeOcr(): Promise<void> {
  const all = [...slots.values()];
  slots.clear();
  await Promise.all(
    all.map(async (s) => {
      if (s.idle) clearTimeout(s.idle);
      await s.queue;
      await s.worker.then((w) => w.terminate()).catch(() => {});
    }),
  );
}

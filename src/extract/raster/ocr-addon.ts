/**
 * The native engine in-process: libtesseract through our addon (native/ocr.cc, built at install
 * where Debian's libtesseract-dev is present). The model is loaded once per language set and
 * thread, not once per page as a `tesseract` run does (≈ 60 ms), and the page's pixels go over
 * as they are, with no image file to write and parse. Same TSV, same result shape as the program.
 */
import { createRequire } from 'node:module';
import { ExtractError } from '../types.js';
import type { GrayImage } from './gray.js';
import { parseTsv, type OcrWord } from './tsv.js';
import { ENGINE_PARAMETERS, type RecognizeOptions } from './ocr-js.js';
import { missingLanguageError } from './languages.js';
import { missingLanguages } from './ocr-native.js';

interface AddonEngine {
  recognize(px: Uint8Array, w: number, h: number, dpi: number, psm: number, page: number, binary: boolean, deadlineMs?: number): Promise<string>;
  end(): void;
}
interface Addon {
  Engine: new (langs: string, params: Record<string, string>, datapath?: string) => AddonEngine;
  version: string;
  /** Stops every recognition running in this process, in every thread, at its next word. */
  cancelAll(): void;
  /** How many of libtesseract's OpenMP regions the addon has run in the calling thread (native/ocr.cc). */
  openmpRegions(): number;
}

/** Where node-gyp puts the addon (scripts/build-native.js builds it at `npm install`). */
export const ADDON_PATH = '../../../native/build/Release/tablemill_ocr.node';

/**
 * Tesseract's own diagnostics (tprintf: "Mean= 0.00", "Detected 25 diacritics", "Warning: guessing
 * pitch…") go to /dev/null instead of the service's stderr, where they read as errors of ours
 * (a report page can print a dozen such lines). The parameter is process-wide in libtesseract.
 */
const ADDON_PARAMETERS: Record<string, string> = { ...ENGINE_PARAMETERS, debug_file: '/dev/null' };

let addon: Addon | null | undefined;

function loadAddon(): Addon | null {
  if (addon !== undefined) return addon;
  // libtesseract's LSTM runs OpenMP sections of 4 threads; the engine already runs one document
  // per core, and extra threads only spin against each other (a page took 8× longer with them).
  // The addon now runs libtesseract's regions itself, in the calling thread (native/ocr.cc); the
  // limit still holds libgomp to one thread for an addon built before that.
  // libgomp reads OMP_THREAD_LIMIT once, from the real environment, when it is loaded with the
  // addon. Set here, that reaches it only from the main thread (the CLI, the benchmark): a worker
  // thread's process.env is its own copy, so the extraction pool sets it before its threads start.
  process.env.OMP_THREAD_LIMIT ??= '1';
  try {
    addon = createRequire(import.meta.url)(ADDON_PATH) as Addon;
  } catch {
    addon = null;
  }
  return addon;
}

interface Slot {
  engine: AddonEngine;
  queue: Promise<unknown>;
  busy: number;
}
/** One engine per language set in this thread; null where the language data is missing. */
const slots = new Map<string, Slot | null>();

function slotFor(langs: string): Slot | null {
  const cached = slots.get(langs);
  if (cached !== undefined) return cached;
  const a = loadAddon();
  let slot: Slot | null = null;
  if (a) {
    try {
      slot = { engine: new a.Engine(langs, ADDON_PARAMETERS), queue: Promise.resolve(), busy: 0 };
    } catch {
      slot = null;
    }
  }
  slots.set(langs, slot);
  return slot;
}

/** Whether the addon is built and has these languages (checked once per language set). */
export function addonAvailable(langs: string): boolean {
  return slotFor(langs) !== null;
}

/**
 * How many OpenMP regions of libtesseract the addon ran itself, serially (native/ocr.cc: not
 * libgomp's team of one, which cost a futex call per region); null where the addon is not built.
 */
export function openmpRegionsRun(): number | null {
  return loadAddon()?.openmpRegions() ?? null;
}

/** The libtesseract version of the addon, or null when it is not built. */
export function addonVersion(): string | null {
  return loadAddon()?.version ?? null;
}

async function run(img: GrayImage, o: RecognizeOptions, page: number, binary: boolean): Promise<string> {
  const slot = slotFor(o.langs);
  if (!slot) {
    const missing = missingLanguages(o.langs);
    throw missing.length ? missingLanguageError(missing) : new ExtractError('extraction_failed', `the OCR addon is not built, or cannot load ${o.langs}`);
  }
  // One TessBaseAPI serves one recognition at a time.
  slot.busy++;
  const job = slot.queue.then(() => {
    const left = o.deadlineAt === undefined ? undefined : Math.max(1, o.deadlineAt - Date.now());
    return slot.engine.recognize(img.data, img.width, img.height, Math.round(o.dpi), o.psm, page, binary, left);
  });
  slot.queue = job.catch(() => {});
  try {
    return await job;
  } catch (err) {
    throw new ExtractError('extraction_failed', `OCR failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    slot.busy--;
  }
}

/** Recognises a black-and-white page (pixels 0 or 255): Tesseract skips its thresholding. */
export async function recognizeAddon(img: GrayImage, o: RecognizeOptions): Promise<OcrWord[]> {
  return parseTsv(await run(img, o, 0, true));
}

/** Recognises grey crops one after another on the loaded model; one word list per crop, in order. */
export async function recognizeAddonMany(imgs: GrayImage[], o: RecognizeOptions): Promise<OcrWord[][]> {
  const out: OcrWord[][] = [];
  for (const img of imgs) out.push(parseTsv(await run(img, o, 0, false)));
  return out;
}

// A process that exits without closeOcr still frees its idle models (libtesseract otherwise
// reports them as leaks on the way out); one still recognising is left to the OS.
process.once('exit', () => {
  for (const s of slots.values()) if (s && s.busy === 0) s.engine.end();
  slots.clear();
});

/**
 * Stops every in-process recognition in every thread (the addon is loaded once per process): a
 * worker thread being terminated waits for its running recognition, so shutdown calls this to
 * end them at the next word instead of after the page. A no-op where the addon is not built.
 */
export function cancelAllRecognitions(): void {
  loadAddon()?.cancelAll();
}

/** Ends this thread's engines (their models are freed; the next page loads them again). */
export async function closeAddon(): Promise<void> {
  const all = [...slots.values()];
  slots.clear();
  for (const s of all) {
    if (!s) continue;
    await s.queue;
    s.engine.end();
  }
}

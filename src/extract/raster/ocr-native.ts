/**
 * OCR with the `tesseract` program where it is installed (`ocrEngine: 'native'`): the image goes
 * in on stdin, TSV comes out on stdout, one OpenMP thread per process (`OMP_THREAD_LIMIT=1`:
 * the engine already runs one document per core, and Tesseract's threads only fight over them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExtractError } from '../types.js';
import { parseTsv, type OcrWord } from './tsv.js';
import { ENGINE_PARAMETERS, type RecognizeOptions } from './ocr-js.js';
import { missingLanguageError } from './languages.js';

let installed: Set<string> | null | undefined;

/** Languages the `tesseract` program has, or null when it is not installed (checked once). */
export function nativeLanguages(): Set<string> | null {
  if (installed !== undefined) return installed;
  const r = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) installed = null;
  else installed = new Set(r.stdout.split('\n').slice(1).map((l) => l.trim()).filter(Boolean));
  return installed;
}

/** The languages of `langs` (`eng+deu`) that the system's traineddata lacks (all of them without the program). */
export function missingLanguages(langs: string): string[] {
  const have = nativeLanguages();
  return langs.split('+').filter((l) => !have?.has(l));
}

/** Whether `ocrEngine: 'native'` can run these languages here. */
export function nativeAvailable(langs: string): boolean {
  const have = nativeLanguages();
  return have !== null && langs.split('+').every((l) => have.has(l));
}

function checkLanguages(langs: string): void {
  const have = nativeLanguages();
  if (have === null) throw new ExtractError('extraction_failed', 'ocr engine "native" needs the tesseract program, which is not installed (on Debian: apt-get install tesseract-ocr)');
  const missing = langs.split('+').filter((l) => !have.has(l));
  if (missing.length) throw missingLanguageError(missing);
}

/** Recognises an image file (PBM/PGM/PNG bytes) with the `tesseract` program. */
export async function recognizeNative(image: Buffer, o: RecognizeOptions): Promise<OcrWord[]> {
  checkLanguages(o.langs);
  return run('stdin', image, o);
}

/**
 * Recognises several small images (the rescue crops of a page) in one `tesseract` run: the
 * program takes a text file listing image files and numbers its TSV rows by image, so a page's
 * crops cost one process start (≈ 150 ms with the model load), not one each. Returns one word
 * list per image, in order.
 */
export async function recognizeNativeMany(images: Buffer[], o: RecognizeOptions): Promise<OcrWord[][]> {
  if (images.length === 0) return [];
  checkLanguages(o.langs);
  const dir = await mkdtemp(join(tmpdir(), 'tablemill-ocr-'));
  try {
    const files = images.map((_, i) => join(dir, `${i}.pgm`));
    await Promise.all(images.map((b, i) => writeFile(files[i], b)));
    const list = join(dir, 'images.txt');
    await writeFile(list, files.join('\n') + '\n');
    const words = await run(list, null, o);
    const out: OcrWord[][] = images.map(() => []);
    for (const w of words) if (w.image >= 1 && w.image <= out.length) out[w.image - 1].push(w);
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(input: string, stdin: Buffer | null, o: RecognizeOptions): Promise<OcrWord[]> {
  const args = [input, 'stdout', '-l', o.langs, '--oem', '1', '--psm', String(o.psm), '--dpi', String(Math.round(o.dpi))];
  for (const [k, v] of Object.entries(ENGINE_PARAMETERS)) args.push('-c', `${k}=${v}`);
  args.push('tsv');
  return new Promise<OcrWord[]>((resolve, reject) => {
    // env(1) adds the variable to the inherited environment (config.ts alone reads process.env).
    const child = spawn('env', ['OMP_THREAD_LIMIT=1', 'tesseract', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 4000) err += b.toString('utf8');
    });
    child.on('error', (e) => reject(new ExtractError('extraction_failed', `tesseract could not start: ${e.message}`)));
    child.on('close', (code) => {
      if (code !== 0) reject(new ExtractError('extraction_failed', `tesseract exited with ${code}: ${err.trim().split('\n').pop() ?? ''}`));
      else resolve(parseTsv(Buffer.concat(out).toString('utf8')));
    });
    // A closed stdin (the child died early) surfaces through 'close' with its exit code.
    child.stdin.on('error', () => {});
    child.stdin.end(stdin ?? undefined);
  });
}

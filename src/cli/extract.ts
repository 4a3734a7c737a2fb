/**
 * `tablemill extract FILE... [--out DIR]`: runs the engine without a server. One file without
 * --out prints its JSON on stdout; with --out each input NAME.ext becomes DIR/NAME.json. A file
 * that fails gets `{"processing_error": {code, message}}` in its place; the exit code is 1 when
 * any file failed, 0 when all succeeded, 2 on a usage error.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { ParsedArgs } from './args.js';
import { loadConfig } from '../config.js';
import { extractDocument, toProcessingError } from '../extract/index.js';
import { ExtractError, type ExtractOptions } from '../extract/types.js';

const HELP = `usage: tablemill extract FILE... [--out DIR] [--pretty] [--max-pages N] [--ocr-langs eng+deu] [--ocr-engine auto|js|native|program]

Runs the extraction engine on each FILE (PDF, PNG, JPEG, TIFF, WebP).
  one FILE, no --out   its result JSON ({page_count, document_type, fields, tables, line_items, totals}) on stdout
  --out DIR            DIR/NAME.json for each input NAME.ext (DIR is created)
A file that cannot be extracted gets {"processing_error": {"code", "message"}} instead.
Exit code: 0 when every file succeeded, 1 when at least one failed, 2 on a usage error.`;

async function extractFile(path: string, opts: ExtractOptions): Promise<{ ok: boolean; json: unknown }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err) {
    return { ok: false, json: { processing_error: toProcessingError(new ExtractError('extraction_failed', `cannot read ${path}: ${(err as Error).message}`)) } };
  }
  try {
    return { ok: true, json: await extractDocument(bytes, opts) };
  } catch (err) {
    return { ok: false, json: { processing_error: toProcessingError(err) } };
  }
}

export async function run(args: ParsedArgs): Promise<number> {
  if (args.flags.help === 'true') {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const files = args.positionals;
  const out = args.flags.out;
  if (files.length === 0 || (files.length > 1 && !out)) {
    process.stderr.write((files.length === 0 ? 'extract: no input files\n\n' : 'extract: several files need --out DIR\n\n') + HELP + '\n');
    return 2;
  }
  const config = loadConfig(process.env, args.flags);
  const opts: ExtractOptions = {
    maxPages: config.limits.maxPages,
    maxMegapixels: config.limits.maxMegapixels,
    maxInflatedBytes: config.limits.maxInflatedBytes,
    ocrLangs: config.ocr.langs,
    ocrEngine: config.ocr.engine,
  };
  const indent = args.flags.pretty === 'true' ? 2 : undefined;
  if (out) await mkdir(out, { recursive: true });
  let failed = 0;
  for (const file of files) {
    const { ok, json } = await extractFile(file, opts);
    if (!ok) {
      failed++;
      const pe = (json as { processing_error: { code: string; message: string } }).processing_error;
      process.stderr.write(`extract: ${file}: ${pe.code}: ${pe.message}\n`);
    }
    const text = JSON.stringify(json, null, indent) + '\n';
    if (out) await writeFile(join(out, basename(file, extname(file)) + '.json'), text);
    else process.stdout.write(text);
  }
  // tesseract.js runs in worker threads that keep the process alive; end them and free the models.
  await (await import('../extract/raster/index.js')).closeOcr();
  return failed > 0 ? 1 : 0;
}

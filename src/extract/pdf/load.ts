/**
 * Opens a PDF with pdf.js (the 5.6 legacy build, which runs on Node 20) and turns its failures
 * into `ExtractError`s: a password → encrypted_file, anything unparseable → corrupt_file.
 * pdf.js is loaded on the first PDF opened: with its worker and the two @napi-rs/canvas builds
 * it brings, about 0.8 s of CPU and 80 MB that a process reading only images or XML never needs.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ExtractError } from '../types.js';

type PdfJs = typeof import('./pdfjs.js');
let loading: Promise<PdfJs> | null = null;
let loaded: PdfJs | null = null;

/** pdf.js as the engine uses it (`pdfjs.ts`), loaded on the first call. */
export function pdfjs(): Promise<PdfJs> {
  return (loading ??= import('./pdfjs.js').then((m) => (loaded = m)));
}

/** pdf.js for code holding a page `openPdf` gave: loaded already, so no await comes between its calls to pdf.js. */
export function loadedPdfjs(): PdfJs {
  if (!loaded) throw new Error('pdf.js is not loaded: the document was not opened with openPdf');
  return loaded;
}

const require = createRequire(import.meta.url);
const PDFJS_ROOT = dirname(require.resolve('pdfjs-dist/package.json'));
// pdf.js reads these from the file system in Node; trailing slashes are required.
const CMAP_URL = join(PDFJS_ROOT, 'cmaps') + '/';
const STANDARD_FONTS_URL = join(PDFJS_ROOT, 'standard_fonts') + '/';

/**
 * Opens `bytes` (copied: pdf.js detaches the buffer it is given). pdf.js leaves out images over
 * `maxMegapixels` (its `maxImageSize`), which `checkPdfBounds` cannot see (inline images).
 */
export async function openPdf(bytes: Uint8Array, maxMegapixels = 50): Promise<PDFDocumentProxy> {
  if (bytes.byteLength === 0) throw new ExtractError('corrupt_file', 'the file is empty (0 bytes)');
  const { getDocument } = await pdfjs();
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    maxImageSize: maxMegapixels * 1e6,
    cMapUrl: CMAP_URL,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONTS_URL,
    useSystemFonts: false,
    disableFontFace: true,
    // 0 = errors only: pdf.js warns on stderr about every recoverable oddity, which is noise here.
    verbosity: 0,
    // Fail fast: a password never comes (there is no one to ask).
    stopAtErrors: false,
  });
  // Without this handler pdf.js waits forever for a password (encrypted files must fail fast).
  task.onPassword = () => {
    void task.destroy();
  };
  try {
    const doc = await task.promise;
    if (doc.numPages < 1) {
      await doc.destroy();
      throw new ExtractError('corrupt_file', 'the PDF has no pages');
    }
    return doc;
  } catch (err) {
    throw pdfError(err);
  }
}

/** Maps a pdf.js failure to an ExtractError (PasswordException → encrypted_file, …). */
export function pdfError(err: unknown): ExtractError {
  if (err instanceof ExtractError) return err;
  const name = (err as { name?: string } | null)?.name ?? '';
  const message = (err as { message?: string } | null)?.message ?? String(err);
  if (name === 'PasswordException' || /password/i.test(message) || /destroyed/i.test(message)) {
    return new ExtractError('encrypted_file', 'the PDF is encrypted with a password');
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'MissingPDFException' || name === 'UnknownErrorException') {
    return new ExtractError('corrupt_file', `the PDF cannot be read: ${message}`);
  }
  return new ExtractError('corrupt_file', `the PDF cannot be read: ${message}`);
}
